/// A decoding or validation failure: which NDEF/RTD rule was broken and at which byte.
///
/// Errors are compared by ``code``; ``description`` is `"<rule> at byte <offset>"`, the exact text
/// the CLI prints after `Error: `. Offsets count from the first byte of the outermost message being decoded; inside a
/// chunked record's reassembled payload they are approximate (counted from the first chunk's payload).
public struct NDEFError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable name of a rule. Its raw value is the human-readable rule name printed by the CLI.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        // Message structure (NFC Forum NDEF 1.0 §3.2, §3.3, §2.3.3 chunking).
        /// Zero bytes are not an NDEF message.
        public static let emptyMessage = Code(rawValue: "empty message")
        /// The message is larger than ``NDEFDecodingOptions/maxMessageSize``.
        public static let messageTooLarge = Code(rawValue: "message exceeds size limit")
        /// The header (flags, TYPE_LENGTH, PAYLOAD_LENGTH, ID_LENGTH) is cut off.
        public static let truncatedHeader = Code(rawValue: "truncated record header")
        /// TYPE_LENGTH runs past the end of the data.
        public static let typeBeyondEnd = Code(rawValue: "type length beyond end of data")
        /// ID_LENGTH runs past the end of the data.
        public static let idBeyondEnd = Code(rawValue: "id length beyond end of data")
        /// PAYLOAD_LENGTH runs past the end of the data.
        public static let payloadBeyondEnd = Code(rawValue: "payload length beyond end of data")
        /// The first record lacks the MB flag.
        public static let missingMessageBegin = Code(rawValue: "missing MB flag")
        /// A record after the first carries the MB flag.
        public static let unexpectedMessageBegin = Code(rawValue: "unexpected MB flag")
        /// The data ends before a record with the ME flag.
        public static let missingMessageEnd = Code(rawValue: "missing ME flag")
        /// Bytes follow the record that carries the ME flag.
        public static let trailingBytes = Code(rawValue: "trailing bytes after ME flag")
        /// TNF 7 is reserved.
        public static let reservedTNF = Code(rawValue: "reserved TNF")
        /// A TNF 0 (empty) record with a type, an ID or a payload.
        public static let nonEmptyEmptyRecord = Code(rawValue: "empty record with type, id or payload")
        /// A TNF 1–4 record without a type.
        public static let missingType = Code(rawValue: "missing type")
        /// A TNF 5 (unknown) or 6 (unchanged) record with a type.
        public static let unexpectedType = Code(rawValue: "type not allowed for TNF")
        /// TNF 6 (unchanged) on a record that does not continue a chunked record.
        public static let unchangedOutsideChunk = Code(rawValue: "unchanged TNF outside a chunked record")
        /// A middle or last chunk whose TNF is not 6 (unchanged).
        public static let chunkWithoutUnchanged = Code(rawValue: "chunk without unchanged TNF")
        /// A middle or last chunk with an ID.
        public static let idInChunk = Code(rawValue: "id in continuation chunk")
        /// The ME flag on a chunk that has CF set.
        public static let messageEndInChunk = Code(rawValue: "ME flag in non-terminal chunk")
        /// A TNF 0 (empty) record with the CF flag.
        public static let chunkedEmptyRecord = Code(rawValue: "chunked empty record")
        /// Nested messages (Smart Poster, Handover) deeper than ``NDEFDecodingOptions/maxNestingDepth``.
        public static let nestingTooDeep = Code(rawValue: "nesting too deep")
        /// A message decoded as a given list of typed records (``NDEFMessage/decoded(_:as:options:)``) holds more
        /// or fewer records than listed.
        public static let unexpectedRecordCount = Code(rawValue: "unexpected number of records")

        // Record construction.
        /// TYPE longer than 255 bytes.
        public static let typeTooLong = Code(rawValue: "type longer than 255 bytes")
        /// ID longer than 255 bytes.
        public static let idTooLong = Code(rawValue: "id longer than 255 bytes")
        /// Payload longer than 2^32−1 bytes.
        public static let payloadTooLong = Code(rawValue: "payload longer than 4294967295 bytes")

        // Typed records (NFC Forum RTDs).
        /// The record is not of the type the decoder expects (e.g. decoding a MIME record as Text).
        public static let wrongRecordType = Code(rawValue: "wrong record type")
        /// A Text record whose status byte, language code or text is malformed (RTD-Text §3.2.1).
        public static let invalidText = Code(rawValue: "invalid text record")
        /// A URI record with an RFU identifier code (≥ 0x24) (RTD-URI §3.2.2).
        public static let reservedURIPrefix = Code(rawValue: "reserved URI identifier code")
        /// A URI record that is empty or not UTF-8 (RTD-URI §3.2).
        public static let invalidURI = Code(rawValue: "invalid URI record")
        /// A Smart Poster without exactly one URI record or with malformed local records (SPR §3.2).
        public static let invalidSmartPoster = Code(rawValue: "invalid smart poster")
        /// A MIME type that is not `type/subtype` in RFC 2046 token characters.
        public static let invalidMediaType = Code(rawValue: "invalid media type")
        /// An external type that is not `domain:type` (RTD 1.0 §3.3).
        public static let invalidExternalType = Code(rawValue: "invalid external type")
        /// An absolute-URI TNF record whose type is not a URI.
        public static let invalidAbsoluteURI = Code(rawValue: "invalid absolute URI")
        /// An Android Application Record whose payload is not a package name.
        public static let invalidAndroidApplication = Code(rawValue: "invalid android application record")
        /// A Connection Handover record (Hr/Hs/Hm/Hi/Hc/ac/cr/err) that is malformed (CH 1.3 §6).
        public static let invalidHandover = Code(rawValue: "invalid handover record")
        /// A Bluetooth OOB or LE carrier configuration record that is malformed.
        public static let invalidBluetoothCarrier = Code(rawValue: "invalid bluetooth carrier")
        /// A Wi-Fi (WSC) carrier configuration record that is malformed.
        public static let invalidWiFiCarrier = Code(rawValue: "invalid wifi carrier")
        /// A Signature record that is structurally malformed (Signature RTD 2.0 §3).
        public static let invalidSignature = Code(rawValue: "invalid signature record")
        /// A Device Information record that is malformed (DI RTD 1.0 §3).
        public static let invalidDeviceInformation = Code(rawValue: "invalid device information record")
    }

    /// The rule broken.
    public var code: Code
    /// Byte offset of the problem from the start of the outermost decoded message.
    public var offset: Int
    /// An optional detail (e.g. "status byte 0x40 sets the reserved bit"); not part of ``description``.
    public var detail: String

    public init(_ code: Code, at offset: Int, detail: String = "") {
        self.code = code
        self.offset = offset
        self.detail = detail
    }

    /// `"<rule> at byte <offset>"`.
    public var description: String { "\(code.rawValue) at byte \(offset)" }

    /// Errors are equal when rule and offset are; the detail is commentary.
    public static func == (a: NDEFError, b: NDEFError) -> Bool { a.code == b.code && a.offset == b.offset }

    public func hash(into h: inout Hasher) {
        h.combine(code)
        h.combine(offset)
    }
}

/// A deviation the lenient decoder accepted, and what it did about it.
///
/// Each repair names the rule (the same ``NDEFError/Code`` strict mode would have thrown), the byte offset, and the
/// action taken. ``description`` is `"<rule> at byte <offset>: <action>"`, the text the CLI prints on stderr.
public struct NDEFRepair: Hashable, Sendable, CustomStringConvertible {
    /// The rule that was broken.
    public var code: NDEFError.Code
    /// Byte offset from the start of the outermost decoded message.
    public var offset: Int
    /// What the decoder did instead of failing.
    public var action: String

    public init(_ code: NDEFError.Code, at offset: Int, action: String) {
        self.code = code
        self.offset = offset
        self.action = action
    }

    public var description: String { "\(code.rawValue) at byte \(offset): \(action)" }
}
