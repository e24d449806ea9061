/// READ BINARY and UPDATE BINARY with the odd INS codes `B1` / `D7` (ISO/IEC 7816-4 §11.3.3, §11.3.5): the offset
/// travels in an offset data object (tag `54`) in the command data field, so that files larger than 32 KiB can be
/// reached; the data travels in a discretionary data object (tag `53`).
///
/// | Form | Command data | Response data |
/// |---|---|---|
/// | READ BINARY `B1` | `54 L offset` (1–3 bytes, big-endian) | `53 L data` (BER length: `L`, `81 L`, `82 LL`) |
/// | UPDATE BINARY `D7` | `54 L offset 53 L data` | none |
///
/// P1-P2 `0000` addresses the current EF; any other value is the file identifier of an EF of the current DF, which
/// becomes current. Ne counts the whole `53` object. A malformed or missing data object is `6A 80`; the other status
/// words are those of the even forms.
extension ISO7816Engine {
    /// Parses a BER-TLV with a one-byte tag at `i` (lengths up to `82 LL`), returning (tag, value range, end).
    private static func tlv(_ d: [UInt8], at i: Int) -> (tag: UInt8, value: Range<Int>, end: Int)? {
        guard i + 1 < d.count else { return nil }
        var p = i + 1
        var length = Int(d[p])
        p += 1
        if length == 0x81 || length == 0x82 {
            let n = length - 0x80
            guard p + n <= d.count else { return nil }
            length = d[p..<p + n].reduce(0) { $0 << 8 | Int($1) }
            p += n
        } else if length > 0x7F {
            return nil
        }
        guard p + length <= d.count else { return nil }
        return (d[i], p..<p + length, p + length)
    }

    private static func berLength(_ n: Int) -> [UInt8] {
        if n < 0x80 { return [UInt8(n)] }
        if n < 0x100 { return [0x81, UInt8(n)] }
        return [0x82, UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)]
    }

    /// The EF named by P1-P2 of an odd-INS command.
    private mutating func oddTarget(_ command: ISO7816Command, in tree: some ISO7816FileTree)
        -> Result<ISO7816FileReference, ISO7816Failure>
    {
        let fid = UInt16(command.p1) << 8 | UInt16(command.p2)
        if fid == 0 {
            guard let ef = currentEF else { return .failure(.init(.noCurrentEF)) }
            return .success(ef)
        }
        guard let ef = tree.ef(in: currentDF ?? ISO7816FileReference.masterFile, fileID: fid) else {
            return .failure(.init(.fileNotFound))
        }
        currentEF = ef
        return .success(ef)
    }

    /// The offset in a `54` data object at the start of `data`, and where the object ends.
    private static func offsetObject(_ data: [UInt8]) -> (offset: Int, end: Int)? {
        guard let t = tlv(data, at: 0), t.tag == 0x54, (1...3).contains(t.value.count) else { return nil }
        return (data[t.value].reduce(0) { $0 << 8 | Int($1) }, t.end)
    }

    mutating func readBinaryOdd(_ command: ISO7816Command, in tree: some ISO7816FileTree) -> ISO7816Response {
        guard let ne = command.ne else { return .status(.wrongLength) }
        guard let (offset, end) = Self.offsetObject(command.data), end == command.data.count else {
            return .status(.incorrectData)
        }
        let resolved = oddTarget(command, in: tree)
        guard case .success(let ef) = resolved else { return .status(resolved.failureStatus) }
        guard tree.efAllows(ef, .read) else { return .status(.securityStatusNotSatisfied) }
        let size = tree.efSize(ef)
        guard offset < size else { return .status(.wrongP1P2) }
        guard let limit = responseLimit(command, ne: ne) else { return .status(.wrongLength) }
        // Room for the data once the 53 tag and its length are counted.
        var count = min(size - offset, max(0, limit - 2))
        while count > 0, 1 + Self.berLength(count).count + count > limit { count -= 1 }
        guard count > 0 else { return .status(.wrongLength) }
        let data = [0x53] + Self.berLength(count) + tree.efRead(ef, offset..<offset + count)
        let short = offset + count == size && data.count < limit && !command.neIsMaximum
        return ISO7816Response(data: data, status: short ? .endOfFileReached : .success)
    }

    mutating func updateBinaryOdd<Tree: ISO7816FileTree>(
        _ command: ISO7816Command, in tree: inout Tree, tearAfter: Int?
    ) -> Outcome {
        guard command.ne == nil else { return .status(.wrongLength) }
        guard command.data.count <= limits.mlc else { return .status(.wrongLength) }
        guard let (offset, end) = Self.offsetObject(command.data), let d = Self.tlv(command.data, at: end),
            d.tag == 0x53, d.end == command.data.count, !d.value.isEmpty
        else { return .status(.incorrectData) }
        let resolved = oddTarget(command, in: tree)
        guard case .success(let ef) = resolved else { return .status(resolved.failureStatus) }
        guard tree.efAllows(ef, .write) else { return .status(.securityStatusNotSatisfied) }
        guard offset + d.value.count <= tree.efSize(ef) else { return .status(.wrongP1P2) }
        let committed = min(tearAfter ?? d.value.count, d.value.count)
        if committed > 0 {
            tree.efWrite(ef, at: offset, command.data[d.value.lowerBound..<d.value.lowerBound + committed])
        }
        return Outcome(response: .status(.success), written: ef)
    }
}
