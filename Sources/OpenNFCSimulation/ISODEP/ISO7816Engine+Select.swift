/// SELECT (ISO/IEC 7816-4 §11.2.2, INS `A4`).
///
/// Identifiers are searched as §7.1.1 allows for a two-level tree: from the MF, its DFs; from a DF, that DF's EFs,
/// then the DFs beside it. `3F00` always names the MF. Selection by DF name compares the given bytes with the start
/// of every DF name in card order (right-truncated "partial" names, §7.1.1): P2 occurrence `00` first, `01` last,
/// `02` next after the current DF, `03` previous (from the first/last match when the current DF does not match).
/// A failed SELECT leaves the current DF and EF unchanged.
extension ISO7816Engine {
    private static let mfID: UInt16 = 0x3F00

    mutating func select(_ command: ISO7816Command, in tree: some ISO7816FileTree) -> ISO7816Response {
        guard command.p2 & 0xF0 == 0 else { return .status(.incorrectP1P2) }
        let occurrence = command.p2 & 0x03
        let responseKind = command.p2 & 0x0C
        guard responseKind != 0x08 else { return .status(.incorrectP1P2) }  // FMD: not supported
        if command.p1 == 0x04 { return selectByName(command, occurrence: occurrence, in: tree) }
        guard occurrence == 0 else { return .status(.incorrectP1P2) }
        let data = command.data
        let target: Target
        switch command.p1 {
        case 0x00:
            if data.isEmpty {
                target = .mf
            } else {
                guard data.count == 2 else { return .status(.wrongLength) }
                guard let t = find(Self.fid(data, 0), from: currentDF, in: tree) else { return .status(.fileNotFound) }
                target = t
            }
        case 0x01:
            guard data.count == 2 else { return .status(.wrongLength) }
            guard currentDF == nil, let df = tree.df(fileID: Self.fid(data, 0)) else { return .status(.fileNotFound) }
            target = .df(df)
        case 0x02:
            guard data.count == 2 else { return .status(.wrongLength) }
            let df = currentDF ?? ISO7816FileReference.masterFile
            guard let ef = tree.ef(in: df, fileID: Self.fid(data, 0)) else { return .status(.fileNotFound) }
            target = .ef(ef)
        case 0x03:
            guard data.isEmpty else { return .status(.wrongLength) }
            guard currentDF != nil else { return .status(.fileNotFound) }  // the MF has no parent
            target = .mf
        case 0x08, 0x09:
            guard !data.isEmpty, data.count % 2 == 0 else { return .status(.wrongLength) }
            var at: Int? = command.p1 == 0x08 ? nil : currentDF
            var found: Target = at.map { .df($0) } ?? .mf
            for i in stride(from: 0, to: data.count, by: 2) {
                guard case .ef = found else {
                    let fid = Self.fid(data, i)
                    let next: Target?
                    if let df = at {
                        next = tree.ef(in: df, fileID: fid).map { .ef($0) }
                    } else {
                        next = tree.df(fileID: fid).map { .df($0) }
                    }
                    guard let next else { return .status(.fileNotFound) }
                    found = next
                    if case .df(let d) = next { at = d }
                    continue
                }
                return .status(.fileNotFound)  // a path cannot continue below an EF
            }
            target = found
        default:
            return .status(.incorrectP1P2)
        }
        return complete(target, command: command, responseKind: responseKind, in: tree)
    }

    private enum Target {
        case mf
        case df(Int)
        case ef(ISO7816FileReference)
    }

    private static func fid(_ data: [UInt8], _ at: Int) -> UInt16 { UInt16(data[at]) << 8 | UInt16(data[at + 1]) }

    /// P1 = `00`: the MF, an EF of the current DF (or of the MF), or a DF of the MF (a child, or a sibling of the
    /// current DF).
    private func find(_ fid: UInt16, from df: Int?, in tree: some ISO7816FileTree) -> Target? {
        if fid == Self.mfID { return .mf }
        if let ef = tree.ef(in: df ?? ISO7816FileReference.masterFile, fileID: fid) { return .ef(ef) }
        return tree.df(fileID: fid).map { .df($0) }
    }

    private mutating func selectByName(_ command: ISO7816Command, occurrence: UInt8, in tree: some ISO7816FileTree)
        -> ISO7816Response
    {
        let name = command.data
        guard (1...16).contains(name.count) else { return .status(.wrongLength) }
        let matches = (0..<tree.dfCount).filter { df in
            guard let n = tree.dfName(df), n.count >= name.count else { return false }
            return n.starts(with: name)
        }
        guard !matches.isEmpty else { return .status(.fileNotFound) }
        let position = currentDF.flatMap { matches.firstIndex(of: $0) }
        let chosen: Int?
        switch occurrence {
        case 0x00: chosen = matches.first
        case 0x01: chosen = matches.last
        case 0x02: chosen = position.map { $0 + 1 < matches.count ? matches[$0 + 1] : nil } ?? matches.first
        default: chosen = position.map { $0 > 0 ? matches[$0 - 1] : nil } ?? matches.last
        }
        guard let df = chosen else { return .status(.fileNotFound) }
        if let applet = tree.applet(df) {
            if currentDF != df { select(df: nil, ef: nil, in: tree) }
            let answer = applet.select(command)
            if answer.status.isSuccessOrWarning {
                currentDF = df
                currentEF = nil
            }
            return answer
        }
        return complete(.df(df), command: command, responseKind: command.p2 & 0x0C, in: tree)
    }

    private mutating func complete(
        _ target: Target, command: ISO7816Command, responseKind: UInt8, in tree: some ISO7816FileTree
    ) -> ISO7816Response {
        var fcp: [UInt8] = []
        switch target {
        case .mf:
            select(df: nil, ef: nil, in: tree)
            fcp = Self.fcp([0x82, 0x01, 0x38, 0x83, 0x02, 0x3F, 0x00])
        case .df(let df):
            select(df: df, ef: nil, in: tree)
            var body: [UInt8] = [0x82, 0x01, 0x38]
            if let fid = tree.dfFileID(df) { body += [0x83, 0x02, UInt8(fid >> 8), UInt8(fid & 0xFF)] }
            if let name = tree.dfName(df) { body += [0x84, UInt8(name.count)] + name }
            fcp = Self.fcp(body)
        case .ef(let ef):
            select(df: ef.owner, ef: ef, in: tree)
            let size = min(tree.efSize(ef), 0xFFFF)
            var body: [UInt8] = [0x80, 0x02, UInt8(size >> 8), UInt8(size & 0xFF), 0x82, 0x01, 0x01]
            if let fid = tree.efFileID(ef) { body += [0x83, 0x02, UInt8(fid >> 8), UInt8(fid & 0xFF)] }
            fcp = Self.fcp(body)
        }
        // P2 b4-b3 = 01: return the FCP template (§7.4.3) when the reader asked for response data (Le present).
        if responseKind == 0x04, let ne = command.ne { return ISO7816Response(data: Array(fcp.prefix(ne))) }
        return .status(.success)
    }

    private static func fcp(_ body: [UInt8]) -> [UInt8] { [0x62, UInt8(body.count)] + body }
}
