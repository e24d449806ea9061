internal import OpenNFCBytes
internal import OpenNFCCrypto

/// DESFire EV1 file commands from the reader's side, in every communication mode of both secure messagings (NXP
/// MF3ICD81 functional description): plain, MACed and enciphered, after an EV1 (`1A`/`AA`: CMAC, CRC32, the IV
/// running across commands) or a legacy (`0A`: 4-byte MAC and CRC16 from a zero IV, the reader deciphering in
/// "send mode") authentication. `communication` is the mode the access travels in: the file's setting when a
/// key grants it, plain for free access (``DESFireFileSettings/communication(for:)``).
///
/// | Operation | Frames | Notes |
/// |---|---|---|
/// | ``readData(file:offset:length:communication:)`` | ⌈answer ÷ 59⌉ | answer = data (+ 8 CMAC / + 4 MAC) or the enciphered blocks |
/// | ``writeData(file:offset:data:communication:)`` | ⌈(7 + wire bytes) ÷ 59⌉ | wire = data (+ CMAC/MAC) or enciphered data ‖ CRC |
/// | ``getValue(file:communication:)`` | 1 | the committed value |
/// | ``credit(file:amount:communication:)``, ``debit(file:amount:communication:)``, ``limitedCredit(file:amount:communication:)`` | 1 | pending until ``commitTransaction()`` |
/// | ``writeRecord(file:offset:data:communication:)`` | as WriteData | pending until commit |
/// | ``readRecords(file:offset:count:recordSize:communication:)`` | ⌈answer ÷ 59⌉ | oldest first |
/// | ``clearRecordFile(file:)``, ``commitTransaction()``, ``abortTransaction()`` | 1 | |
/// | ``fileSettings(_:)``, ``fileIDs()``, create/delete files | 1 | |
extension DESFireSecureSession {
    // MARK: Protection

    /// A command's data part protected as `mode` says (`header`: code ‖ parameters before the data).
    func protect(header: [UInt8], data: [UInt8], mode: UInt8) throws(TagError) -> [UInt8] {
        guard keyNumber != nil else { return data }
        if legacy {
            switch mode {
            case 0x01: return data + (try legacyMAC(data))
            case 0x03: return try legacySend(data + Self.crc16(data))
            default: return data
            }
        }
        switch mode {
        case 0x01: return data + Array(try cmac(header + data).prefix(8))
        case 0x03: return try encipher(data + DESFireCRC32.bytes(header + data))
        default:
            _ = try cmac(header + data)
            return data
        }
    }

    /// An answer's data unprotected (EV1 plain/MACed answers lost their CMAC in ``command(_:_:name:protectedInput:enciphered:noResponseMAC:)``).
    func unprotect(_ raw: [UInt8], length: Int?, granularity: Int = 1, mode: UInt8, name: String) throws(TagError)
        -> [UInt8]
    {
        guard keyNumber != nil else { return raw }
        if !legacy {
            return mode == 0x03 ? try decipher(raw, length: length, granularity: granularity, name: name) : raw
        }
        switch mode {
        case 0x01:
            guard raw.count >= 4 else { throw TagError(.invalidResponse, "\(name): the answer has no MAC") }
            let body = Array(raw.dropLast(4))
            guard try legacyMAC(body) == Array(raw.suffix(4)) else {
                end()
                throw TagError(.invalidResponse, "\(name): the answer's MAC is wrong (session keys disagree)")
            }
            return body
        case 0x03:
            guard let cipher, !raw.isEmpty, raw.count % 8 == 0 else {
                throw TagError(.invalidResponse, "\(name): \(raw.count) enciphered bytes are not whole blocks")
            }
            // The card enciphered in CBC from a zero IV; the reader's deciphering is plain CBC decryption.
            let plain = try Self.crypto { () throws(CryptoError) in
                try cipher.decryptCBC(raw, iv: [UInt8](repeating: 0, count: 8))
            }
            guard
                let data = Self.strip(
                    plain, length: length, granularity: granularity, crcLength: 2, crc: { Self.crc16($0) })
            else {
                end()
                throw TagError(.invalidResponse, "\(name): the deciphered data fails its CRC16")
            }
            return data
        default:
            return raw
        }
    }

