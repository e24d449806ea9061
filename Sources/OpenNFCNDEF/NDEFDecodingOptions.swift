/// How strictly to decode, and the resource guards that apply either way.
///
/// - Strict mode (the default) rejects every violation of NFC Forum NDEF 1.0 and the RTDs with an ``NDEFError``.
/// - Lenient mode repairs what real tags commonly get wrong (see ``NDEFRepair`` and docs/NDEF.md for the list) and
///   reports each repair; what it cannot repair still throws.
///
/// The guards hold in both modes: ``maxMessageSize`` (Core NFC's 128 KiB NDEF message limit by default) and
/// ``maxNestingDepth`` (Smart Poster and Handover payloads nest messages; 16 levels by default).
package struct NDEFDecodingOptions: Hashable, Sendable {
    /// Strict rejects, lenient repairs and reports.
    package enum Mode: Hashable, Sendable {
        case strict
        case lenient
    }

    package var mode: Mode
    /// Deepest nesting of messages inside record payloads; the outermost message is depth 0.
    package var maxNestingDepth: Int
    /// Largest message accepted, in bytes. Core NFC limits NDEF messages to 128 KB.
    package var maxMessageSize: Int
    /// Nesting level of the message being decoded (0 outermost); typed decoders of nesting records raise it.
    var depth = 0

    /// The 128 KiB limit Core NFC documents for NDEF messages and records.
    package static let coreNFCMessageSizeLimit = 128 * 1024

    package init(mode: Mode = .strict, maxNestingDepth: Int = 16, maxMessageSize: Int = coreNFCMessageSizeLimit) {
        self.mode = mode
        self.maxNestingDepth = maxNestingDepth
        self.maxMessageSize = maxMessageSize
    }

    /// Strict decoding with the default guards.
    package static let strict = NDEFDecodingOptions()
    /// Lenient decoding with the default guards.
    package static let lenient = NDEFDecodingOptions(mode: .lenient)

    var isLenient: Bool { mode == .lenient }
}
