/// One file's changes in the open DESFire transaction: a backup file's new contents, a value file's working value
/// and what changed it, a record file's record being written and whether it is being cleared.
struct DESFirePendingChange: Sendable, Hashable {
    var contents: [UInt8]?
    var value: Int32?
    var debited: Int64 = 0
    var credited = false
    var limitedCredited = false
    var cleared = false
    var newRecord: [UInt8]?
}

/// Backup data, value and record files and their transaction, card side (NXP MF3ICD81 functional description:
/// file types, value and record commands, CommitTransaction / AbortTransaction).
///
/// | Command | Access rights | Here |
/// |---|---|---|
/// | CreateBackupDataFile `CB` | application key settings bit 2 | as CreateStdDataFile; writes wait for commit; ReadData answers the committed contents |
/// | CreateValueFile `CC` fileNo comm AR(2) lower(4) upper(4) value(4) flags | same | lower ≤ value ≤ upper else `9E`; flags bit 0 limited credit, bit 1 free GetValue; no ISO file id |
/// | CreateLinearRecordFile `C1` / CreateCyclicRecordFile `C0` fileNo [ISO id(2)] comm AR(2) size(3) records(3) | same | size ≥ 1, records ≥ 1 (cyclic ≥ 2) else `9E`; a cyclic file keeps records − 1 |
/// | GetValue `6C` fileNo | Read, Write or Read&Write (free with the free GetValue flag) | the committed value, 4 bytes LE, in the file's communication mode |
/// | Credit `0C` fileNo value(4) | Read&Write | past the upper limit `BE`; negative `9E` |
/// | Debit `DC` fileNo value(4) | Read, Write or Read&Write | below the lower limit `BE`; negative `9E` |
/// | LimitedCredit `1C` fileNo value(4) | Write or Read&Write | flag off `9D`; after a Debit in the same transaction or twice `9D`; above the limited credit value `BE` |
/// | WriteRecord `3B` fileNo offset(3) length(3) data | Write or Read&Write | into the one new record of the transaction; past the record `BE`; a full linear file `BE`; after ClearRecordFile `9D` |
/// | ReadRecords `BB` fileNo offset(3) count(3) | Read or Read&Write | offset counts back from the newest record (0), count 0 = all older ones; answered oldest first; no records or past them `BE`; committed records only |
/// | ClearRecordFile `EB` fileNo | Read&Write | pending until commit |
/// | CommitTransaction `C7` / AbortTransaction `A7` | none (an application selected, else `9D`) | commit applies every pending change at once; the limited credit value becomes the transaction's debits (or 0 after a credit) |
/// | Abort | — | AbortTransaction, SelectApplication, any authentication, re-activation, ISO 7816 commands, power lost (a tear) |
/// | Tearing | — | a CommitTransaction torn with nothing written (`tearAfter` 0) commits nothing, torn later commits all (the switch is atomic); any other torn frame loses the transaction |
/// | Wrong file type | — | a value command on another file, a record command on another file, ReadData/WriteData on a value or record file: `9D` |
extension DESFireMachine {
    // MARK: Creation

    /// CreateBackupDataFile `CB`: the parameters of CreateStdDataFile.
    mutating func createBackupDataFile(_ p: ArraySlice<UInt8>) -> DESFireReply {
        createStdDataFile(p, kind: .backup)
    }

    /// Checks that a file may be created in the selected application: its number and communication byte valid,
    /// the number and ISO id unused, the key settings allowing creation.
    private func creatable(_ number: UInt8, fid: UInt16?, communication: UInt8) -> DESFireStatus? {
        guard let df = selectedApplication else { return .permissionDenied }
        let app = picc.applications[df]
        guard app.keySettings & 0x04 != 0 else { return .authenticationError }
        guard number <= 31, [0x00, 0x01, 0x03].contains(communication) else { return .parameterError }
        guard picc.file(in: df, number: number) == nil else { return .duplicateError }
        if let fid, app.files.contains(where: { $0.isoFileID == fid }) { return .duplicateError }
        return nil
    }

