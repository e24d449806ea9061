internal import OpenNFCCrypto

/// SetConfiguration and ChangeFileSettings from the reader's side (NXP MF3ICD81 functional description), in EV1
/// and legacy sessions.
///
/// | Operation | Frames | Notes |
/// |---|---|---|
/// | ``setConfiguration(option:data:)`` | 1 | PICC master key session; data ‖ CRC32(5C ‖ option ‖ data) enciphered with the IV (EV1) or data ‖ CRC16 in the send mode (legacy) |
/// | ``configure(formatDisabled:randomID:)``, ``setDefaultKey(_:version:)``, ``setATS(_:)`` | 1 | options `00`, `01`, `02` |
/// | ``changeFileSettings(_:communication:accessRights:enciphered:)`` | 1 | plain when the file's Change right is free, else enciphered like SetConfiguration's data |
extension DESFireSecureSession {
    /// The data part `data` of command `header` as a key cryptogram: EV1 enciphered with CRC32(header ‖ data),
    /// legacy in the send mode with CRC16(data); zero padded.
    func cryptogram(header: [UInt8], _ data: [UInt8]) throws(TagError) -> [UInt8] {
        guard keyNumber != nil else { throw TagError(.unsupported, "an enciphered command needs an authentication") }
        return legacy ? try legacySend(data + Self.crc16(data)) : try encipher(data + DESFireCRC32.bytes(header + data))
    }

    /// SetConfiguration `5C` (PICC level, the PICC master key's session): `option` with its `data`.
    package func setConfiguration(option: UInt8, data: [UInt8]) throws(TagError) {
        guard keyNumber != nil else {
            throw TagError(.unsupported, "SetConfiguration needs an authentication with the PICC master key")
        }
        let c = try cryptogram(header: [0x5C, option], data)
        _ = try command(
            0x5C, [option] + c, name: "SetConfiguration option \(option)", protectedInput: true)
    }

    /// SetConfiguration option `00`: FormatPICC disabled and/or random ID — both for good.
    package func configure(formatDisabled: Bool, randomID: Bool) throws(TagError) {
        try setConfiguration(option: 0x00, data: [(formatDisabled ? 0x01 : 0) | (randomID ? 0x02 : 0)])
    }

    /// SetConfiguration option `01`: the 24-byte default key CreateApplication gives new applications, and its
    /// version.
    package func setDefaultKey(_ key: [UInt8], version: UInt8 = 0) throws(TagError) {
        guard key.count == 24 else {
            throw TagError(.unsupported, "the default key takes 24 bytes (shorter keys zero padded), not \(key.count)")
        }
        try setConfiguration(option: 0x01, data: key + [version])
    }

    /// SetConfiguration option `02`: the ATS (TL first, TL = its length) answered from the next activation on.
    package func setATS(_ ats: [UInt8]) throws(TagError) {
        guard (2...20).contains(ats.count), Int(ats[0]) == ats.count else {
            throw TagError(.unsupported, "an ATS starts with its length byte TL and has 2-20 bytes")
        }
        try setConfiguration(option: 0x02, data: ats)
    }

    /// ChangeFileSettings `5F`: file `file` gets `communication` and `accessRights`. `enciphered` when the file's
    /// Change access right names a key (authenticate with it first); plain when it is free.
    package func changeFileSettings(_ file: UInt8, communication: UInt8, accessRights: UInt16, enciphered: Bool)
        throws(TagError)
    {
        let data = [communication, UInt8(accessRights & 0xFF), UInt8(accessRights >> 8)]
        let name = "ChangeFileSettings of file \(file)"
        if enciphered {
            guard keyNumber != nil else {
                throw TagError(.unsupported, "\(name) needs an authentication with the file's Change key")
            }
            _ = try command(
                0x5F, [file] + (try cryptogram(header: [0x5F, file], data)), name: name, protectedInput: true)
        } else {
            _ = try command(0x5F, [file] + data, name: name)
        }
    }
}
