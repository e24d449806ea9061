/// The encryption identifier of a Request Service V2 answer (Apple's Core NFC documentation; FeliCa Card User's
/// Manual, Excerpted Edition, Request Service V2; docs/PARITY.md §9.1). Apple's Swift spelling, upper case.
public enum NFCFeliCaEncryptionId: Int, Sendable, Hashable {
    /// AES (`4F`h).
    case AES = 0x4F
    /// AES and DES (`41`h).
    case AES_DES = 0x41

    @available(*, deprecated, renamed: "AES")
    public static var aes: NFCFeliCaEncryptionId { .AES }
    @available(*, deprecated, renamed: "AES_DES")
    public static var aes_des: NFCFeliCaEncryptionId { .AES_DES }
}

/// The iOS 13 name of ``NFCFeliCaEncryptionId``.
@available(*, deprecated, renamed: "NFCFeliCaEncryptionId")
public typealias EncryptionId = NFCFeliCaEncryptionId