    /// CreateValueFile `CC` fileNo comm AR(2 LE) lower(4 LE) upper(4 LE) value(4 LE) limited-credit flags.
    mutating func createValueFile(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard selectedApplication != nil else { return .status(.permissionDenied) }
        guard p.count == 17 else { return .status(.lengthError) }
        let b = Array(p)
        if let refusal = creatable(b[0], fid: nil, communication: b[1]) { return .status(refusal) }
        let lower = Self.int32(b[4..<8])
        let upper = Self.int32(b[8..<12])
        let value = Self.int32(b[12..<16])
        guard lower <= upper, (lower...upper).contains(value), b[16] & 0xFC == 0 else {
            return .status(.parameterError)
        }
        picc.applications[selectedApplication!].files.append(
            .valueFile(
                number: b[0], communicationSettings: b[1], accessRights: UInt16(b[2]) | UInt16(b[3]) << 8,
                lower: lower, upper: upper, value: value, limitedCredit: b[16] & 1 != 0, freeGetValue: b[16] & 2 != 0))
        return .status(.ok)
    }

    /// CreateLinearRecordFile `C1` / CreateCyclicRecordFile `C0` fileNo [ISO id(2 LE)] comm AR(2 LE)
    /// recordSize(3 LE) maxRecords(3 LE); the ISO id is given exactly when the application has ISO file ids.
    mutating func createRecordFile(_ p: ArraySlice<UInt8>, cyclic: Bool) -> DESFireReply {
        guard let df = selectedApplication else { return .status(.permissionDenied) }
        let iso = picc.applications[df].keyCount & 0x20 != 0
        guard p.count == (iso ? 12 : 10) else { return .status(.lengthError) }
        let b = Array(p)
        let fid = iso ? UInt16(b[1]) | UInt16(b[2]) << 8 : nil
        let r = Array(b[(iso ? 3 : 1)...])
        if let refusal = creatable(b[0], fid: fid, communication: r[0]) { return .status(refusal) }
        let size = Self.le24(r[...], 3)
        let most = Self.le24(r[...], 6)
        guard size >= 1, most >= (cyclic ? 2 : 1) else { return .status(.parameterError) }
        guard size * most <= 1 << Int(version.hardware[5] >> 1) else { return .status(.outOfEEPROM) }
        picc.applications[df].files.append(
            .recordFile(
                number: b[0], isoFileID: fid, communicationSettings: r[0],
                accessRights: UInt16(r[1]) | UInt16(r[2]) << 8,
                recordSize: size, maxRecords: most, cyclic: cyclic))
        return .status(.ok)
    }

    static func int32(_ b: ArraySlice<UInt8>) -> Int32 {
        let i = b.startIndex
        return Int32(bitPattern: UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24)
    }

    // MARK: Value files

    /// Resolves a file of the selected application that must be of a kind (`9D` otherwise).
    private func file(_ number: UInt8, where kind: (DESFireFile.Kind) -> Bool) -> Result<
        ISO7816FileReference, DESFireError
    > {
        let resolved = file(number)
        guard case .success(let ref) = resolved else { return resolved }
        return kind(picc.file(ref).kind) ? .success(ref) : .failure(.init(.permissionDenied))
    }

    private static func isValue(_ k: DESFireFile.Kind) -> Bool {
        if case .value = k { return true }
        return false
    }

    /// GetValue `6C` fileNo: the committed value.
    mutating func getValue(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.count == 1 else { return .status(.lengthError) }
        let resolved = file(p[p.startIndex], where: Self.isValue)
        guard case .success(let ref) = resolved else { return .status(resolved.desfireStatus) }
        let f = picc.file(ref)
        var (refusal, mode) = accessMode(ref, [.read, .write, .readWrite])
        if case .value(_, _, _, true) = f.kind, refusal != nil {
            (refusal, mode) = (nil, 0x00)
        }
        if let refusal { return .status(refusal) }
        guard let out = protectResponse(Self.le(UInt32(bitPattern: f.value), 4), mode: mode) else {
            return .status(.authenticationError)
        }
        return DESFireReply(status: .ok, data: out)
    }

