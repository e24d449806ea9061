import OpenNFCBytes

/// A status word SW1-SW2 (ISO/IEC 7816-4 §5.1.3, tables 5 and 6). The named values are the ones the virtual cards
/// answer; the reason for each is cited where it is used.
public struct ISO7816Status: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ sw1: UInt8, _ sw2: UInt8) { rawValue = UInt16(sw1) << 8 | UInt16(sw2) }

    public var sw1: UInt8 { UInt8(rawValue >> 8) }
    public var sw2: UInt8 { UInt8(rawValue & 0xFF) }

    /// `90 00`: normal processing.
    public static let success = ISO7816Status(rawValue: 0x9000)
    /// `62 82`: end of file reached before reading Ne bytes (the data read so far is returned).
    public static let endOfFileReached = ISO7816Status(rawValue: 0x6282)
    /// `67 00`: wrong length (malformed Lc/Le, missing or unexpected field, Lc or Le above the card's limits).
    public static let wrongLength = ISO7816Status(rawValue: 0x6700)
    /// `68 81`: logical channel not supported.
    public static let logicalChannelNotSupported = ISO7816Status(rawValue: 0x6881)
    /// `68 82`: secure messaging not supported.
    public static let secureMessagingNotSupported = ISO7816Status(rawValue: 0x6882)
    /// `68 84`: command chaining not supported.
    public static let commandChainingNotSupported = ISO7816Status(rawValue: 0x6884)
    /// `69 81`: command incompatible with file structure.
    public static let incompatibleFileStructure = ISO7816Status(rawValue: 0x6981)
    /// `69 82`: security status not satisfied (e.g. write to a read-only file).
    public static let securityStatusNotSatisfied = ISO7816Status(rawValue: 0x6982)
    /// `69 86`: command not allowed (no current EF).
    public static let noCurrentEF = ISO7816Status(rawValue: 0x6986)
    /// `69 99`: applet selection failed (the applet refused its SELECT; Java Card's `SW_APPLET_SELECT_FAILED`).
    public static let appletSelectionFailed = ISO7816Status(rawValue: 0x6999)
    /// `6A 80`: incorrect parameters in the command data field.
    public static let incorrectData = ISO7816Status(rawValue: 0x6A80)
    /// `6A 81`: function not supported.
    public static let functionNotSupported = ISO7816Status(rawValue: 0x6A81)
    /// `6A 82`: file or application not found.
    public static let fileNotFound = ISO7816Status(rawValue: 0x6A82)
    /// `6A 86`: incorrect parameters P1-P2.
    public static let incorrectP1P2 = ISO7816Status(rawValue: 0x6A86)
    /// `6B 00`: wrong parameters P1-P2 (offset outside the EF).
    public static let wrongP1P2 = ISO7816Status(rawValue: 0x6B00)
    /// `6D 00`: instruction code not supported or invalid.
    public static let insNotSupported = ISO7816Status(rawValue: 0x6D00)
    /// `6E 00`: class not supported.
    public static let claNotSupported = ISO7816Status(rawValue: 0x6E00)
    /// `6F 00`: no precise diagnosis.
    public static let noPreciseDiagnosis = ISO7816Status(rawValue: 0x6F00)

    /// True for `90 00` and the `61 XX` / `62 XX` / `63 XX` warnings that still complete the command.
    public var isSuccessOrWarning: Bool {
        rawValue == 0x9000 || sw1 == 0x61 || sw1 == 0x62 || sw1 == 0x63
    }

    public var description: String { Hex.encode([sw1, sw2]) }
}
