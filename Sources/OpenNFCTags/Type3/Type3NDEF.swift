internal import OpenNFCBytes
package import OpenNFCRF

/// NDEF on an NFC Forum Type 3 tag (NFC Forum Type 3 Tag Operation Specification 1.0: NDEF system code `12FC`, the
/// Attribute Information Block in block 0, the message from block 1 on; §7 detection, read, write), with the
/// FeliCa Lite-S's Memory Configuration block for make read-only and format (FeliCa Lite-S User's Manual §3.3).
///
/// | Operation | Commands | Frames (after activation) |
/// |---|---|---|
/// | detect | Polling `12FC` (RC 01) unless the activation already answered `12FC`; Check block 0 | 1 (2 when the poll did not ask for 12FC) |
/// | read | Check blocks 1…⌈Ln/16⌉, as many per Check as Nbr and the frontend allow (at most 15) | ⌈⌈Ln/16⌉ / n⌉ |
/// | write | Update block 0 with WriteF `0F` (old Ln), Update the data blocks (Nbw per Update, zero-padded), Update block 0 with WriteF `00` and the new Ln last | 2 + ⌈⌈len/16⌉ / Nbw⌉ |
/// | make read-only | Update block 0 with RW `00`; on a FeliCa Lite/Lite-S also Check MC (`88`) and Update it with the user blocks' write bits and MC byte 2 cleared (system blocks read-only) | 1, Lite-S 3 |
/// | format | FeliCa Lite/Lite-S only: Check MC, set SYS_OP (byte 3 bit 0) when clear, Update block 0 with the empty attribute block (Nbr 4, Nbw 1, Nmaxb = the writable user blocks after block 0) | 2 (3 when SYS_OP was clear) |
///
/// The attribute block (T3T 1.0 §7.1): Ver (major 1), Nbr, Nbw, Nmaxb (2 bytes BE), 4 unused, WriteF (`00` done,
/// `0F` writing), RW (`00` read-only, `01` read/write), Ln (3 bytes BE), checksum = sum of bytes 0–13 (2 bytes BE).
/// A wrong checksum, another major version, Nbr or Nmaxb of 0, or Ln past Nmaxb × 16 is not NDEF. WriteF `0F` is a
/// write that never finished: detection reports the tag as NDEF with an empty message, reading it throws
/// `tornStateDetected`, and a new write repairs it.
package final class Type3NDEF: NDEFTagProcedure, LayoutDetectingProcedure {
    var link: Type3Link
    let target: RFTarget
    var state: NDEFLayoutState<Type3Layout> = .unknown

    package init(target: RFTarget, frontend: any RFFrontend) {
        self.target = target
        self.link = Type3Link(frontend: frontend, idm: target.identifier)
    }

    /// PMm byte 1, the IC code: `F0` Lite (RC-S965), `F1` Lite-S (RC-S966), `F2` FeliCa Link in Lite-S mode.
    var isLiteFamily: Bool { target.nfcF.map { [0xF0, 0xF1, 0xF2].contains($0.pmm[1]) } ?? false }

    // MARK: detect

    package func detect() throws(TagError) -> NDEFDetection { try detectedStatus() }

    func detectionProcedure() throws(TagError) -> NDEFLayoutState<Type3Layout> {
        if target.nfcF?.systemCode != 0x12FC {
            guard let idm = try link.polls(systemCode: 0x12FC) else {
                return .notNDEF("the card does not answer system code 12FC")
            }
            // A FeliCa Standard card's NDEF system answers with its own IDm; the commands that follow carry it.
            link = link.addressing(idm)
        }
        let block0: [UInt8]
        do {
            block0 = try link.check([0])[0]
        } catch  where error.code == .commandRejected {
            return .notNDEF("the attribute block cannot be read (\(error.reason))")
        }
        switch Type3Attribute.parse(block0) {
        case .success(let a): return .ndef(Type3Layout(attribute: a))
        case .failure(let problem): return .notNDEF(problem.reason)
        }
    }

    // MARK: read

    package func readMessage() throws(TagError) -> [UInt8] {
        let a = try requireLayout().attribute
        guard a.writeF == 0x00 else {
            throw TagError(.tornStateDetected, "the attribute block says a write is in progress (WriteF 0F)")
        }
        guard a.ln > 0 else { return [] }
        let blocks = Array(1...(a.ln + 15) / 16)
        let per = min(a.nbr, link.checkLimit)
        var bytes: [UInt8] = []
        var i = 0
        while i < blocks.count {
            let group = Array(blocks[i..<min(i + per, blocks.count)])
            bytes += try link.check(group).flatMap { $0 }
            i += group.count
        }
        return try NDEFFraming.checked(Array(bytes.prefix(a.ln)))
    }

    // MARK: write

    package func writeMessage(_ message: [UInt8]) throws(TagError) {
        guard !message.isEmpty else { throw TagError(.emptyMessage, "the NDEF message is empty") }
        var a = try requireLayout().attribute
        guard a.rw == 0x01, a.nbw > 0 else { throw TagError(.readOnly, "the attribute block says read-only") }
        guard message.count <= a.capacity else {
            throw TagError(
                .capacityExceeded,
                "the \(message.count)-byte message does not fit \(a.capacity) bytes (Nmaxb \(a.nmaxb))")
        }
        a.writeF = 0x0F
        try link.update([0], [a.bytes])
        let blocks = (message.count + 15) / 16
        let padded = message + [UInt8](repeating: 0, count: blocks * 16 - message.count)
        let per = min(a.nbw, link.updateLimit)
        var b = 0
        while b < blocks {
            let n = min(per, blocks - b)
            try link.update(Array(1 + b...b + n), (b..<b + n).map { Array(padded[$0 * 16..<$0 * 16 + 16]) })
            b += n
        }
        a.writeF = 0x00
        a.ln = message.count
        try link.update([0], [a.bytes])
        state = .ndef(Type3Layout(attribute: a))
    }

    // MARK: make read-only

    package func makeReadOnly() throws(TagError) {
        var a = try requireLayout().attribute
        if a.rw != 0x00 {
            a.rw = 0x00
            try link.update([0], [a.bytes])
            state = .ndef(Type3Layout(attribute: a))
        }
        guard isLiteFamily else { return }
        var mc = try link.check([0x88])[0]
        // Bits 0–13 (S_PAD0–13) and 15 (the MC bits themselves) cleared, REG (bit 14) left; system blocks locked.
        mc[0] = 0x00
        mc[1] &= 0x40
        mc[2] = 0x00
        try link.update([0x88], [mc])
    }

    // MARK: format

    package func format() throws(TagError) {
        guard isLiteFamily else {
            throw TagError(
                .unsupported, "formatting needs the card's memory layout: only FeliCa Lite and Lite-S are known")
        }
        var mc = try link.check([0x88])[0]
        guard mc[0] & 0x01 != 0 else { throw TagError(.readOnly, "block 0 is not writable (MC bit 0 clear)") }
        if mc[3] & 0x01 == 0 {
            guard mc[2] == 0xFF else {
                throw TagError(.readOnly, "NDEF cannot be enabled: the Memory Configuration is locked (MC byte 2 00)")
            }
            mc[3] |= 0x01
            try link.update([0x88], [mc])
        }
        let bits = Int(mc[0]) | Int(mc[1]) << 8
        var nmaxb = 0
        while nmaxb < 13 && bits >> (nmaxb + 1) & 1 != 0 { nmaxb += 1 }
        let a = Type3Attribute(nbr: 4, nbw: 1, nmaxb: nmaxb, writeF: 0, rw: 0x01, ln: 0)
        try link.update([0], [a.bytes])
        state = .ndef(Type3Layout(attribute: a))
    }
}

