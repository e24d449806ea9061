internal import OpenNFCBytes
package import OpenNFCRF

/// NDEF on an NFC Forum Type 1 tag (NFC Forum Type 1 Tag Operation Specification 1.2: memory structure, NDEF
/// detection, read, write and read-only procedures), for static (HR0 `x1`, 120 bytes) and dynamic memory
/// (HR0 `x2`, up to 2048 bytes).
///
/// | Operation | Commands | Frames (after activation) |
/// |---|---|---|
/// | detect | RALL (HR0, HR1, blocks 0–E: CC and usually every TLV); RSEG only if the TLVs run past byte 119; RID first only when neither the activation nor the target gave UID0–UID3 | 1 usually |
/// | read | RSEG per 128-byte segment past byte 127 the message touches (READ8 for a single block, or when the frontend's answers are shorter than 129 bytes) | 0 (static) or 1 + … |
/// | write | length byte to 0, changed bytes (static: WRITE-E each) or blocks (dynamic: WRITE-E8, WRITE-E for a block with one changed byte), length last | see docs/PROCEDURES.md |
/// | make read-only | WRITE-NE CC3 `0F`, static lock bytes (2 × WRITE-NE, or one WRITE-NE8 of block E), WRITE-NE8 per block of dynamic lock bytes the Lock Control TLVs declare | 3 |
/// | format | control TLVs (dynamic: the Lock Control and Memory Control TLVs of the Topaz 512 layout), empty NDEF TLV, Terminator, then the CC with its magic number written last | 7 (static), 4 (dynamic) |
///
/// Lock Control and Memory Control TLVs are honoured through the TLV walk shared with Type 2 (`NDEF/TLVArea.swift`):
/// the areas they declare are skipped by reads and never written except by make read-only. Blocks D–F (bytes
/// 104–127: reserved, static lock and OTP bytes, and on dynamic tags the bytes the control TLVs declare) are never
/// part of the TLV area. A Type 1 tag answers every write with what it stored; a difference from what was sent is
/// reported as a refused write (a locked block).
package final class Type1NDEF: NDEFTagProcedure, LayoutDetectingProcedure {
    var link: Type1Link?
    let frontend: any RFFrontend
    /// HR0/HR1 from the activation (or RALL/RID once sent).
    var header: NFCAActivation.Type1Header?
    /// Bytes read or written during this activation.
    var memory = [UInt8?](repeating: nil, count: 2048)
    var state: NDEFLayoutState<Type1Layout> = .unknown

    /// - Parameter target: the activated target: its identifier is UID0–UID3 and its NFC-A activation carries
    ///   HR0/HR1 when the frontend read them (a frontend that cannot send RID, like a PN532, still reports both).
    package init(target: RFTarget, frontend: any RFFrontend) {
        self.frontend = frontend
        self.header = target.nfcA?.type1
        if target.identifier.count == 4 { self.link = Type1Link(frontend: frontend, uid: target.identifier) }
    }

    /// The link, after RID when the target gave no 4-byte UID.
    func requireLink() throws(TagError) -> Type1Link {
        if let link { return link }
        let rid = try Type1Link.rid(frontend)
        header = NFCAActivation.Type1Header(hr0: rid.hr0, hr1: rid.hr1)
        let l = Type1Link(frontend: frontend, uid: rid.uid)
        link = l
        return l
    }

    /// Whether RSEG, READ8 and the 8-byte writes may be sent (any HR0 other than `11`, or HR1 from `49`).
    var hasDynamicCommands: Bool { header.map { $0.hr0 != 0x11 || $0.hr1 >= 0x49 } ?? false }

    // MARK: detect

    package func detect() throws(TagError) -> NDEFDetection { try detectedStatus() }

    /// NDEF detection: HR0 names an NDEF-capable Type 1 tag, CC0 is the magic number E1h, the mapping version's
    /// major is 1, read access is granted; then the TLV walk from byte 12 to the NDEF TLV.
    func detectionProcedure() throws(TagError) -> NDEFLayoutState<Type1Layout> {
        try loadStaticArea()
        guard let header else { preconditionFailure("RALL sets the header") }
        guard header.hr0 >> 4 == 0x1 else {
            return .notNDEF("HR0 \(Hex.encode([header.hr0])) is not an NDEF-capable Type 1 tag (high nibble 1)")
        }
        let cc = Type1CapabilityContainer(bytes: (8..<12).map { memory[$0]! })
        if let reason = cc.unsupportedReason { return .notNDEF(reason) }
        let size = cc.memorySize
        if size > 120 && !hasDynamicCommands {
            return .notNDEF(
                "the CC declares \(size) bytes but HR0 \(Hex.encode([header.hr0])) HR1 \(Hex.encode([header.hr1])) "
                    + "offers no command past byte 127")
        }
        var space = TLVAddressSpace(dataEnd: size == 120 ? 104 : size)
        if size > 120 { space.reserved.append(104..<128) }
        switch try TLVWalk.findNDEF(in: space, from: 12, byte: byte) {
        case .ndef(let tlv): return .ndef(Type1Layout(cc: cc, tlv: tlv))
        case .notNDEF(let reason): return .notNDEF(reason)
        }
    }

    /// RALL, once: HR0/HR1 and bytes 0–119.
    func loadStaticArea() throws(TagError) {
        guard memory[0] == nil else { return }
        let rall = try requireLink().rall()
        if let h = header, h.hr0 != rall.hr0 || h.hr1 != rall.hr1 {
            throw TagError(
                .invalidResponse,
                "RALL reports HR0 HR1 \(Hex.encode([rall.hr0, rall.hr1])), the activation \(Hex.encode([h.hr0, h.hr1]))"
            )
        }
        header = NFCAActivation.Type1Header(hr0: rall.hr0, hr1: rall.hr1)
        for (i, b) in rall.bytes.enumerated() { memory[i] = b }
    }

    // MARK: read

    package func readMessage() throws(TagError) -> [UInt8] {
        let layout = try requireLayout()
        guard layout.tlv.messageLength > 0 else { return [] }
        let addresses = layout.tlv.messageAddresses
        try load(addresses)
        return try NDEFFraming.checked(addresses.map { memory[$0]! })
    }

    // MARK: memory access

    /// One byte, reading what holds it when not known yet.
    func byte(_ address: Int) throws(TagError) -> UInt8 {
        if let b = memory[address] { return b }
        try load([address])
        return memory[address]!
    }

    /// Reads every address of `addresses` not known yet with the fewest frames: bytes 0–119 come with RALL; past
    /// them, one RSEG per 128-byte segment, or READ8 where a segment misses a single block (or RSEG's 129-byte
    /// answer exceeds the frontend's limit).
    func load(_ addresses: [Int]) throws(TagError) {
        let missing = addresses.filter { memory[$0] == nil }
        guard !missing.isEmpty else { return }
        if missing.contains(where: { $0 < 120 }) { try loadStaticArea() }
        let blocks = Set(missing.filter { memory[$0] == nil }.map { $0 / 8 })
        guard !blocks.isEmpty else { return }
        guard hasDynamicCommands else {
            // Static tags: bytes 120–127 are read one by one (READ addresses 7 bits, blocks 0–F).
            for a in missing where memory[a] == nil {
                guard a < 128 else {
                    throw TagError(.unsupported, "byte \(a) lies past the static memory this tag's HR0 allows")
                }
                memory[a] = try requireLink().read(a)
            }
            return
        }
        let link = try requireLink()
        let segmentFits = frontend.capabilities.maxResponseSize >= 129
        for segment in Set(blocks.map { $0 / 16 }).sorted() {
            let inSegment = blocks.filter { $0 / 16 == segment }.sorted()
            if inSegment.count > 1 && segmentFits {
                for (i, b) in try link.readSegment(segment).enumerated() { memory[segment * 128 + i] = b }
            } else {
                for block in inSegment {
                    for (i, b) in try link.readBlock(block).enumerated() { memory[block * 8 + i] = b }
                }
            }
        }
    }
}

