/// An NDEF message (NFC Forum NDEF 1.0 §3.3): one or more records, the first flagged MB, the last ME.
///
/// Decode with ``init(decoding:options:)-8yqkp`` (strict) or the lenient variant that also reports what it repaired;
/// encode with ``encoded(chunkSize:)``. Chunked records (§2.3.3) are reassembled on decoding and re-chunked on
/// encoding when a chunk size is given.
///
/// A message with no records encodes as the empty NDEF message `D0 00 00` (one TNF 0 record), the conventional
/// content of a formatted but empty tag; that message decodes to one ``NDEFRecord/empty`` record.
package struct NDEFMessage: Hashable, Sendable {
    package var records: [NDEFRecord]

    package init(records: [NDEFRecord]) {
        self.records = records
    }

    /// The empty NDEF message, `D0 00 00`: one empty record.
    package static let empty = NDEFMessage(records: [.empty])

    /// Decodes one message from `bytes` (strict by default). Offsets in errors count from `bytes.startIndex`.
    package init(decoding bytes: ArraySlice<UInt8>, options: NDEFDecodingOptions = .strict) throws(NDEFError) {
        var sink = RepairLog(recording: false)
        try self.init(decoding: bytes, options: options, baseOffset: 0, repairs: &sink)
    }

    /// Decodes one message from `bytes` (strict by default).
    package init(decoding bytes: [UInt8], options: NDEFDecodingOptions = .strict) throws(NDEFError) {
        try self.init(decoding: bytes[...], options: options)
    }

    /// Decodes one message from any byte collection (copied once into an array first).
    package init(decoding bytes: some Collection<UInt8>, options: NDEFDecodingOptions = .strict) throws(NDEFError) {
        try self.init(decoding: Array(bytes)[...], options: options)
    }

    /// Decodes one message and appends every lenient repair to `repairs` (strict mode never repairs).
    package init(
        decoding bytes: ArraySlice<UInt8>, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        var log = RepairLog(recording: true)
        try self.init(decoding: bytes, options: options, baseOffset: 0, repairs: &log)
        repairs.append(contentsOf: log.repairs)
    }

    /// Decodes one message and appends every lenient repair to `repairs` (strict mode never repairs).
    package init(decoding bytes: [UInt8], options: NDEFDecodingOptions, repairs: inout [NDEFRepair]) throws(NDEFError) {
        try self.init(decoding: bytes[...], options: options, repairs: &repairs)
    }
}

/// Collects repairs only when someone asked for them, so the plain decoder never allocates for them.
struct RepairLog {
    let recording: Bool
    private(set) var repairs: [NDEFRepair] = []

    init(recording: Bool) { self.recording = recording }

    mutating func add(_ code: NDEFError.Code, at offset: Int, _ action: @autoclosure () -> String) {
        if recording { repairs.append(NDEFRepair(code, at: offset, action: action())) }
    }
}