/// The detected layout: the attribute block as read or last written.
struct Type3Layout: NDEFLayoutDescribing {
    var attribute: Type3Attribute

    var detection: NDEFDetection {
        let a = attribute
        let status: NDEFStatus = a.rw == 0x01 && a.nbw > 0 ? .readWrite : .readOnly
        if a.writeF != 0x00 {
            return NDEFDetection(
                status: status, capacity: a.capacity, messageLength: 0, reason: "write in progress (WriteF 0F)")
        }
        return NDEFDetection(status: status, capacity: a.capacity, messageLength: a.ln)
    }
}

/// The Attribute Information Block (T3T 1.0 §7.1).
struct Type3Attribute: Hashable {
    var version: UInt8 = 0x10
    var nbr: Int
    var nbw: Int
    var nmaxb: Int
    var writeF: UInt8
    var rw: UInt8
    var ln: Int

    init(nbr: Int, nbw: Int, nmaxb: Int, writeF: UInt8, rw: UInt8, ln: Int) {
        self.nbr = nbr
        self.nbw = nbw
        self.nmaxb = nmaxb
        self.writeF = writeF
        self.rw = rw
        self.ln = ln
    }

    /// Parses block 0; the failure is the reason it is not NDEF.
    static func parse(_ b: [UInt8]) -> Result<Type3Attribute, NotNDEF> {
        let sum = b[0..<14].reduce(0) { $0 + Int($1) } & 0xFFFF
        let stored = Int(b[14]) << 8 | Int(b[15])
        guard sum == stored else {
            return .failure(NotNDEF("attribute block checksum \(Hex.encode(b[14..<16])) does not match its sum"))
        }
        guard b[0] >> 4 == 1 else { return .failure(NotNDEF("mapping version \(b[0] >> 4).\(b[0] & 0x0F) is not 1.x")) }
        var a = Type3Attribute(
            nbr: Int(b[1]), nbw: Int(b[2]), nmaxb: Int(b[3]) << 8 | Int(b[4]), writeF: b[9], rw: b[10],
            ln: Int(b[11]) << 16 | Int(b[12]) << 8 | Int(b[13]))
        a.version = b[0]
        guard a.nbr > 0 else { return .failure(NotNDEF("Nbr is 0: the tag cannot be read")) }
        guard a.nmaxb > 0 else { return .failure(NotNDEF("Nmaxb is 0: no NDEF data blocks")) }
        guard a.ln <= a.capacity else { return .failure(NotNDEF("Ln \(a.ln) exceeds Nmaxb × 16 = \(a.capacity)")) }
        guard a.writeF == 0x00 || a.writeF == 0x0F else {
            return .failure(NotNDEF("WriteF \(Hex.encode([a.writeF])) is neither 00 nor 0F"))
        }
        guard a.rw <= 0x01 else { return .failure(NotNDEF("RW flag \(Hex.encode([a.rw])) is neither 00 nor 01")) }
        return .success(a)
    }

    var capacity: Int { nmaxb * 16 }

    /// Why block 0 is not an attribute block.
    struct NotNDEF: Error {
        var reason: String
        init(_ reason: String) { self.reason = reason }
    }

    var bytes: [UInt8] {
        var b: [UInt8] = [version, UInt8(nbr), UInt8(nbw), UInt8(nmaxb >> 8 & 0xFF), UInt8(nmaxb & 0xFF), 0, 0, 0, 0]
        b += [writeF, rw, UInt8(ln >> 16 & 0xFF), UInt8(ln >> 8 & 0xFF), UInt8(ln & 0xFF)]
        let sum = b.reduce(0) { $0 + Int($1) }
        return b + [UInt8(sum >> 8 & 0xFF), UInt8(sum & 0xFF)]
    }
}