    /// Legacy MAC: the first 4 bytes of the last block of E-CBC(data zero-padded) from a zero IV.
    func legacyMAC(_ data: [UInt8]) throws(TagError) -> [UInt8] {
        guard let cipher else { return [] }
        var p = data
        while p.isEmpty || p.count % 8 != 0 { p.append(0) }
        let padded = p
        let c = try Self.crypto { () throws(CryptoError) in
            try cipher.encryptCBC(padded, iv: [UInt8](repeating: 0, count: 8))
        }
        return Array(c.suffix(8).prefix(4))
    }

    /// Legacy send mode: Y_i = D(X_i ⊕ Y_i−1) from Y_0 = 0 over the zero-padded data (the card enciphers to undo it).
    func legacySend(_ data: [UInt8]) throws(TagError) -> [UInt8] {
        guard let cipher else { return data }
        var p = data
        while p.count % 8 != 0 { p.append(0) }
        var previous = [UInt8](repeating: 0, count: 8)
        var out: [UInt8] = []
        for i in stride(from: 0, to: p.count, by: 8) {
            let x = zip(p[i..<i + 8], previous).map { $0 ^ $1 }
            previous = try Self.crypto { () throws(CryptoError) in try cipher.decryptECB(x) }
            out += previous
        }
        return out
    }

    /// The legacy CRC16: ISO/IEC 14443-3 CRC_A, least significant byte first.
    static func crc16(_ data: [UInt8]) -> [UInt8] {
        let c = CRC.crcA(data)
        return [UInt8(c & 0xFF), UInt8(c >> 8)]
    }

    /// Sends a command whose answer carries data protected as `mode` says, and unprotects it.
    func protectedRead(
        _ code: UInt8, _ params: [UInt8], length: Int?, granularity: Int = 1, mode: UInt8, name: String
    ) throws(TagError) -> [UInt8] {
        let enciphered = keyNumber != nil && !legacy && mode == 0x03
        let raw = try command(code, params, name: name, enciphered: enciphered)
        return try unprotect(raw, length: length, granularity: granularity, mode: mode, name: name)
    }

    // MARK: Data files

    /// ReadData `BD` of `length` bytes (≥ 1) from `offset` of a standard or backup file (backup: the committed
    /// contents).
    package func readData(file: UInt8, offset: Int, length: Int, communication: UInt8 = 0x00) throws(TagError)
        -> [UInt8]
    {
        let name = "ReadData of file \(file)"
        let params = [file] + DESFireCard.le(offset, 3) + DESFireCard.le(length, 3)
        let data = try protectedRead(0xBD, params, length: length, mode: communication & 0x03, name: name)
        guard data.count == length else {
            throw TagError(.invalidResponse, "\(name) answered \(data.count) bytes, asked for \(length)")
        }
        return data
    }

    /// WriteData `3D` of `data` at `offset` (a backup file: pending until ``commitTransaction()``).
    package func writeData(file: UInt8, offset: Int, data: [UInt8], communication: UInt8 = 0x00) throws(TagError) {
        try write(0x3D, file: file, offset: offset, data: data, communication: communication, name: "WriteData")
    }

    private func write(
        _ code: UInt8, file: UInt8, offset: Int, data: [UInt8], communication: UInt8, name: String
    ) throws(TagError) {
        let header = [code, file] + DESFireCard.le(offset, 3) + DESFireCard.le(data.count, 3)
        let payload = try protect(header: header, data: data, mode: communication & 0x03)
        _ = try command(
            code, Array(header.dropFirst()) + payload, name: "\(name) of file \(file)", protectedInput: true)
    }