    /// Credit `0C`, Debit `DC`, LimitedCredit `1C` fileNo value(4 LE), the value protected as the file's
    /// communication settings say; the change waits for CommitTransaction.
    mutating func changeValue(_ code: UInt8, _ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.count >= 1 else { return .status(.lengthError) }
        let number = p[p.startIndex]
        let resolved = file(number, where: Self.isValue)
        guard case .success(let ref) = resolved else { return .status(resolved.desfireStatus) }
        let f = picc.file(ref)
        guard case .value(let lower, let upper, let limitedEnabled, _) = f.kind else {
            return .status(.permissionDenied)
        }
        let rights: [DESFireFile.Right] =
            switch code {
            case 0x0C: [.readWrite]
            case 0xDC: [.read, .write, .readWrite]
            default: [.write, .readWrite]
            }
        let (refusal, mode) = accessMode(ref, rights)
        if let refusal { return .status(refusal) }
        let wire = Array(p.dropFirst())
        guard wire.count == protectedLength(4, mode: mode) else { return .status(.lengthError) }
        guard let data = unprotectCommand(header: [code, number], wire: wire, length: 4, mode: mode) else {
            return .status(.integrityError)
        }
        let amount = Int64(Self.int32(data[...]))
        guard amount >= 0 else { return .status(.parameterError) }
        var change = transaction[number] ?? DESFirePendingChange()
        let current = Int64(change.value ?? f.value)
        let new: Int64
        switch code {
        case 0x0C:
            new = current + amount
            guard new <= Int64(upper) else { return .status(.boundaryError) }
            change.credited = true
        case 0xDC:
            guard !change.limitedCredited else { return .status(.permissionDenied) }
            new = current - amount
            guard new >= Int64(lower) else { return .status(.boundaryError) }
            change.debited += amount
        default:
            guard limitedEnabled, change.debited == 0, !change.limitedCredited else {
                return .status(.permissionDenied)
            }
            new = current + amount
            guard amount <= Int64(f.limitedCreditValue), new <= Int64(upper) else { return .status(.boundaryError) }
            change.limitedCredited = true
        }
        change.value = Int32(new)
        transaction[number] = change
        return .status(.ok)
    }

    // MARK: Record files

    private static func isRecord(_ k: DESFireFile.Kind) -> Bool { k.recordGeometry != nil }

    /// WriteRecord `3B` fileNo offset(3 LE) length(3 LE) data…: into the transaction's new record at `offset`;
    /// more data in `AF` frames.
    mutating func writeRecord(_ p: ArraySlice<UInt8>, tearAfter: Int?) -> DESFireReply {
        guard p.count >= 7 else { return .status(.lengthError) }
        let number = p[p.startIndex]
        let resolved = file(number, where: Self.isRecord)
        guard case .success(let ref) = resolved else { return .status(resolved.desfireStatus) }
        let f = picc.file(ref)
        guard let (size, capacity) = f.kind.recordGeometry else { return .status(.permissionDenied) }
        let offset = Self.le24(p, 1)
        let length = Self.le24(p, 4)
        guard length > 0 else { return .status(.lengthError) }
        let (refusal, mode) = accessMode(ref, [.write, .readWrite])
        if let refusal { return .status(refusal) }
        guard offset + length <= size else { return .status(.boundaryError) }
        let change = transaction[number] ?? DESFirePendingChange()
        guard !change.cleared else { return .status(.permissionDenied) }
        if case .linearRecord = f.kind, change.newRecord == nil, f.records.count >= capacity {
            return .status(.boundaryError)
        }
        return collect(
            ref, offset: offset, length: length, received: Array(p.dropFirst(7)), header: [0x3B] + Array(p.prefix(7)),
            mode: mode, record: true, tearAfter: tearAfter)
    }

