internal import OpenNFCBytes
package import OpenNFCRF

/// NDEF on an NFC Forum Type 5 tag (NFC Forum Type 5 Tag Technical Specification 1.0 §4 memory and CC, §7 NDEF
/// procedures; ISO/IEC 15693-3 commands), over any frontend that carries ISO 15693 requests.
///
/// | Operation | Commands | Frames |
/// |---|---|---|
/// | detect | READ SINGLE BLOCK 0 (the CC; block 1 too for an 8-byte CC in 4-byte blocks), READ MULTIPLE BLOCKS of the T5T area in runs of ⌊(maxResponseSize − 1) ÷ block size⌋ blocks until the NDEF TLV's length is known | 2 usually |
/// | read | the rest of the message's blocks, in the same runs | 2 + ⌈rest ÷ run⌉ |
/// | write | WRITE SINGLE BLOCK: the length block with L = 0 (when it was not), the message blocks that change, the length block last | see `docs/PROCEDURES.md` |
/// | make read-only | WRITE SINGLE BLOCK 0 (CC write access `11`), LOCK BLOCK of every block of the T5T area | 1 + blocks |
/// | format | GET SYSTEM INFORMATION (extended when the memory size is not in the short answer), WRITE the empty NDEF TLV, then the CC (MLEN = the memory ÷ 8; an ICODE SLIX2's counter block 79 left out) | 3–4 |
///
/// Every request is addressed with the UID, as Core NFC addresses them. A CC with the "special frame" feature bit
/// makes writes and locks carry the Option flag; `E2` (or block numbers past 255) selects the extended commands.
/// The T5T area ends at MLEN × 8 bytes from the start of memory: the CC that Android and ST tools write counts the
/// whole memory, the NFC Forum form only the area after the CC, so this reading never runs past the memory.
package final class Type5NDEF: NDEFTagProcedure {
    let link: Type5Link
    let capabilities: RFCapabilities
    var state: State = .unknown
    /// Bytes of memory known so far, from byte 0.
    var known: [UInt8] = []
    var blockSize = 0

    enum State {
        case unknown
        case notNDEF(String)
        case ndef(Layout)
    }

    struct Layout {
        var cc: Type5CapabilityContainer
        /// Byte offset of the NDEF TLV's tag.
        var tlv: Int
        /// The NDEF TLV's length field and where its value starts.
        var length: Int
        var valueStart: Int
        /// End of the T5T area (exclusive), in bytes from the start of memory.
        var areaEnd: Int

        var capacity: Int {
            let room = areaEnd - tlv - 2
            return room - 2 >= 0xFF ? areaEnd - tlv - 4 : max(0, room)
        }
        var status: NDEFStatus { cc.writeAccess == 0 ? .readWrite : .readOnly }
    }

    /// - Parameter uid: the target's UID, MSB first (requests carry it LSB first).
    package init(uid: [UInt8], frontend: any RFFrontend) {
        self.link = Type5Link(frontend: frontend, uid: uid)
        self.capabilities = frontend.capabilities
    }

    /// Blocks per READ MULTIPLE BLOCKS: what the frontend's answer holds after the flags byte, at most 256.
    var runBlocks: Int { max(1, min(256, (capabilities.maxResponseSize - 1) / max(1, blockSize))) }

    // MARK: detect and read

    package func detect() throws(TagError) -> NDEFDetection {
        switch try detectLayout() {
        case .ndef(let l):
            // As the Type 1 and 2 detections do (NFC Forum T5T: the NDEF TLV lies inside the T5T area): a length past
            // the area is a torn or corrupt tag, never a message longer than the capacity.
            try checkInsideArea(l)
            return NDEFDetection(status: l.status, capacity: l.capacity, messageLength: l.length)
        case .notNDEF(let reason): return .notSupported(reason)
        case .unknown: preconditionFailure("detection left no state")
        }
    }

    package func readMessage() throws(TagError) -> [UInt8] {
        guard case .ndef(let l) = try detectLayout() else { throw TagError(.notFormatted, "no NDEF TLV on the tag") }
        try checkInsideArea(l)
        try ensureKnown(upTo: l.valueStart + l.length, cc: l.cc)
        let message = Array(known[l.valueStart..<(l.valueStart + l.length)])
        if !message.isEmpty, let problem = NDEFFraming.problem(in: message) {
            throw TagError(.tornStateDetected, "the NDEF message at byte \(l.valueStart) is incomplete: \(problem)")
        }
        return message
    }

    private func checkInsideArea(_ l: Layout) throws(TagError) {
        guard l.valueStart + l.length <= l.areaEnd else {
            throw TagError(
                .tornStateDetected,
                "the NDEF TLV at byte \(l.tlv) holds \(l.length) bytes, past the T5T area's end at byte \(l.areaEnd)")
        }
    }

    func detectLayout() throws(TagError) -> State {
        if case .unknown = state { state = try findLayout() }
        return state
    }

    private func findLayout() throws(TagError) -> State {
        let first = try link.send(.readSingleBlock(0), what: "READ SINGLE BLOCK 0")
        guard !first.isEmpty else { throw TagError(.invalidResponse, "READ SINGLE BLOCK 0: no data") }
        blockSize = first.count
        known = first
        guard first[0] == 0xE1 || first[0] == 0xE2 else {
            return .notNDEF("block 0 does not start with the T5T magic E1 or E2 (found \(Hex.encode([first[0]])))")
        }
        if Type5CapabilityContainer.needsEightBytes(first) && known.count < 8 {
            known += try link.send(.readSingleBlock(1), what: "READ SINGLE BLOCK 1")
        }
        guard let cc = Type5CapabilityContainer(known) else {
            throw TagError(.invalidResponse, "the capability container \(Hex.encode(Array(known.prefix(8)))) is cut")
        }
        guard cc.majorVersion == 1 else { return .notNDEF("T5T mapping version \(cc.majorVersion) is not 1") }
        guard cc.readAccess == 0 else { return .notNDEF("the CC grants no read access") }
        let areaEnd = cc.areaBytes
        guard areaEnd > cc.length else { return .notNDEF("the CC's T5T area of \(areaEnd) bytes holds no TLV") }
        var i = cc.length
        while i < areaEnd {
            // The header's bytes are read first (they lie within i + 4), so the walk itself sends no frame.
            try ensureKnown(upTo: min(areaEnd, i + 4), cc: cc, areaEnd: areaEnd)
            let known = self.known
            switch try TLVHeader.read(at: i, end: areaEnd, byte: { known[$0] }) {
            case .null:
                i += 1
            case .terminator:
                return .notNDEF("a terminator TLV at byte \(i) before any NDEF TLV")
            case .cut:
                return .notNDEF("no NDEF TLV in the T5T area")
            case .tlv(let t, let length, _, let last):
                if t == 0x03 {
                    return .ndef(Layout(cc: cc, tlv: i, length: length, valueStart: last + 1, areaEnd: areaEnd))
                }
                i = last + 1 + length
            }
        }
        return .notNDEF("no NDEF TLV in the T5T area")
    }

    /// Reads blocks until `known` covers bytes `0..<end`, in runs of ``runBlocks`` blocks, never past the T5T area.
    private func ensureKnown(upTo end: Int, cc: Type5CapabilityContainer, areaEnd: Int? = nil) throws(TagError) {
        let limit = areaEnd ?? cc.areaBytes
        while known.count < end {
            let firstBlock = known.count / blockSize
            let lastBlock = (min(limit, max(end, known.count + runBlocks * blockSize)) - 1) / blockSize
            let count = max(1, min(runBlocks, lastBlock - firstBlock + 1))
            let extended = cc.usesExtendedCommands || firstBlock + count - 1 > 0xFF
            if count == 1 || !cc.supportsReadMultiple {
                known += try link.readBlocks(firstBlock, count: 1, blockSize: blockSize, extended: extended)
                continue
            }
            // The blocks this step needs; the rest of the run is read ahead to save frames.
            let needed = max(1, min(count, (end - 1) / blockSize - firstBlock + 1))
            do {
                known += try link.readBlocks(firstBlock, count: count, blockSize: blockSize, extended: extended)
            } catch  where error.code == .commandRejected && needed < count {
                // ISO/IEC 15693-3 §10.4.5: READ MULTIPLE BLOCKS fails whole when one block of the run cannot be
                // read (an NXP ICODE SLIX2 page behind its read password, an ST25DV area), so a read-ahead past the
                // message must not cost the message: ask again for only the blocks needed.
                known += try link.readBlocks(firstBlock, count: needed, blockSize: blockSize, extended: extended)
            }
        }
    }

    // MARK: write

    package func writeMessage(_ message: [UInt8]) throws(TagError) {
        guard case .ndef(let l) = try detectLayout() else { throw TagError(.notFormatted, "no NDEF TLV on the tag") }
        try NDEFWriteRule.check(
            message, writable: l.status == .readWrite, capacity: l.capacity,
            readOnlyReason: "the CC denies write access")
        let header: [UInt8] =
            message.count < 0xFF
            ? [0x03, UInt8(message.count)] : [0x03, 0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
        var body = header + message
        if l.tlv + body.count < l.areaEnd { body.append(0xFE) }
        let firstBlock = l.tlv / blockSize
        let lastBlock = (l.tlv + body.count - 1) / blockSize
        var image = known
        if image.count < (lastBlock + 1) * blockSize {
            image += [UInt8](repeating: 0, count: (lastBlock + 1) * blockSize - image.count)
        }
        image.replaceSubrange(l.tlv..<(l.tlv + body.count), with: body)
        let lengthBlock = (l.tlv + 1) / blockSize
        let option = l.cc.needsSpecialFrame
        func block(_ n: Int, _ bytes: [UInt8]) throws(TagError) {
            try link.writeBlock(n, bytes, extended: l.cc.usesExtendedCommands || n > 0xFF, option: option)
            let start = n * blockSize
            if known.count < start + blockSize {
                known += [UInt8](repeating: 0, count: start + blockSize - known.count)
            }
            known.replaceSubrange(start..<(start + blockSize), with: bytes)
        }
        func slice(_ n: Int) -> [UInt8] { Array(image[(n * blockSize)..<((n + 1) * blockSize)]) }
        // NFC Forum T5T §7.5.3: the length to 0 first, then the message, the length last, so a tag taken away at any
        // moment reads as the old message, an empty one, or the new one.
        if firstBlock != lastBlock && l.length != 0 {
            var zeroed = slice(lengthBlock)
            zeroed[(l.tlv + 1) % blockSize] = 0x00
            try block(lengthBlock, zeroed)
            state = .ndef(Layout(cc: l.cc, tlv: l.tlv, length: 0, valueStart: l.tlv + 2, areaEnd: l.areaEnd))
        }
        for n in firstBlock...lastBlock where n != lengthBlock {
            let wanted = slice(n)
            if (n + 1) * blockSize <= known.count && Array(known[(n * blockSize)..<((n + 1) * blockSize)]) == wanted {
                continue
            }
            try block(n, wanted)
        }
        try block(lengthBlock, slice(lengthBlock))
        state = .ndef(
            Layout(cc: l.cc, tlv: l.tlv, length: message.count, valueStart: l.tlv + header.count, areaEnd: l.areaEnd))
    }

    // MARK: make read-only and format

    package func makeReadOnly() throws(TagError) {
        guard case .ndef(var l) = try detectLayout() else { throw TagError(.notFormatted, "no NDEF TLV on the tag") }
        let option = l.cc.needsSpecialFrame
        if l.cc.writeAccess != 0x03 {
            var cc = l.cc
            cc.writeAccess = 0x03
            var first = Array(known[0..<blockSize])
            let bytes = cc.bytes
            for (i, b) in bytes.enumerated() where i < blockSize { first[i] = b }
            try link.writeBlock(0, first, extended: false, option: option)
            known.replaceSubrange(0..<blockSize, with: first)
            l.cc = cc
            state = .ndef(l)
        }
        let blocks = (l.areaEnd + blockSize - 1) / blockSize
        for n in 0..<blocks {
            do {
                try link.lockBlock(n, extended: l.cc.usesExtendedCommands || n > 0xFF, option: option)
            } catch  where error.iso15693Error == 0x11 {
                continue  // already locked
            }
        }
    }

    package func format() throws(TagError) {
        let (blocks, size) = try memorySize()
        blockSize = size
        // NXP ICODE SLIX2 (SL2S2602 §8.2): of its 80 blocks the last is the 16-bit counter, not user memory.
        let user = link.uid.count == 8 && link.uid[1] == 0x04 && blocks == 80 ? 79 : blocks
        let total = user * size
        let mlen = total / 8
        // NFC Forum T5T capability container: MLEN (T5T area ÷ 8) is one byte, or two in the 8-byte CC; a larger
        // memory cannot be described.
        guard mlen <= 0xFFFF else {
            throw TagError(
                .unsupported,
                "the tag reports \(total) bytes of memory, more than a Type 5 CC can describe (0xFFFF × 8)")
        }
        var cc: [UInt8] =
            mlen <= 0xFF
            ? [0xE1, 0x40, UInt8(mlen), 0x01]
            : [0xE2, 0x40, 0x00, 0x01, 0x00, 0x00, UInt8(mlen >> 8), UInt8(mlen & 0xFF)]
        let extended = blocks > 256
        var area = cc + [0x03, 0x00, 0xFE]
        while area.count % size != 0 { area.append(0x00) }
        var option = false
        let tlvBlock = cc.count / size
        // The empty NDEF TLV first, the CC last: a format taken away half way leaves a tag without NDEF.
        let firstWrite = Array(area[(tlvBlock * size)..<((tlvBlock + 1) * size)])
        do {
            try link.writeBlock(tlvBlock, firstWrite, extended: extended, option: false)
        } catch  where error.rfError?.code == .timeout {
            // A chip that needs the Option flag for writes stays silent without it (TI Tag-it HF-I Plus); say so
            // in the CC's "special frame" bit.
            option = true
            cc[3] |= 0x10
            area.replaceSubrange(0..<cc.count, with: cc)
            try link.writeBlock(tlvBlock, firstWrite, extended: extended, option: true)
        }
        for n in stride(from: (area.count / size) - 1, through: 0, by: -1) where n != tlvBlock {
            try link.writeBlock(n, Array(area[(n * size)..<((n + 1) * size)]), extended: extended, option: option)
        }
        known = []
        state = .unknown
    }

    /// Blocks and block size from GET SYSTEM INFORMATION (ISO/IEC 15693-3 §10.4.12), or its extended form when the
    /// memory size is not in the short answer (more than 256 blocks).
    func memorySize() throws(TagError) -> (blocks: Int, size: Int) {
        let parsed = try link.systemInfo()
        if let blocks = parsed.blockCount, let size = parsed.blockSize { return (blocks, size) }
        let ext = try link.extendedSystemInfo(0x04)
        guard let blocks = ext.blockCount, let size = ext.blockSize else {
            throw TagError(.unsupported, "the tag reports no memory size: it cannot be formatted without one")
        }
        return (blocks, size)
    }
}
