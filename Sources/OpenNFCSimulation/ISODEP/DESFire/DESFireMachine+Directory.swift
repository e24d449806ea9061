internal import OpenNFCCrypto

// MARK: Directory commands

extension DESFireMachine {
    /// The most applications an EV1 holds (besides the PICC).
    static let maxApplications = 28

    /// GetDFNames `6D`: for each application with a DF name, AID(3 LE) ISO DF id(2 LE) name, one per frame.
    mutating func getDFNames(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.isEmpty else { return .status(.lengthError) }
        guard selectedApplication == nil else { return .status(.permissionDenied) }
        let frames: [[UInt8]] = picc.applications.compactMap { app in
            guard let name = app.dfName else { return nil }
            let fid = app.isoFileID ?? 0
            return Self.le(app.aid, 3) + Self.le(UInt32(fid), 2) + name
        }
        if frames.isEmpty { return .status(.ok) }
        return sendFrames(frames)
    }

    /// GetISOFileIDs `61`: the ISO ids (2 bytes LE) of the selected application's files that have one.
    func getISOFileIDs(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.isEmpty else { return .status(.lengthError) }
        guard let df = selectedApplication else { return .status(.permissionDenied) }
        let ids = picc.applications[df].files.compactMap(\.isoFileID).flatMap { Self.le(UInt32($0), 2) }
        return DESFireReply(status: .ok, data: ids)
    }

    /// CreateApplication `CA` AID(3) keySettings keyCount [ISO DF id(2 LE) [DF name 1–16]] at PICC level; allowed
    /// without authentication while the PICC key settings have bit 2 ("free create/delete") set, as in the factory
    /// state `0F`.
    mutating func createApplication(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.count >= 5 else { return .status(.lengthError) }
        let b = Array(p)
        let iso = b[4] & 0x20 != 0
        guard iso ? (b.count == 7 || (9...23).contains(b.count)) : b.count == 5 else { return .status(.lengthError) }
        guard selectedApplication == nil else { return .status(.permissionDenied) }
        guard piccKeySettings & 0x04 != 0 else { return .status(.authenticationError) }
        let aid = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16
        guard aid != 0, (1...14).contains(b[4] & 0x0F) else { return .status(.parameterError) }
        guard picc.application(aid: aid) == nil else { return .status(.duplicateError) }
        let fid = iso ? UInt16(b[5]) | UInt16(b[6]) << 8 : nil
        if let fid, picc.applications.contains(where: { $0.isoFileID == fid }) { return .status(.duplicateError) }
        guard picc.applications.count < Self.maxApplications else { return .status(.countError) }
        let name = b.count > 7 ? Array(b[7...]) : nil
        var app = DESFireApplication(aid: aid, keySettings: b[3], keyCount: b[4], isoFileID: fid, dfName: name)
        // The keys start as SetConfiguration's default key (all zeros, version 0, from the factory).
        app.keys = app.keys.map { configuration.key($0.type) }
        picc.applications.append(app)
        return .status(.ok)
    }

    /// DeleteApplication `DA` AID(3); free while the PICC key settings allow free create/delete.
    mutating func deleteApplication(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.count == 3 else { return .status(.lengthError) }
        guard piccKeySettings & 0x04 != 0 else { return .status(.authenticationError) }
        let aid = UInt32(Self.le24(p, 0))
        guard aid != 0 else { return .status(.parameterError) }
        guard let df = picc.application(aid: aid) else { return .status(.applicationNotFound) }
        engine.select(df: nil, ef: nil, in: picc)
        picc.applications.remove(at: df)
        return .status(.ok)
    }

    /// CreateStdDataFile `CD` fileNo [ISO id(2 LE)] communication access(2 LE) size(3 LE) in the selected
    /// application; free while its key settings have bit 2 set. The ISO id is given exactly when the application
    /// was created with ISO file ids.
    mutating func createStdDataFile(_ p: ArraySlice<UInt8>, kind: DESFireFile.Kind = .standard) -> DESFireReply {
        guard let df = selectedApplication else { return .status(.permissionDenied) }
        let app = picc.applications[df]
        let iso = app.keyCount & 0x20 != 0
        guard p.count == (iso ? 9 : 7) else { return .status(.lengthError) }
        guard app.keySettings & 0x04 != 0 else { return .status(.authenticationError) }
        let b = Array(p)
        let number = b[0]
        let fid = iso ? UInt16(b[1]) | UInt16(b[2]) << 8 : nil
        let rest = Array(b[(iso ? 3 : 1)...])
        guard number <= 31, [0x00, 0x01, 0x03].contains(rest[0]) else { return .status(.parameterError) }
        guard picc.file(in: df, number: number) == nil else { return .status(.duplicateError) }
        if let fid, app.files.contains(where: { $0.isoFileID == fid }) { return .status(.duplicateError) }
        let size = Int(rest[3]) | Int(rest[4]) << 8 | Int(rest[5]) << 16
        // No memory accounting (the usable total of each EV1 size is not modelled), but no file outgrows the chip.
        guard size <= 1 << Int(version.hardware[5] >> 1) else { return .status(.outOfEEPROM) }
        let rights = UInt16(rest[1]) | UInt16(rest[2]) << 8
        picc.applications[df].files.append(
            DESFireFile(
                number: number, isoFileID: fid, communicationSettings: rest[0], accessRights: rights,
                contents: Array(repeating: 0, count: size), kind: kind))
        return .status(.ok)
    }

    /// DeleteFile `DF` fileNo in the selected application; free while its key settings have bit 2 set.
    mutating func deleteFile(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.count == 1 else { return .status(.lengthError) }
        guard let df = selectedApplication else { return .status(.permissionDenied) }
        guard picc.applications[df].keySettings & 0x04 != 0 else { return .status(.authenticationError) }
        guard p[p.startIndex] <= 31 else { return .status(.parameterError) }
        guard let ref = picc.file(in: df, number: p[p.startIndex]) else { return .status(.fileNotFound) }
        engine.select(df: df, ef: nil, in: picc)
        transaction[p[p.startIndex]] = nil
        picc.applications[df].files.remove(at: ref.ef)
        return .status(.ok)
    }

    static func le(_ v: UInt32, _ count: Int) -> [UInt8] { (0..<count).map { UInt8(v >> (8 * $0) & 0xFF) } }
}
