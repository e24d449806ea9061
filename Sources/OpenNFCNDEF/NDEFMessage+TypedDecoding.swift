/// Decoding a message whose record types the caller knows, straight to the typed records: the counterpart of
/// ``NDEFMessage/encoded(_:)`` (a message of a URI and a Text record, a Smart Poster, one MIME record, …).
extension NDEFMessage {
    /// Decodes `bytes` as a message of exactly these typed records, in order, without building the record array or
    /// the message: `let (uri, text) = try NDEFMessage.decoded(bytes, as: NDEFURIRecord.self, NDEFTextRecord.self)`.
    ///
    /// The result, and every error with its offset, is what
    /// `let m = try NDEFMessage(decoding: bytes, options: options)` followed by `R(decoding: m.records[k], options:)`
    /// for each type gives, with one more rule between the two steps: the message must hold as many records as types
    /// are given, else ``NDEFError/Code/unexpectedRecordCount`` (at the header of the first record too many, or at
    /// the end of the message when records are missing). Lenient repairs are discarded; use
    /// ``decoded(_:as:options:repairs:)`` to keep them.
    @inlinable
    public static func decoded<each R: NDEFTypedRecord>(
        _ bytes: ArraySlice<UInt8>, as types: repeat (each R).Type, options: NDEFDecodingOptions = .strict
    ) throws(NDEFError) -> (repeat each R) {
        var repairs: [NDEFRepair] = []
        return try decoded(bytes, as: repeat each types, options: options, repairs: &repairs)
    }

    /// ``decoded(_:as:options:)`` of an array.
    @inlinable
    public static func decoded<each R: NDEFTypedRecord>(
        _ bytes: [UInt8], as types: repeat (each R).Type, options: NDEFDecodingOptions = .strict
    ) throws(NDEFError) -> (repeat each R) {
        var repairs: [NDEFRepair] = []
        return try decoded(bytes[...], as: repeat each types, options: options, repairs: &repairs)
    }

    /// ``decoded(_:as:options:)``, appending every lenient repair (message structure first, then each record's in
    /// order) to `repairs`.
    @inlinable
    public static func decoded<each R: NDEFTypedRecord>(
        _ bytes: ArraySlice<UInt8>, as types: repeat (each R).Type, options: NDEFDecodingOptions,
        repairs: inout [NDEFRepair]
    ) throws(NDEFError) -> (repeat each R) {
        var count = 0
        for _ in repeat each types { count += 1 }
        var cursor = try NDEFTypedRecordCursor(bytes, count: count, options: options)
        defer { if !cursor.repairs.isEmpty { repairs.append(contentsOf: cursor.repairs) } }
        return (repeat try cursor.next(each types))
    }
}

/// The records of a message being decoded to typed records, one at a time.
///
/// A strict, unchunked message (the common case) is checked in one pass (``NDEFMessage/strictRecordCount(_:)``)
/// and each record is then read from the buffer when its type asks for it: no record array. Anything else (lenient
/// mode, chunks, an error) goes through the general decoder, which alone produces structure errors and repairs.
@usableFromInline
struct NDEFTypedRecordCursor {
    let bytes: ArraySlice<UInt8>
    /// The general decoder's records; empty on the fast path, which reads from `bytes`.
    let records: [NDEFRecord]
    let fast: Bool
    /// Fast path: offset of the next record's header from `bytes.startIndex`; general path: index in `records`.
    var position = 0
    let options: NDEFDecodingOptions
    @usableFromInline var repairs: [NDEFRepair] = []

    /// Checks the message structure and that it holds `count` records.
    @usableFromInline
    init(_ bytes: ArraySlice<UInt8>, count: Int, options: NDEFDecodingOptions) throws(NDEFError) {
        self.bytes = bytes
        self.options = options
        let found: Int
        if !options.isLenient, options.depth <= options.maxNestingDepth, !bytes.isEmpty,
            bytes.count <= options.maxMessageSize,
            let n = bytes.withUnsafeBufferPointer({ NDEFMessage.strictRecordCount($0) })
        {
            found = n
            fast = true
            records = []
        } else {
            var log = RepairLog(recording: true)
            let message = try NDEFMessage(decoding: bytes, options: options, baseOffset: 0, repairs: &log)
            found = message.records.count
            fast = false
            records = message.records
            repairs = log.repairs
        }
        guard found == count else {
            throw NDEFError(
                .unexpectedRecordCount, at: found < count ? bytes.count : Self.headerOffset(ofRecord: count, bytes),
                detail: "expected \(count) record(s), the message has \(found)")
        }
    }

    /// Offset of the header of record `k` (0-based) of a message whose structure decoded, walking the headers
    /// (NDEF 1.0 §3.2); a chunked record counts once, from its first chunk.
    static func headerOffset(ofRecord k: Int, _ bytes: ArraySlice<UInt8>) -> Int {
        bytes.withUnsafeBufferPointer { buffer in
            var i = 0
            var record = 0
            var inChunk = false
            while i < buffer.count {
                let flags = buffer[i]
                if !inChunk {
                    if record == k { return i }
                    record += 1
                }
                inChunk = flags & NDEFMessage.Flag.cf != 0
                let headerLength =
                    (flags & NDEFMessage.Flag.sr != 0 ? 3 : 6) + (flags & NDEFMessage.Flag.il != 0 ? 1 : 0)
                guard buffer.count - i >= headerLength else { break }
                let idLength = flags & NDEFMessage.Flag.il != 0 ? Int(buffer[i + headerLength - 1]) : 0
                i +=
                    headerLength + Int(buffer[i + 1]) + idLength
                    + NDEFMessage.payloadLength(buffer, at: i, flags: flags)
            }
            return min(i, buffer.count)
        }
    }

    /// The next record decoded as `T` (the initializer checks its RTD rules).
    @usableFromInline
    mutating func next<T: NDEFTypedRecord>(_ type: T.Type) throws(NDEFError) -> T {
        if fast {
            var p = position
            let record = bytes.withUnsafeBufferPointer {
                NDEFMessage.checkedRecord(at: &p, $0, in: bytes, baseOffset: 0)
            }
            position = p
            return try T(decoding: record, options: options, repairs: &repairs)
        }
        let k = position
        position += 1
        return try T(decoding: records[k], options: options, repairs: &repairs)
    }
}
