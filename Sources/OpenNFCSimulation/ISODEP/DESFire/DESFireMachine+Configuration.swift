internal import OpenNFCCrypto

/// The PICC configuration SetConfiguration `5C` writes (NXP MF3ICD81 functional description, SetConfiguration;
/// decisions in docs/DIFFERENCES.md).
public struct DESFireConfiguration: Sendable, Hashable {
    /// Option `00` bit 0: FormatPICC is refused (`9D`) for good.
    public var formatDisabled = false
    /// Option `00` bit 1: random ID. Anticollision shows a fresh random 4-byte UID (`08` first, ISO/IEC 14443-3
    /// §6.5.4) at each power-up; GetCardUID, after an authentication, gives the real one.
    package var randomID = false
    /// Option `01`: the 24 key bytes CreateApplication gives the new application's keys (the first 8, 16 or 24 as
    /// the key type takes them), and their version.
    public var defaultKey = [UInt8](repeating: 0, count: 24)
    public var defaultKeyVersion: UInt8 = 0
    /// Option `02`: the ATS (TL first) the card answers RATS with; nil keeps the factory ATS.
    public var ats: [UInt8]?

    public init() {}

    /// The factory state: nothing set.
    public var isFactory: Bool { self == DESFireConfiguration() }

    /// The key CreateApplication gives a new application's keys of `type` (the DES family as 16 bytes: single DES
    /// when both halves are equal).
    func key(_ type: DESFireKey.KeyType) -> DESFireKey {
        switch type {
        case .des, .tdes2:
            let k = Array(defaultKey[0..<16])
            let single = k[0..<8] == k[8..<16]
            return DESFireKey(
                unchecked: single ? .des : .tdes2, bytes: single ? Array(k[0..<8]) : k, version: defaultKeyVersion)
        case .tdes3: return DESFireKey(unchecked: .tdes3, bytes: defaultKey, version: defaultKeyVersion)
        case .aes: return DESFireKey(unchecked: .aes, bytes: Array(defaultKey[0..<16]), version: defaultKeyVersion)
        }
    }
}

/// SetConfiguration and ChangeFileSettings, card side (NXP MF3ICD81 functional description).
///
/// | Command | Needs | Here |
/// |---|---|---|
/// | SetConfiguration `5C` option ‖ cryptogram | PICC level, the PICC master key's session, PICC key settings bit 3 (configuration changeable), else `AE` / `9D` | EV1: data ‖ CRC32(5C ‖ option ‖ data) zero padded, enciphered with the IV; legacy: data ‖ CRC16(data) zero padded, send mode. Option `00` (1 byte: bit 0 format disabled, bit 1 random ID, for good: a clear bit changes nothing; other bits `9E`), `01` (24 key bytes ‖ version), `02` (ATS, TL first, 2–20 bytes else `9E`); another option `9E`; wrong CRC or padding `1E` |
/// | ChangeFileSettings `5F` fileNo ‖ comm ‖ access rights (2 LE) | the file's Change access right: `E` plain (an EV1 session still CMACs it), a key number: that key's session and the three bytes enciphered like SetConfiguration's data (CRC over 5F ‖ fileNo ‖ data in EV1), `F` `9D` | communication byte other than `00`/`01`/`03` `9E`; takes effect at once |
/// | Random ID | — | the UID and ATQA (single size, `0304`) change at each power-up; GetVersion's third frame shows zeros for the UID |
/// | User ATS | — | answered from the next activation on |
extension DESFireMachine {
    /// The data part of a SetConfiguration or ChangeFileSettings cryptogram: deciphered as the session says, its CRC
    /// (over `header` ‖ data in EV1, data only in legacy) and zero padding checked. `length` from the plain bytes.
    mutating func configurationData(_ wire: [UInt8], header: [UInt8], length: ([UInt8]) -> Int) -> Result<
        [UInt8], DESFireError
    > {
        guard let s = session else { return .failure(.init(.authenticationError)) }
        guard let plain = s.legacy ? legacyDecipher(wire) : decipherCommand(wire) else {
            return .failure(.init(.lengthError))
        }
        let n = length(plain)
        let crcLength = s.legacy ? 2 : 4
        guard n >= 1, plain.count >= n + crcLength else { return .failure(.init(.lengthError)) }
        let data = Array(plain[0..<n])
        let crc = s.legacy ? Self.crc16(data) : DESFireCRC32.bytes(header + data)
        guard Array(plain[n..<n + crcLength]) == crc, plain[(n + crcLength)...].allSatisfy({ $0 == 0 }) else {
            return .failure(.init(.integrityError))
        }
        return .success(data)
    }

