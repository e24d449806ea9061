/// The request flags of an ISO 15693 command (ObjC `NFCISO15693RequestFlag`, `uint8_t`; the ISO/IEC 15693-3
/// request flags byte, bits 1–8, for requests with the Inventory flag clear). Core NFC forces the Address flag on and
/// sends the UID unless ``select`` is set. Bit 3 (the Inventory flag) has no member, as in Apple's header.
public struct NFCISO15693RequestFlag: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    /// A flag set from the raw flags byte.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 1: the tag answers on two subcarriers.
    public static let dualSubCarriers = NFCISO15693RequestFlag(rawValue: 0x01)
    /// Bit 2: the tag answers at the high data rate.
    public static let highDataRate = NFCISO15693RequestFlag(rawValue: 0x02)
    /// Bit 4: the protocol format is extended.
    public static let protocolExtension = NFCISO15693RequestFlag(rawValue: 0x08)
    /// Bit 5: only a tag in the Selected state answers; the UID is not sent.
    public static let select = NFCISO15693RequestFlag(rawValue: 0x10)
    /// Bit 6: the request carries the tag's UID.
    public static let address = NFCISO15693RequestFlag(rawValue: 0x20)
    /// Bit 7: the command's option flag (its meaning is per command).
    public static let option = NFCISO15693RequestFlag(rawValue: 0x40)
    /// Bit 8: reserved for future use by ISO/IEC 15693-3 for non-inventory requests; passed through as given.
    public static let commandSpecificBit8 = NFCISO15693RequestFlag(rawValue: 0x80)

    /// The iOS 11 spelling of ``dualSubCarriers``.
    @available(*, deprecated, renamed: "dualSubCarriers")
    public static let RequestFlagDualSubCarriers = NFCISO15693RequestFlag.dualSubCarriers
    /// The iOS 11 spelling of ``highDataRate``.
    @available(*, deprecated, renamed: "highDataRate")
    public static let RequestFlagHighDataRate = NFCISO15693RequestFlag.highDataRate
    /// The iOS 11 spelling of ``protocolExtension``.
    @available(*, deprecated, renamed: "protocolExtension")
    public static let RequestFlagProtocolExtension = NFCISO15693RequestFlag.protocolExtension
    /// The iOS 11 spelling of ``select``.
    @available(*, deprecated, renamed: "select")
    public static let RequestFlagSelect = NFCISO15693RequestFlag.select
    /// The iOS 11 spelling of ``address``.
    @available(*, deprecated, renamed: "address")
    public static let RequestFlagAddress = NFCISO15693RequestFlag.address
    /// The iOS 11 spelling of ``option``.
    @available(*, deprecated, renamed: "option")
    public static let RequestFlagOption = NFCISO15693RequestFlag.option
}

/// The iOS 11 name of ``NFCISO15693RequestFlag``.
@available(*, deprecated, renamed: "NFCISO15693RequestFlag")
public typealias RequestFlag = NFCISO15693RequestFlag
