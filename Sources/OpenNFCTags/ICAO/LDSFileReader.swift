internal import OpenNFCBytes

/// Reading the eMRTD application's elementary files (ICAO Doc 9303 Part 10 §3.5, Part 11 §9.8): SELECT by file
/// identifier, READ BINARY of the first 4 bytes to learn the TLV's length, then the rest in chunks of the largest
/// size the chip's buffer and secure messaging allow. Offsets above 32 767 use the odd-instruction READ BINARY
/// (`B1`, offset in DO'54', data in DO'53'), as ISO/IEC 7816-4 §11.3.3 and Part 10 §3.5.2 describe.
///
/// | Step | Command | Frames |
/// |---|---|---|
/// | select | `00 A4 02 0C 02 <FID>` | 1 |
/// | header | `00 B0 00 00 04` | 1 |
/// | body | `00 B0 <offset> <n>` (or `00 B1 00 00 … 54 <offset>`) | ⌈(length − 4) / n⌉ |
///
/// With extended length (``firstReadLength`` above 4, from EF.ATR/INFO) the header read asks for a whole chunk:
/// a file that fits comes back in that one answer (`62 82`, end of file reached, or `90 00`; ISO/IEC 7816-4
/// §11.3.3), and the rest follows in chunks — 1 + ⌈length / n⌉ frames a file. A chip that refuses a Le past the
/// end of the file (`67 00`, `6B 00`, `6C xx`) gets the 4-byte header read after all.
package struct LDSFileReader {
    package let session: EMRTDSession
    /// The largest Le per READ BINARY (defaults to the most a short protected answer holds: 231 for 3DES, 223 AES).
    package var chunkLength: Int
    /// The Le of each file's first READ BINARY: 4 (the longest LDS header) with short APDUs, a whole chunk with
    /// extended length.
    package var firstReadLength: Int

    package init(session: EMRTDSession, chunkLength: Int? = nil, firstReadLength: Int = 4) {
        self.session = session
        self.chunkLength = chunkLength ?? session.secureMessaging?.maxShortLe ?? 256
        self.firstReadLength = max(4, firstReadLength)
    }

    /// Selects the eMRTD application `A0 00 00 02 47 10 01` (Part 10 §3.1.1).
    package func selectApplication() throws(PassportError) {
        let r = try session.send(
            CommandAPDU(ins: 0xA4, p1: 0x04, p2: 0x0C, data: [0xA0, 0x00, 0x00, 0x02, 0x47, 0x10, 0x01]),
            name: "SELECT eMRTD application")
        guard r.isSuccess else {
            throw PassportError(.commandRejected, "the chip has no eMRTD application", statusWord: r.sw)
        }
    }

    /// The whole file `fid`, or nil when the chip says it does not exist (`6A 82`).
    package func read(fid: UInt16, name: String) throws(PassportError) -> [UInt8]? {
        let select = try session.send(
            CommandAPDU(ins: 0xA4, p1: 0x02, p2: 0x0C, data: [UInt8(fid >> 8), UInt8(fid & 0xFF)]),
            name: "SELECT \(name)")
        if select.sw == 0x6A82 { return nil }
        guard select.isSuccess else {
            throw PassportError(.commandRejected, "SELECT \(name) was refused", statusWord: select.sw)
        }
        var head: [UInt8] = []
        if firstReadLength > 4 {
            let r = try readBinaryAnswer(offset: 0, length: firstReadLength, name: name)
            if r.isSuccess || r.sw == 0x6282 { head = r.data }
        }
        if head.count < 4 { head = try readBinary(offset: 0, length: 4, name: name) }
        guard let total = Self.tlvLength(head) else {
            throw PassportError(.malformed, "\(name) does not start with a BER-TLV header (\(Hex.encode(head)))")
        }
        var file = head
        while file.count < total {
            // The odd-INS answer wraps the data in DO'53' (up to 4 header bytes) within the same Le.
            let n = min(file.count > 0x7FFF ? chunkLength - 4 : chunkLength, total - file.count)
            let part = try readBinary(offset: file.count, length: n, name: name)
            guard !part.isEmpty else {
                throw PassportError(.malformed, "\(name) ends at byte \(file.count), its header says \(total)")
            }
            file += part
        }
        return Array(file.prefix(total))
    }

    /// The length of the TLV whose first bytes are `head` (tag of 1 or 2 bytes, length up to `83`), or nil.
    static func tlvLength(_ head: [UInt8]) -> Int? {
        guard let first = head.first else { return nil }
        var i = first & 0x1F == 0x1F ? 2 : 1
        guard i < head.count else { return nil }
        let l = head[i]
        i += 1
        if l < 0x80 { return i + Int(l) }
        let n = Int(l & 0x7F)
        guard (1...3).contains(n) else { return nil }
        // A 4-byte header holds the `82 xx` length of a 1-byte tag; longer headers need more bytes than 4.
        guard i + n <= head.count else { return nil }
        return i + n + head[i..<(i + n)].reduce(0) { $0 << 8 | Int($1) }
    }

    func readBinary(offset: Int, length: Int, name: String) throws(PassportError) -> [UInt8] {
        let r = try readBinaryAnswer(offset: offset, length: length, name: name)
        guard r.isSuccess || r.sw == 0x6282 else {
            throw PassportError(.commandRejected, "READ BINARY \(name) at \(offset) was refused", statusWord: r.sw)
        }
        return r.data
    }

    /// READ BINARY at `offset` with the even INS (offsets up to 32 767) or the odd INS, the data unwrapped from
    /// DO'53'; the status word is the caller's to judge.
    func readBinaryAnswer(offset: Int, length: Int, name: String) throws(PassportError) -> ResponseAPDUData {
        let what = "READ BINARY \(name) at \(offset)"
        if offset <= 0x7FFF {
            return try session.send(
                CommandAPDU(ins: 0xB0, p1: UInt8(offset >> 8), p2: UInt8(offset & 0xFF), le: length), name: what)
        }
        let offsetBytes =
            offset > 0xFFFF
            ? [UInt8(offset >> 16), UInt8(offset >> 8 & 0xFF), UInt8(offset & 0xFF)]
            : [UInt8(offset >> 8), UInt8(offset & 0xFF)]
        let r = try session.send(
            CommandAPDU(ins: 0xB1, p1: 0, p2: 0, data: DER.tlv(0x54, offsetBytes), le: length + 4), name: what)
        guard r.isSuccess || r.sw == 0x6282 else { return r }
        let objects: [DataObject]
        do { objects = try DataObject.decodeAll(r.data) } catch {
            throw PassportError(.malformed, "\(what): the answer is not DO'53': \(error)")
        }
        guard let data = objects.first, data.tag == 0x53 else {
            throw PassportError(.malformed, "\(what): the answer is not DO'53'")
        }
        return ResponseAPDUData(data: data.value, sw: r.sw)
    }
}