    /// SetConfiguration `5C` option ‖ cryptogram (see the table).
    mutating func setConfiguration(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard let s = session, s.keyNumber == 0 else { return .status(.authenticationError) }
        guard selectedApplication == nil else { return .status(.permissionDenied) }
        guard p.count >= 2 else { return .status(.lengthError) }
        let option = p[p.startIndex]
        guard option <= 2 else { return .status(.parameterError) }
        guard piccKeySettings & 0x08 != 0 else { return .status(.permissionDenied) }
        let lengths: [Int] = [1, 25]
        let decoded = configurationData(Array(p.dropFirst()), header: [0x5C, option]) { plain in
            option < 2 ? lengths[Int(option)] : Int(plain[0])
        }
        guard case .success(let data) = decoded else { return .status(decoded.desfireStatus) }
        switch option {
        case 0:
            guard data[0] & 0xFC == 0 else { return .status(.parameterError) }
            // Both are for good: a set bit turns its feature on, a clear bit leaves it as it is.
            if data[0] & 0x01 != 0 { configuration.formatDisabled = true }
            if data[0] & 0x02 != 0 { configuration.randomID = true }
        case 1:
            configuration.defaultKey = Array(data[0..<24])
            configuration.defaultKeyVersion = data[24]
        default:
            // ISO/IEC 14443-4 §5.2: TL counts itself, T0 follows; at most 20 bytes (FSD 256 would allow more, the
            // EV1 keeps it short).
            guard (2...20).contains(data.count) else { return .status(.parameterError) }
            configuration.ats = data
        }
        return .status(.ok)
    }

    /// ChangeFileSettings `5F` fileNo ‖ settings (see the table).
    mutating func changeFileSettings(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.count >= 1 else { return .status(.lengthError) }
        let number = p[p.startIndex]
        let resolved = file(number)
        guard case .success(let ref) = resolved else { return .status(resolved.desfireStatus) }
        let change = picc.file(ref).key(.change)
        let body = Array(p.dropFirst())
        let settings: [UInt8]
        switch change {
        case 0xF:
            return .status(.permissionDenied)
        case 0xE:
            guard body.count == 3 else { return .status(.lengthError) }
            if session?.legacy == false { macCommand([0x5F] + p) }
            settings = body
        default:
            guard session?.keyNumber == change else { return .status(.authenticationError) }
            let decoded = configurationData(body, header: [0x5F, number]) { _ in 3 }
            guard case .success(let data) = decoded else { return .status(decoded.desfireStatus) }
            settings = data
        }
        guard [0x00, 0x01, 0x03].contains(settings[0]) else { return .status(.parameterError) }
        picc.applications[ref.df].files[ref.ef].communicationSettings = settings[0]
        picc.applications[ref.df].files[ref.ef].accessRights = UInt16(settings[1]) | UInt16(settings[2]) << 8
        return .status(.ok)
    }

    /// Power-up: a card with random ID draws its UID for this power cycle (`08` ‖ 3 random bytes).
    mutating func powerOn() {
        randomUID = configuration.randomID ? [0x08] + random.bytes(3) : nil
        reset()
    }

    /// What anticollision and RATS show: `base` with the random UID (single size ATQA) and the user ATS applied.
    func presented(_ base: VirtualActivation) -> VirtualActivation {
        var a = base
        if let uid = randomUID, let sensRes = base.sensRes, let selRes = base.selRes {
            a = VirtualActivation(uid: uid, sensRes: sensRes & 0xFF3F, selRes: selRes, ats: base.ats)
        }
        if let ats = configuration.ats { a.ats = ats }
        return a
    }
}
