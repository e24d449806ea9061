/// The flags byte of an ISO 15693 response (iOS 14 `NFCISO15693ResponseFlag`, `UInt8`; the ISO/IEC 15693-3
/// response flags: bit 1 is the Error flag, bit 4 the Extension flag; the other members are the buffer and
/// security-status bits of the later editions, passed through as the tag sent them).
public struct NFCISO15693ResponseFlag: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    /// A flag set from the raw flags byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 1: the tag reports an error; an error code follows.
    public static let error = NFCISO15693ResponseFlag(rawValue: 0x01)
    /// Bit 2: the tag's response buffer holds a valid answer (Read Buffer).
    public static let responseBufferValid = NFCISO15693ResponseFlag(rawValue: 0x02)
    /// Bit 3: this is the final response.
    public static let finalResponse = NFCISO15693ResponseFlag(rawValue: 0x04)
    /// Bit 4: the protocol format is extended.
    public static let protocolExtension = NFCISO15693ResponseFlag(rawValue: 0x08)
    /// Bit 5: block security status, first bit.
    public static let blockSecurityStatusBit5 = NFCISO15693ResponseFlag(rawValue: 0x10)
    /// Bit 6: block security status, second bit.
    public static let blockSecurityStatusBit6 = NFCISO15693ResponseFlag(rawValue: 0x20)
    /// Bit 7: the tag asks for a wait time extension.
    public static let waitTimeExtension = NFCISO15693ResponseFlag(rawValue: 0x40)
}