    /// Writes a WriteRecord's data into the transaction's new record (zeros where not written).
    mutating func stageRecord(_ ref: ISO7816FileReference, offset: Int, _ data: [UInt8]) -> DESFireReply {
        let f = picc.file(ref)
        guard let (size, _) = f.kind.recordGeometry else { return .status(.permissionDenied) }
        var change = transaction[f.number] ?? DESFirePendingChange()
        var record = change.newRecord ?? [UInt8](repeating: 0, count: size)
        record.replaceSubrange(offset..<offset + data.count, with: data)
        change.newRecord = record
        transaction[f.number] = change
        return .status(.ok)
    }

    /// Writes a WriteData's data into a backup file's pending contents.
    mutating func stageBackup(_ ref: ISO7816FileReference, offset: Int, _ data: [UInt8]) {
        let f = picc.file(ref)
        var change = transaction[f.number] ?? DESFirePendingChange()
        var contents = change.contents ?? f.contents
        contents.replaceSubrange(offset..<offset + data.count, with: data)
        change.contents = contents
        transaction[f.number] = change
    }

    /// ReadRecords `BB` fileNo offset(3 LE) count(3 LE): `count` committed records (0: all) from the `offset`-th
    /// newest back, oldest first.
    mutating func readRecords(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.count == 7 else { return .status(.lengthError) }
        let resolved = file(p[p.startIndex], where: Self.isRecord)
        guard case .success(let ref) = resolved else { return .status(resolved.desfireStatus) }
        let (refusal, mode) = accessMode(ref, [.read, .readWrite])
        if let refusal { return .status(refusal) }
        let records = picc.file(ref).records
        let offset = Self.le24(p, 1)
        var count = Self.le24(p, 4)
        guard offset < records.count else { return .status(.boundaryError) }
        if count == 0 { count = records.count - offset }
        guard offset + count <= records.count else { return .status(.boundaryError) }
        let newest = records.count - 1 - offset
        let data = records[(newest - count + 1)...newest].flatMap { $0 }
        guard let out = protectResponse(data, mode: mode) else { return .status(.authenticationError) }
        return send(Self.chunked(out))
    }

    /// ClearRecordFile `EB` fileNo: every record goes at commit.
    mutating func clearRecordFile(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.count == 1 else { return .status(.lengthError) }
        let number = p[p.startIndex]
        let resolved = file(number, where: Self.isRecord)
        guard case .success(let ref) = resolved else { return .status(resolved.desfireStatus) }
        let (refusal, _) = accessMode(ref, [.readWrite])
        if let refusal { return .status(refusal) }
        var change = transaction[number] ?? DESFirePendingChange()
        guard change.newRecord == nil else { return .status(.permissionDenied) }
        change.cleared = true
        transaction[number] = change
        return .status(.ok)
    }

    // MARK: Transaction

    /// CommitTransaction `C7`: every pending change at once.
    mutating func commitTransaction(_ p: ArraySlice<UInt8>, tearAfter: Int?) -> DESFireReply {
        guard p.isEmpty else { return .status(.lengthError) }
        guard let df = selectedApplication else { return .status(.permissionDenied) }
        let changes = transaction
        transaction = [:]
        if tearAfter == 0 { return .status(.ok) }  // torn before the switch: the old values stay
        for (number, change) in changes {
            guard let ref = picc.file(in: df, number: number) else { continue }
            var f = picc.file(ref)
            if let c = change.contents { f.contents = c }
            if let v = change.value {
                f.value = v
                if change.debited > 0 {
                    f.limitedCreditValue = Int32(clamping: change.debited)
                } else if change.credited || change.limitedCredited {
                    f.limitedCreditValue = 0
                }
            }
            if change.cleared { f.records = [] }
            if let r = change.newRecord {
                f.records.append(r)
                if let (_, capacity) = f.kind.recordGeometry, f.records.count > capacity {
                    f.records.removeFirst(f.records.count - capacity)
                }
            }
            picc.applications[df].files[ref.ef] = f
        }
        return .status(.ok)
    }

    /// AbortTransaction `A7`: every pending change is dropped.
    mutating func abortTransaction(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.isEmpty else { return .status(.lengthError) }
        guard selectedApplication != nil else { return .status(.permissionDenied) }
        transaction = [:]
        return .status(.ok)
    }
}
