/// READ BINARY and UPDATE BINARY with the even INS codes (ISO/IEC 7816-4 §11.3.3 and §11.3.5; NFC Forum T4T
/// 1.0 §5.4.3 and §5.4.4 use exactly these forms).
///
/// P1 bit 8 = 0: P1 b7–b1 and P2 form a 15-bit offset into the current EF. P1 bit 8 = 1: b7–b6 must be 0, b5–b1 is
/// a short EF identifier (1–30) of the current DF, which becomes the current EF, and P2 is the offset.
extension ISO7816Engine {
    /// Resolves P1-P2 to (EF, offset), or the status word that refuses them.
    private mutating func target(_ command: ISO7816Command, in tree: some ISO7816FileTree)
        -> Result<(ISO7816FileReference, Int), ISO7816Failure>
    {
        if command.p1 & 0x80 != 0 {
            let sfi = command.p1 & 0x1F
            guard command.p1 & 0x60 == 0, (1...30).contains(sfi) else { return .failure(.init(.incorrectP1P2)) }
            guard let ef = tree.ef(in: currentDF ?? ISO7816FileReference.masterFile, shortID: sfi) else {
                return .failure(.init(.fileNotFound))
            }
            currentEF = ef
            return .success((ef, Int(command.p2)))
        }
        guard let ef = currentEF else { return .failure(.init(.noCurrentEF)) }
        return .success((ef, Int(command.p1) << 8 | Int(command.p2)))
    }

    /// The most response bytes a READ may send: Le, with Le = 00 (the maximum) served up to MLe; an explicit Le
    /// above MLe is a wrong length (nil). Shared by the even and odd READ BINARY forms.
    func responseLimit(_ command: ISO7816Command, ne: Int) -> Int? {
        if command.neIsMaximum { return min(ne, limits.mle) }
        return ne <= limits.mle ? ne : nil
    }

    mutating func readBinary(_ command: ISO7816Command, in tree: some ISO7816FileTree) -> ISO7816Response {
        // Case 2 only: a data field or a missing Le is a wrong length.
        guard command.data.isEmpty, let ne = command.ne else { return .status(.wrongLength) }
        let resolved = target(command, in: tree)
        guard case .success(let (ef, offset)) = resolved else { return .status(resolved.failureStatus) }
        guard tree.efAllows(ef, .read) else { return .status(.securityStatusNotSatisfied) }
        let size = tree.efSize(ef)
        guard offset < size else { return .status(.wrongP1P2) }
        guard let wanted = responseLimit(command, ne: ne) else { return .status(.wrongLength) }
        let count = min(wanted, size - offset)
        let data = tree.efRead(ef, offset..<offset + count)
        // An explicit Ne that runs past the end: the bytes up to the end and the warning 62 82.
        let status: ISO7816Status = count < wanted && !command.neIsMaximum ? .endOfFileReached : .success
        return ISO7816Response(data: data, status: status)
    }

    mutating func updateBinary<Tree: ISO7816FileTree>(
        _ command: ISO7816Command, in tree: inout Tree, tearAfter: Int?
    ) -> Outcome {
        // Case 3 only: no data or a Le field is a wrong length.
        guard !command.data.isEmpty, command.ne == nil else { return .status(.wrongLength) }
        guard command.data.count <= limits.mlc else { return .status(.wrongLength) }
        let resolved = target(command, in: tree)
        guard case .success(let (ef, offset)) = resolved else { return .status(resolved.failureStatus) }
        guard tree.efAllows(ef, .write) else { return .status(.securityStatusNotSatisfied) }
        guard offset + command.data.count <= tree.efSize(ef) else { return .status(.wrongP1P2) }
        let committed = min(tearAfter ?? command.data.count, command.data.count)
        if committed > 0 { tree.efWrite(ef, at: offset, command.data[0..<committed]) }
        return Outcome(response: .status(.success), written: ef)
    }
}

/// A status word as a `Result` failure, for resolving steps that may refuse a command.
struct ISO7816Failure: Error, Sendable, Hashable {
    var status: ISO7816Status
    init(_ status: ISO7816Status) { self.status = status }
}

extension Result where Failure == ISO7816Failure {
    var failureStatus: ISO7816Status {
        if case .failure(let f) = self { return f.status }
        return .success
    }
}
