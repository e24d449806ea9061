/// A decoding or validation failure: which NDEF/RTD rule was broken and at which byte.
///
/// Errors are compared by ``code``; ``description`` is `"<rule> at byte <offset>"`, the exact text
/// the CLI prints after `Error: `. Offsets count from the first byte of the outermost message being decoded; inside a
/// chunked record's reassembled payload they are approximate (counted from the first chunk's payload).
package struct NDEFError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable name of a rule. Its raw value is the human-readable rule name printed by the CLI.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        package var rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        // Message structure (NFC Forum NDEF 1.0 §3.2, §3.3, §2.3.3 chunking).
        /// Zero bytes are not an NDEF message.
        package static let emptyMessage = Code(rawValue: "empty message")
        /// The message is larger than ``NDEFDecodingOptions/maxMessageSize``.
        package static let messageTooLarge = Code(rawValue: "message exceeds size limit")
        /// The header (flags, TYPE_LENGTH, PAYLOAD_LENGTH, ID_LENGTH) is cut off.
        package static let truncatedHeader = Code(rawValue: "truncated record header")
        /// TYPE_LENGTH runs past the end of the data.
        package static let typeBeyondEnd = Code(rawValue: "type length beyond end of data")
        /// ID_LENGTH runs past the end of the data.
        package static let idBeyondEnd = Code(rawValue: "id length beyond end of data")
        /// PAYLOAD_LENGTH runs past the end of the data.
        package static let payloadBeyondEnd = Code(rawValue: "payload length beyond end of data")
        /// The first record lacks the MB flag.
        package static let missingMessageBegin = Code(rawValue: "missing MB flag")
        /// A record after the first carries the MB flag.
        package static let unexpectedMessageBegin = Code(rawValue: "unexpected MB flag")
        /// The data ends before a record with the ME flag.
        package static let missingMessageEnd = Code(rawValue: "missing ME flag")
        /// Bytes follow the record that carries the ME flag.
        package static let trailingBytes = Code(rawValue: "trailing bytes after ME flag")
        /// TNF 7 is reserved.
        package static let reservedTNF = Code(rawValue: "reserved TNF")
        /// A TNF 0 (empty) record with a type, an ID or a payload.
        package static let nonEmptyEmptyRecord = Code(rawValue: "empty record with type, id or payload")
        /// A TNF 1–4 record without a type.
        package static let missingType = Code(rawValue: "missing type")
        /// A TNF 5 (unknown) or 6 (unchanged) record with a type.
        package static let unexpectedType = Code(rawValue: "type not allowed for TNF")
        /// TNF 6 (unchanged) on a record that does not continue a chunked record.
        package static let unchangedOutsideChunk = Code(rawValue: "unchanged TNF outside a chunked record")
        /// A middle or last chunk whose TNF is not 6 (unchanged).
        package static let chunkWithoutUnchanged = Code(rawValue: "chunk without unchanged TNF")
        /// A middle or last chunk with an ID.
        package static let idInChunk = Code(rawValue: "id in continuation chunk")
        /// The ME flag on a chunk that has CF set.
        package static let messageEndInChunk = Code(rawValue: "ME flag in non-terminal chunk")
        /// A TNF 0 (empty) record with the CF flag.
        package static let chunkedEmptyRecord = Code(rawValue: "chunked empty record")
        /// Nested messages (Smart Poster, Handover) deeper than ``NDEFDecodingOptions/maxNestingDepth``.
        package static let nestingTooDeep = Code(rawValue: "nesting too deep")
        /// A message decoded as a given list of typed records (``NDEFMessage/decoded(_:as:options:)``) holds more
        /// or fewer records than listed.
        package static let unexpectedRecordCount = Code(rawValue: "unexpected number of records")

        // Record construction.
        /// TYPE longer than 255 bytes.
        package static let typeTooLong = Code(rawValue: "type longer than 255 bytes")
        /// ID longer than 255 bytes.
        package static let idTooLong = Code(rawValue: "id longer than 255 bytes")
        /// Payload longer than 2^32−1 bytes.
        package static let payloadTooLong = Code(rawValue: "payload longer than 4294967295 bytes")

        // Typed records (NFC Forum RTDs).
        /// The record is not of the type the decoder expects (e.g. decoding a MIME record as Text).
        package static let wrongRecordType = Code(rawValue: "wrong record type")
        /// A Text record whose status byte, language code or text is malformed (RTD-Text §3.2.1).
        package static let invalidText = Code(rawValue: "invalid text record")
        /// A URI record with an RFU identifier code (≥ 0x24) (RTD-URI §3.2.2).
        package static let reservedURIPrefix = Code(rawValue: "reserved URI identifier code")
        /// A URI record that is empty or not UTF-8 (RTD-URI §3.2).
        package static let invalidURI = Code(rawValue: "invalid URI record")
        /// A Smart Poster without exactly one URI record or with malformed local records (SPR §3.2).
        package static let invalidSmartPoster = Code(rawValue: "invalid smart poster")
        /// A MIME type that is not `type/subtype` in RFC 2046 token characters.
        package static let invalidMediaType = Code(rawValue: "invalid media type")
        /// An external type that is not `domain:type` (RTD 1.0 §3.3).
        package static let invalidExternalType = Code(rawValue: "invalid external type")
        /// An absolute-URI TNF record whose type is not a URI.
        package static let invalidAbsoluteURI = Code(rawValue: "invalid absolute URI")
        /// An Android Application Record whose payload is not a package name.
        package static let invalidAndroidApplication = Code(rawValue: "invalid android application record")
        /// A Connection Handover record (Hr/Hs/Hm/Hi/Hc/ac/cr/err) that is malformed (CH 1.3 §6).
        package static let invalidHandover = Code(rawValue: "invalid handover record")
        /// A Bluetooth OOB or LE carrier configuration record that is malformed.
        package static let invalidBluetoothCarrier = Code(rawValue: "invalid bluetooth carrier")
        /// A Wi-Fi (WSC) carrier configuration record that is malformed.
        package static let invalidWiFiCarrier = Code(rawValue: "invalid wifi carrier")
        /// A Signature record that is structurally malformed (Signature RTD 2.0 §3).
        package static let invalidSignature = Code(rawValue: "invalid signature record")
        /// A Device Information record that is malformed (DI RTD 1.0 §3).
        package static let invalidDeviceInformation = Code(rawValue: "invalid device information record")
    }

    /// The rule broken.
    package var code: Code
    /// Byte offset of the problem from the start of the outermost decoded message.
    package var offset: Int
    /// An optional detail (e.g. "status byte 0x40 sets the reserved bit"); not part of ``description``.
    package var detail: String

    package init(_ code: Code, at offset: Int, detail: String = "") {
        self.code = code
        self.offset = offset
        self.detail = detail
    }

    /// `"<rule> at byte <offset>"`.
    package var description: String { "\(code.rawValue) at byte \(offset)" }

    /// Errors are equal when rule and offset are; the detail is commentary.
    package static func == (a: NDEFError, b: NDEFError) -> Bool { a.code == b.code && a.offset == b.offset }

    package func hash(into h: inout Hasher) {
        h.combine(code)
        h.combine(offset)
    }
}

/// A deviation the lenient decoder accepted, and what it did about it.
///
/// Each repair names the rule (the same ``NDEFError/Code`` strict mode would have thrown), the byte offset, and the
/// action taken. ``description`` is `"<rule> at byte <offset>: <action>"`, the text the CLI prints on stderr.
package struct NDEFRepair: Hashable, Sendable, CustomStringConvertible {
    /// The rule that was broken.
    package var code: NDEFError.Code
    /// Byte offset from the start of the outermost decoded message.
    package var offset: Int
    /// What the decoder did instead of failing.
    package var action: String

    package init(_ code: NDEFError.Code, at offset: Int, action: String) {
        self.code = code
        self.offset = offset
        self.action = action
    }

    package var description: String { "\(code.rawValue) at byte \(offset): \(action)" }
}
