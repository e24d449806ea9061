/// A MIFARE DESFire application: a 24-bit AID, its key settings, optional ISO DF identifier and DF name, and its
/// files.
public struct DESFireApplication: Sendable, Hashable {
    /// Application identifier, 24 bits (sent least significant byte first). `000000` is the PICC itself.
    public var aid: UInt32
    /// Application master key settings byte (reported by GetKeySettings).
    public var keySettings: UInt8
    /// The key count byte as given at creation: bits 3–0 number of keys, `0x20` ISO file identifiers present,
    /// bits 7–6 crypto (`00` DES/3DES, `40` 3K3DES, `80` AES).
    public var keyCount: UInt8
    /// ISO DF file identifier (the NDEF mapping uses `E105`).
    public var isoFileID: UInt16?
    /// ISO DF name, up to 16 bytes (the NDEF mapping uses `D2760000850101`).
    public var dfName: [UInt8]?
    public var files: [DESFireFile]
    /// The application's keys, key 0 the application master key: `keyCount & 0x0F` of them, of the type its bits
    /// 7–6 select (all zeros, version 0, after CreateApplication).
    public var keys: [DESFireKey]

    public init(
        aid: UInt32, keySettings: UInt8 = 0x0F, keyCount: UInt8 = 0x01, isoFileID: UInt16? = nil,
        dfName: [UInt8]? = nil, files: [DESFireFile] = [], keys: [DESFireKey]? = nil
    ) {
        self.aid = aid
        self.keySettings = keySettings
        self.keyCount = keyCount
        self.isoFileID = isoFileID
        self.dfName = dfName
        self.files = files
        self.keys =
            keys
            ?? Array(
                repeating: DESFireKey.zero(DESFireKey.KeyType.forKeyCountByte(keyCount)), count: Int(keyCount & 0x0F))
    }
}