    // MARK: Value files

    /// GetValue `6C`: the committed value.
    package func getValue(file: UInt8, communication: UInt8 = 0x00) throws(TagError) -> Int32 {
        let name = "GetValue of file \(file)"
        let v = try protectedRead(0x6C, [file], length: 4, mode: communication & 0x03, name: name)
        guard v.count == 4 else { throw TagError(.invalidResponse, "\(name) answered \(v.count) bytes") }
        return Int32(bitPattern: UInt32(DESFireCard.le(v[...])))
    }

    private func changeValue(_ code: UInt8, _ what: String, file: UInt8, amount: Int32, communication: UInt8)
        throws(TagError)
    {
        guard amount >= 0 else { throw TagError(.unsupported, "\(what) takes an amount of 0 or more, not \(amount)") }
        let value = DESFireCard.le(Int(amount), 4)
        let payload = try protect(header: [code, file], data: value, mode: communication & 0x03)
        _ = try command(code, [file] + payload, name: "\(what) \(amount) on file \(file)", protectedInput: true)
    }

    /// Credit `0C` (Read&Write key): pending until ``commitTransaction()``.
    package func credit(file: UInt8, amount: Int32, communication: UInt8 = 0x00) throws(TagError) {
        try changeValue(0x0C, "Credit", file: file, amount: amount, communication: communication)
    }

    /// Debit `DC`: pending until ``commitTransaction()``.
    package func debit(file: UInt8, amount: Int32, communication: UInt8 = 0x00) throws(TagError) {
        try changeValue(0xDC, "Debit", file: file, amount: amount, communication: communication)
    }

    /// LimitedCredit `1C` (up to the last committed transaction's debits): pending until ``commitTransaction()``.
    package func limitedCredit(file: UInt8, amount: Int32, communication: UInt8 = 0x00) throws(TagError) {
        try changeValue(0x1C, "LimitedCredit", file: file, amount: amount, communication: communication)
    }

    // MARK: Record files

    /// WriteRecord `3B`: `data` at `offset` of the transaction's new record; pending until ``commitTransaction()``.
    package func writeRecord(file: UInt8, offset: Int = 0, data: [UInt8], communication: UInt8 = 0x00)
        throws(TagError)
    {
        try write(0x3B, file: file, offset: offset, data: data, communication: communication, name: "WriteRecord")
    }

    /// ReadRecords `BB`: `count` records (0: all) from the `offset`-th newest back, oldest first.
    package func readRecords(
        file: UInt8, offset: Int = 0, count: Int = 0, recordSize: Int, communication: UInt8 = 0x00
    ) throws(TagError) -> [[UInt8]] {
        let name = "ReadRecords of file \(file)"
        guard recordSize > 0 else { throw TagError(.unsupported, "\(name): record size 0") }
        let params = [file] + DESFireCard.le(offset, 3) + DESFireCard.le(count, 3)
        let data = try protectedRead(
            0xBB, params, length: count == 0 ? nil : count * recordSize, granularity: recordSize,
            mode: communication & 0x03, name: name)
        guard data.count % recordSize == 0 else {
            throw TagError(
                .invalidResponse, "\(name) answered \(data.count) bytes, not whole \(recordSize)-byte records")
        }
        return stride(from: 0, to: data.count, by: recordSize).map { Array(data[$0..<$0 + recordSize]) }
    }

    /// ClearRecordFile `EB` (Read&Write key): pending until ``commitTransaction()``.
    package func clearRecordFile(file: UInt8) throws(TagError) {
        _ = try command(0xEB, [file], name: "ClearRecordFile \(file)")
    }

    // MARK: Transaction

    /// CommitTransaction `C7`: every pending backup, value and record change at once.
    package func commitTransaction() throws(TagError) {
        _ = try command(0xC7, [], name: "CommitTransaction")
    }

