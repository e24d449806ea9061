/// The NFC Forum NDEF mapping on DESFire EV1 as Android formats it (NXP AN11004; AOSP rw_t4t.c): application `000001`
/// with key settings `0F`, key count byte `21` (one key, ISO file ids present), ISO DF id `E105`, DF name
/// `D2760000850101`; CC in standard data file 1 (ISO `E103`, 15 bytes), NDEF in file 2 (ISO `E104`), both plain
/// with free access (`EEEE`). The CC advertises mapping 2.0, MLe `003B`, MLc `0034`.
extension DESFireEV1Tag {
    /// AID of the NDEF application (Android's choice for EV1).
    public static let ndefApplicationAID: UInt32 = 0x00_0001

    /// Storage sizes of the EV1 family and the NDEF file size Android gives each (NXP AN11004; AOSP rw_t4t.c).
    public enum Storage: String, Sendable, CaseIterable {
        case size2K = "2k"
        case size4K = "4k"
        case size8K = "8k"

        /// The GetVersion storage size byte.
        public var versionByte: UInt8 {
            switch self {
            case .size2K: return 0x16
            case .size4K: return 0x18
            case .size8K: return 0x1A
            }
        }

        /// The NDEF file size Android creates on this card.
        public var ndefFileSize: Int {
            switch self {
            case .size2K: return 2048
            case .size4K: return 4096
            case .size8K: return 7680
            }
        }
    }

    /// A DESFire EV1 NDEF-formatted as Android does it, its NDEF file holding `message` (NLEN written).
    ///
    /// - Throws: ``ISODEPCardError`` (`messageTooLong`) when the message does not fit the NDEF file.
    public static func ndefFormatted(
        uid: [UInt8], holding message: [UInt8], storage: Storage = .size4K, ndefFileSize: Int? = nil
    ) throws(ISODEPCardError) -> DESFireEV1Tag {
        let size = ndefFileSize ?? storage.ndefFileSize
        guard (5...0xFFFE).contains(size) else {
            throw ISODEPCardError(.invalidConfiguration, "NDEF file size \(size) is outside 5…65534")
        }
        let ndef = try Type4Tag.ndefFile(holding: message, size: size)
        let cc = Type4Tag.capabilityContainer(Type4Configuration(ndefFileSize: size, mle: 0x3B, mlc: 0x34))
        let app = DESFireApplication(
            aid: ndefApplicationAID, keySettings: 0x0F, keyCount: 0x21, isoFileID: 0xE105,
            dfName: Type4Configuration.ndefApplicationNameV2,
            files: [
                DESFireFile(number: 1, isoFileID: Type4Configuration.ccFileID, accessRights: 0xEEEE, contents: cc),
                DESFireFile(number: 2, isoFileID: 0xE104, accessRights: 0xEEEE, contents: ndef),
            ])
        return try DESFireEV1Tag(uid: uid, applications: [app], version: .ev1(storage: storage.versionByte))
    }

    /// The NDEF message of the NDEF application (NLEN bytes after NLEN), or nil when the card has no such
    /// application or file.
    public var ndefMessage: [UInt8]? {
        guard let app = applications.first(where: { $0.dfName == Type4Configuration.ndefApplicationNameV2 }),
            let file = app.files.first(where: { $0.isoFileID == 0xE104 }), file.contents.count >= 2
        else { return nil }
        let nlen = Int(file.contents[0]) << 8 | Int(file.contents[1])
        return Array(file.contents[2..<min(file.contents.count, 2 + nlen)])
    }
}
