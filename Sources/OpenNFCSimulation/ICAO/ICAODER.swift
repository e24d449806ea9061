internal import OpenNFCBytes

/// The DER values the eMRTD issuer writes (ITU-T X.690 §8, §10), all through the project's DER writer (``DER`` in
/// `OpenNFCBytes`): the certificates, SecurityInfos and SOD of the card side. Object identifiers here are constants
/// of the specs, so an invalid one is a programming error.
enum ICAODER {
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] { DER.tlv(UInt32(tag), content) }
    static func sequence(_ items: [[UInt8]]) -> [UInt8] { DER.sequence(items) }
    /// SET OF: the elements in the order of their encodings (X.690 §11.6).
    static func set(_ items: [[UInt8]]) -> [UInt8] { DER.set(items) }
    static func integer(_ value: Int) -> [UInt8] { DER.integer(value) }
    static func integer(unsigned bytes: [UInt8]) -> [UInt8] { DER.integer(unsigned: bytes) }
    static func octetString(_ bytes: [UInt8]) -> [UInt8] { DER.octetString(bytes) }
    static func bitString(_ bytes: [UInt8]) -> [UInt8] { DER.bitString(bytes) }
    /// A named-bit BIT STRING such as keyUsage (RFC 5280 §4.2.1.3), trailing zero bits dropped.
    static func namedBits(_ bits: Set<Int>) -> [UInt8] { DER.namedBits(bits) }
    static let `true` = DER.boolean(true)
    static func printableString(_ s: String) -> [UInt8] { DER.printableString(s) }
    static func utf8String(_ s: String) -> [UInt8] { DER.utf8String(s) }
    /// `[n]`, constructed.
    static func context(_ n: Int, _ content: [UInt8]) -> [UInt8] { DER.context(n, content) }
    /// OBJECT IDENTIFIER from dotted text.
    static func oid(_ dotted: String) -> [UInt8] {
        guard let encoded = try? DER.oid(dotted) else { preconditionFailure("\(dotted) is not an object identifier") }
        return encoded
    }
    /// UTCTime for years 1950–2049, else GeneralizedTime (RFC 5280 §4.1.2.5), at midnight UTC.
    static func time(_ day: EMRTDTestPKI.Day) -> [UInt8] {
        DER.time(DERTime(year: day.year, month: day.month, day: day.day))
    }
}