    /// AbortTransaction `A7`: every pending change dropped.
    package func abortTransaction() throws(TagError) {
        _ = try command(0xA7, [], name: "AbortTransaction")
    }

    // MARK: Directory

    /// GetFileIDs `6F` of the selected application.
    package func fileIDs() throws(TagError) -> [UInt8] {
        try command(0x6F, [], name: "GetFileIDs")
    }

    /// GetFileSettings `F5`.
    package func fileSettings(_ file: UInt8) throws(TagError) -> DESFireFileSettings {
        let name = "GetFileSettings of file \(file)"
        let s = try command(0xF5, [file], name: name)
        guard let settings = DESFireFileSettings(decoding: s) else {
            throw TagError(.invalidResponse, "\(name) answered \(Hex.encode(s)), not a file's settings")
        }
        return settings
    }

    /// GetApplicationIDs `6A` (PICC level).
    package func applicationIDs() throws(TagError) -> [UInt32] {
        let ids = try command(0x6A, [], name: "GetApplicationIDs")
        guard ids.count % 3 == 0 else {
            throw TagError(.invalidResponse, "GetApplicationIDs answered \(ids.count) bytes, not a multiple of 3")
        }
        return stride(from: 0, to: ids.count, by: 3).map { UInt32(DESFireCard.le(ids[$0..<$0 + 3])) }
    }

    /// CreateApplication `CA` (PICC level).
    package func createApplication(
        _ aid: UInt32, keySettings: UInt8, keyCount: UInt8, isoFileID: UInt16? = nil, dfName: [UInt8]? = nil
    ) throws(TagError) {
        var data = DESFireCard.le(Int(aid), 3) + [keySettings, keyCount]
        if let isoFileID { data += DESFireCard.le(Int(isoFileID), 2) + (dfName ?? []) }
        _ = try command(0xCA, data, name: "CreateApplication \(DESFireCard.aidName(aid))")
    }

    /// Creates file `number` of `kind` in the selected application: CreateStdDataFile `CD`, CreateBackupDataFile
    /// `CB`, CreateValueFile `CC` (holding `value`), CreateLinearRecordFile `C1`, CreateCyclicRecordFile `C0`. The
    /// ISO id is for applications created with ISO file ids (not for value files).
    package func createFile(
        _ number: UInt8, kind: DESFireFileSettings.Kind, communication: UInt8, accessRights: UInt16,
        isoFileID: UInt16? = nil, value: Int32 = 0
    ) throws(TagError) {
        let iso = isoFileID.map { DESFireCard.le(Int($0), 2) } ?? []
        let common = [communication] + DESFireCard.le(Int(accessRights), 2)
        let i32 = { (v: Int32) in DESFireCard.le(Int(UInt32(bitPattern: v)), 4) }
        let code: UInt8
        let data: [UInt8]
        switch kind {
        case .standard(let size), .backup(let size):
            code = kind == .standard(size: size) ? 0xCD : 0xCB
            data = [number] + iso + common + DESFireCard.le(size, 3)
        case .value(let lower, let upper, _, let limited, let free):
            code = 0xCC
            data = [number] + common + i32(lower) + i32(upper) + i32(value) + [(limited ? 1 : 0) | (free ? 2 : 0)]
        case .linearRecord(let size, let most, _), .cyclicRecord(let size, let most, _):
            if case .cyclicRecord = kind { code = 0xC0 } else { code = 0xC1 }
            data = [number] + iso + common + DESFireCard.le(size, 3) + DESFireCard.le(most, 3)
        }
        let settings = DESFireFileSettings(kind: kind, communication: communication, accessRights: accessRights)
        _ = try command(code, data, name: "Create \(settings.typeName) file \(number)")
    }

    /// DeleteFile `DF`.
    package func deleteFile(_ number: UInt8) throws(TagError) {
        _ = try command(0xDF, [number], name: "DeleteFile \(number)")
    }
}
