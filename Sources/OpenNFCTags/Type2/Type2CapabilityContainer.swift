internal import OpenNFCBytes

/// The Type 2 capability container, page 3 (NFC Forum T2T §6.1).
///
/// `E1` magic, mapping version (major.minor nibbles), data area size ÷ 8, access (read nibble · write nibble).
struct Type2CapabilityContainer: Hashable {
    static let magicNDEF: UInt8 = 0xE1
    /// The mapping version this reader writes (1.0).
    static let version10: UInt8 = 0x10

    var magic: UInt8
    var version: UInt8
    var sizeByte: UInt8
    var access: UInt8

    init(magic: UInt8, version: UInt8, sizeByte: UInt8, access: UInt8) {
        self.magic = magic
        self.version = version
        self.sizeByte = sizeByte
        self.access = access
    }

    init(page bytes: [UInt8]) {
        precondition(bytes.count == 4)
        self.init(magic: bytes[0], version: bytes[1], sizeByte: bytes[2], access: bytes[3])
    }

    var bytes: [UInt8] { [magic, version, sizeByte, access] }
    var majorVersion: Int { Int(version >> 4) }
    var minorVersion: Int { Int(version & 0x0F) }
    var dataAreaSize: Int { Int(sizeByte) * 8 }
    /// Read access nibble: 0 = granted; anything else is proprietary (T2T §6.1.4).
    var readAccess: UInt8 { access >> 4 }
    /// Write access nibble: 0 = granted, F = none; others proprietary (T2T §6.1.4).
    var writeAccess: UInt8 { access & 0x0F }

    /// Why this CC does not describe a readable NDEF tag, or nil when it does: the magic must be `E1`, the major
    /// version 1 (a reader ignores the minor version), read access granted, the size non-zero (T2T §7.4.1).
    var unsupportedReason: String? {
        if magic != Self.magicNDEF {
            return "CC magic is \(Hex.encode([magic])), not E1 (not NDEF formatted)"
        }
        if majorVersion != 1 { return "CC mapping version \(majorVersion).\(minorVersion) has no major version 1" }
        if readAccess != 0 { return "CC read access \(Hex.encode([access])) is not granted (proprietary)" }
        if sizeByte == 0 { return "CC data area size is 0" }
        return nil
    }
}
