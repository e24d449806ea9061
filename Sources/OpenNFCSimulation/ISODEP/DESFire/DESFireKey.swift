/// A MIFARE DESFire EV1 key: its cipher, value and version (MF3ICD81 functional description: DES, 2K3DES, 3K3DES
/// and AES-128 keys; a PICC master key and up to 14 keys per application; every key has a version byte).
public struct DESFireKey: Sendable, Hashable, CustomStringConvertible {
    /// The cipher of a key.
    public enum KeyType: String, Sendable, Hashable, CaseIterable {
        /// Single DES, 8 bytes (the factory PICC master key: all zeros).
        case des
        /// Two-key 3DES, 16 bytes.
        case tdes2 = "2k3des"
        /// Three-key 3DES, 24 bytes.
        case tdes3 = "3k3des"
        /// AES-128, 16 bytes.
        case aes

        /// The key length in bytes.
        public var length: Int {
            switch self {
            case .des: 8
            case .tdes2, .aes: 16
            case .tdes3: 24
            }
        }

        /// The key type an application's key count byte selects (bits 7–6: `00` DES/2K3DES, `40` 3K3DES, `80` AES).
        public static func forKeyCountByte(_ b: UInt8) -> KeyType {
            switch b & 0xC0 {
            case 0x40: .tdes3
            case 0x80: .aes
            default: .des
            }
        }
    }

    public var type: KeyType
    /// The key value, ``KeyType/length`` bytes.
    public var bytes: [UInt8]
    /// The key version (GetKeyVersion).
    public var version: UInt8

    /// A key; throws when the value has the wrong length.
    public init(_ type: KeyType, bytes: [UInt8], version: UInt8 = 0) throws(ISODEPCardError) {
        guard bytes.count == type.length else {
            throw ISODEPCardError(
                .invalidConfiguration, "a \(type.rawValue) key has \(type.length) bytes, not \(bytes.count)")
        }
        self.type = type
        self.bytes = bytes
        self.version = version
    }

    /// The all-zero key of a type, version 0 (how NXP ships DESFire and how CreateApplication fills keys).
    public static func zero(_ type: KeyType) -> DESFireKey {
        DESFireKey(unchecked: type, bytes: [UInt8](repeating: 0, count: type.length), version: 0)
    }

    init(unchecked type: KeyType, bytes: [UInt8], version: UInt8) {
        self.type = type
        self.bytes = bytes
        self.version = version
    }

    public var description: String { "\(type.rawValue) key version \(version)" }
}