/// The capability container of a Type 1 tag, bytes 8–11 (T1T 1.2 "Capability Container"): NMN `E1`, version,
/// TMS (memory size ÷ 8 − 1), RWA (read access high nibble, write access low nibble).
struct Type1CapabilityContainer: Hashable {
    static let magicNDEF: UInt8 = 0xE1
    var bytes: [UInt8]

    var magic: UInt8 { bytes[0] }
    var version: UInt8 { bytes[1] }
    /// Total memory in bytes, (TMS + 1) × 8.
    var memorySize: Int { (Int(bytes[2]) + 1) * 8 }
    var readAccess: UInt8 { bytes[3] >> 4 }
    var writeAccess: UInt8 { bytes[3] & 0x0F }

    /// Why the CC rules NDEF out, or nil (a newer minor version is accepted, a newer major is not).
    var unsupportedReason: String? {
        if magic != Self.magicNDEF { return "CC0 is \(Hex.encode([magic])), not the NDEF magic number E1" }
        if version >> 4 != 1 { return "NDEF mapping version \(version >> 4).\(version & 0x0F) is not supported" }
        if memorySize < 120 { return "the CC declares \(memorySize) bytes, less than a static Type 1 tag has" }
        if readAccess != 0 { return "CC read access \(Hex.encode([bytes[3]])) does not grant reading" }
        return nil
    }
}

/// What NDEF detection learnt about a Type 1 tag: the CC and the shared TLV layout.
struct Type1Layout: Hashable, NDEFLayoutDescribing {
    var cc: Type1CapabilityContainer
    var tlv: NDEFTLVLayout

    var isStatic: Bool { cc.memorySize == 120 }
    var status: NDEFStatus { cc.writeAccess == 0 ? .readWrite : .readOnly }
    var detection: NDEFDetection {
        NDEFDetection(status: status, capacity: tlv.capacity, messageLength: tlv.messageLength)
    }
}
