/// A typed view of an NDEF record (an NFC Forum RTD, a media type, an external type): decoded from and encoded to
/// an ``NDEFRecord``.
///
/// Decoding checks the RTD's rules. In strict mode every violation throws an ``NDEFError`` whose offset counts from
/// the outermost message; in lenient mode the decoder repairs what it can and appends an ``NDEFRepair``.
package protocol NDEFTypedRecord: Hashable, Sendable {
    /// Decodes `record`, appending lenient repairs to `repairs`.
    init(decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair])
        throws(NDEFError)
    /// Strict decoding of a record from its fields in place, for records whose structure a message decoder has
    /// checked (TNF 1–5): the value ``init(decoding:options:repairs:)`` gives in strict mode. Throwing declines (a
    /// decoder may decline any record, e.g. all but the common shapes); the message decoder then asks
    /// ``init(decoding:options:repairs:)``, which alone reports errors, so what this throws is never seen. An
    /// initializer rather than an optional result, so that generic callers need no `Optional<Self>`. Default:
    /// declines.
    init(
        validFields tnf: NDEFRecord.TypeNameFormat, type: UnsafeBufferPointer<UInt8>,
        payload: UnsafeBufferPointer<UInt8>
    ) throws(NDEFError)
    /// The record this value encodes to. Throws when a field cannot be encoded (e.g. a language code over 63 bytes).
    func record() throws(NDEFError) -> NDEFRecord
    /// Bytes of this record on the wire, unchunked, with no ID. Default: through ``record()``.
    func encodedLength() throws(NDEFError) -> Int
    /// Appends this record, unchunked, with the given MB/ME flags: the bytes ``record()`` would encode to, without
    /// building it. Default: through ``record()``.
    func encode(into out: inout [UInt8], begin: Bool, end: Bool) throws(NDEFError)
    /// Writes the bytes ``encode(into:begin:end:)`` appends to the start of `buffer` and returns how many they are;
    /// nil, with nothing written, when they do not fit. Default: through ``encode(into:begin:end:)`` and a copy.
    func write(to buffer: UnsafeMutableBufferPointer<UInt8>, begin: Bool, end: Bool) throws(NDEFError) -> Int?
}

extension NDEFTypedRecord {
    package init(
        validFields tnf: NDEFRecord.TypeNameFormat, type: UnsafeBufferPointer<UInt8>,
        payload: UnsafeBufferPointer<UInt8>
    ) throws(NDEFError) {
        throw .declined
    }

    package func encodedLength() throws(NDEFError) -> Int {
        let r = try record()
        return NDEFRecord.encodedLength(typeCount: r.type.count, idCount: r.id.count, payloadCount: r.payload.count)
    }

    package func encode(into out: inout [UInt8], begin: Bool, end: Bool) throws(NDEFError) {
        try record().encode(into: &out, begin: begin, end: end)
    }

    package func write(to buffer: UnsafeMutableBufferPointer<UInt8>, begin: Bool, end: Bool) throws(NDEFError) -> Int? {
        var out: [UInt8] = []
        try encode(into: &out, begin: begin, end: end)
        guard out.count <= buffer.count else { return nil }
        _ = out.withUnsafeBufferPointer {
            UnsafeMutableBufferPointer(rebasing: buffer[0..<out.count]).initialize(from: $0)
        }
        return out.count
    }
}

extension NDEFMessage {
    /// The message of these typed records, in order, encoded without building intermediate ``NDEFRecord``s or a
    /// message (one allocation: the result); the same bytes as `NDEFMessage(records: [r.record(), …]).encoded()`.
    /// No records give the empty message `D0 00 00`.
    @inlinable
    package static func encoded<each R: NDEFTypedRecord>(_ records: repeat each R) throws(NDEFError) -> [UInt8] {
        try encodedPack(repeat each records)
    }

    /// ``encoded(_:)`` of exactly two records: the same bytes, but each record's writer is called directly (a pack
    /// expansion calls them through the protocol, unspecialized: docs/PERFORMANCE.md). Specialised here for the
    /// common pairs, as ``NDEFMessage/decoded(_:as:_:options:)`` is (why: docs/PERFORMANCE.md).
    @_specialize(exported:true,where A == NDEFURIRecord, B == NDEFTextRecord)
    @_specialize(exported:true,where A == NDEFTextRecord, B == NDEFURIRecord)
    @inlinable
    package static func encoded<A: NDEFTypedRecord, B: NDEFTypedRecord>(_ a: A, _ b: B) throws(NDEFError) -> [UInt8] {
        let out = try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 256) {
            (buffer) throws(NDEFError) -> [UInt8]? in
            guard let n = try a.write(to: buffer, begin: true, end: false),
                let m = try b.write(to: UnsafeMutableBufferPointer(rebasing: buffer[n...]), begin: false, end: true)
            else { return nil }
            return Array(UnsafeBufferPointer(rebasing: buffer[0..<n + m]))
        }
        if let out { return out }
        return try encodedPack(a, b)  // over 256 bytes: measured first
    }

    /// ``encoded(_:)`` for any number of records.
    @inlinable
    static func encodedPack<each R: NDEFTypedRecord>(_ records: repeat each R) throws(NDEFError) -> [UInt8] {
        var count = 0
        for _ in repeat (each R).self { count += 1 }
        guard count > 0 else { return [0xD0, 0x00, 0x00] }
        // Each record writes itself into a scratch buffer, copied once into the result. First pass: a 256-byte stack
        // buffer (most messages); if a record does not fit, the message is measured and written again into a buffer
        // of its size; if a record still does not fit (an encodedLength() that disagrees with
        // encode(into:begin:end:)), the records are appended instead.
        var capacity = 256
        var measured = false
        while true {
            let out = try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: capacity) {
                (buffer) throws(NDEFError) -> [UInt8]? in
                var written = 0
                var index = 0
                for r in repeat each records {
                    guard
                        let n = try r.write(
                            to: UnsafeMutableBufferPointer(rebasing: buffer[written...]), begin: index == 0,
                            end: index == count - 1)
                    else { return nil }
                    written += n
                    index += 1
                }
                return Array(UnsafeBufferPointer(rebasing: buffer[0..<written]))
            }
            if let out { return out }
            if measured { break }
            measured = true
            capacity = 0
            for r in repeat each records { capacity += try r.encodedLength() }
            if capacity <= 256 { break }
        }
        var appended: [UInt8] = []
        appended.reserveCapacity(capacity)
        var index = 0
        for r in repeat each records {
            try r.encode(into: &appended, begin: index == 0, end: index == count - 1)
            index += 1
        }
        return appended
    }
}

extension NDEFRecord {
    /// Bytes of a record header (NDEF 1.0 §3.2) for fields of these sizes: flags, TYPE_LENGTH, PAYLOAD_LENGTH (1 byte
    /// with SR, else 4), ID_LENGTH when there is an ID.
    @inline(__always)
    static func headerLength(idCount: Int, payloadCount: Int) -> Int {
        (payloadCount < 256 ? 3 : 6) + (idCount > 0 ? 1 : 0)
    }

    /// Writes a record header at `p` (the bytes ``writeHeader(into:flags:tnf:typeCount:idCount:payloadCount:)``
    /// appends) and returns its length.
    @inline(__always)
    static func writeHeader(
        to p: UnsafeMutablePointer<UInt8>, flags: UInt8, tnf: UInt8, typeCount: Int, idCount: Int, payloadCount: Int
    ) -> Int {
        let short = payloadCount < 256
        var f = flags | tnf
        if short { f |= 0x10 }
        if idCount > 0 { f |= 0x08 }
        p[0] = f
        p[1] = UInt8(truncatingIfNeeded: typeCount)
        var i = 2
        if short {
            p[2] = UInt8(truncatingIfNeeded: payloadCount)
            i = 3
        } else {
            let n = UInt32(truncatingIfNeeded: payloadCount)
            p[2] = UInt8(truncatingIfNeeded: n >> 24)
            p[3] = UInt8(truncatingIfNeeded: n >> 16)
            p[4] = UInt8(truncatingIfNeeded: n >> 8)
            p[5] = UInt8(truncatingIfNeeded: n)
            i = 6
        }
        if idCount > 0 {
            p[i] = UInt8(truncatingIfNeeded: idCount)
            i += 1
        }
        return i
    }

    /// Appends a record header (NDEF 1.0 §3.2): flags with SR when the payload fits one byte and IL with an ID,
    /// TYPE_LENGTH, PAYLOAD_LENGTH, ID_LENGTH.
    @inline(__always)
    static func writeHeader(
        into out: inout [UInt8], flags: UInt8, tnf: UInt8, typeCount: Int, idCount: Int, payloadCount: Int
    ) {
        let short = payloadCount < 256
        var f = flags | tnf
        if short { f |= 0x10 }
        if idCount > 0 { f |= 0x08 }
        out.append(f)
        out.append(UInt8(truncatingIfNeeded: typeCount))
        if short {
            out.append(UInt8(truncatingIfNeeded: payloadCount))
        } else {
            let n = UInt32(truncatingIfNeeded: payloadCount)
            out.append(UInt8(truncatingIfNeeded: n >> 24))
            out.append(UInt8(truncatingIfNeeded: n >> 16))
            out.append(UInt8(truncatingIfNeeded: n >> 8))
            out.append(UInt8(truncatingIfNeeded: n))
        }
        if idCount > 0 { out.append(UInt8(truncatingIfNeeded: idCount)) }
    }
}

extension NDEFTypedRecord {
    /// Decodes `record` (strict by default), discarding lenient repairs.
    package init(decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions = .strict) throws(NDEFError) {
        var repairs: [NDEFRepair] = []
        try self.init(decoding: record, options: options, repairs: &repairs)
    }
}

/// Helpers shared by the typed decoders: offsets in the outermost message, UTF-8 text with strict/lenient handling.
struct PayloadCursor {
    let bytes: ArraySlice<UInt8>
    /// Offset of `bytes.startIndex` in the outermost message.
    let base: Int
    let code: NDEFError.Code
    private(set) var index: Int

    init(_ record: borrowing NDEFRecord, code: NDEFError.Code) {
        self.bytes = record.payload
        self.base = record.payloadOffset
        self.code = code
        self.index = record.payload.startIndex
    }

    init(_ bytes: ArraySlice<UInt8>, base: Int, code: NDEFError.Code) {
        self.bytes = bytes
        self.base = base
        self.code = code
        self.index = bytes.startIndex
    }

    /// Offset of the cursor in the outermost message.
    var offset: Int { base + (index - bytes.startIndex) }
    var remaining: Int { bytes.endIndex - index }
    var isAtEnd: Bool { index >= bytes.endIndex }

    func error(_ detail: String = "") -> NDEFError { NDEFError(code, at: offset, detail: detail) }

    mutating func byte() throws(NDEFError) -> UInt8 {
        guard index < bytes.endIndex else { throw error("unexpected end of payload") }
        defer { index += 1 }
        return bytes[index]
    }

    mutating func uint16() throws(NDEFError) -> UInt16 {
        let s = try take(2)
        return UInt16(s[s.startIndex]) << 8 | UInt16(s[s.startIndex + 1])
    }

    mutating func uint32() throws(NDEFError) -> UInt32 {
        let s = try take(4)
        return s.reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func take(_ n: Int) throws(NDEFError) -> ArraySlice<UInt8> {
        guard n >= 0, n <= remaining else { throw error("needs \(n) byte(s), \(remaining) left") }
        defer { index += n }
        return bytes[index..<index + n]
    }

    mutating func rest() -> ArraySlice<UInt8> {
        defer { index = bytes.endIndex }
        return bytes[index...]
    }
}

/// UTF-8 text of a field: strict mode rejects invalid UTF-8; lenient mode substitutes U+FFFD and reports it.
/// `prefix` is prepended (the URI record's expanded prefix) in the same allocation.
func decodeUTF8(
    _ bytes: ArraySlice<UInt8>, at offset: Int, code: NDEFError.Code, options: NDEFDecodingOptions,
    repairs: inout [NDEFRepair], prefix: StaticString = ""
) throws(NDEFError) -> String {
    // Fast path: ASCII is valid UTF-8; build the string in one allocation without a validation pass.
    if bytes.allSatisfy({ $0 < 0x80 }) {
        let p = prefix.utf8CodeUnitCount
        return String(unsafeUninitializedCapacity: p + bytes.count) { buffer in
            if p > 0 { buffer.baseAddress!.initialize(from: prefix.utf8Start, count: p) }
            _ = UnsafeMutableBufferPointer(rebasing: buffer[p...]).initialize(from: bytes)
            return p + bytes.count
        }
    }
    if let s = String(validating: bytes, as: UTF8.self) { return prefix.description + s }
    guard options.isLenient else { throw NDEFError(code, at: offset, detail: "not valid UTF-8") }
    repairs.append(NDEFRepair(code, at: offset, action: "replaced invalid UTF-8 with U+FFFD"))
    return prefix.description + String(decoding: bytes, as: UTF8.self)
}

/// Strict: throw; lenient: log the repair and carry on.
func violate(
    _ code: NDEFError.Code, at offset: Int, _ options: NDEFDecodingOptions, _ repairs: inout [NDEFRepair],
    detail: String = "", action: String
) throws(NDEFError) {
    guard options.isLenient else { throw NDEFError(code, at: offset, detail: detail) }
    repairs.append(NDEFRepair(code, at: offset, action: action))
}

extension NDEFRecord {
    /// Throws ``NDEFError/Code/wrongRecordType`` unless this is a well-known record of type `name`.
    func expectWellKnown(_ name: StaticString) throws(NDEFError) {
        guard isWellKnown(name) else {
            throw NDEFError(.wrongRecordType, at: payloadOffset, detail: "expected well-known type \(name)")
        }
    }

    /// A record built from fields the typed encoder has checked.
    static func wellKnown(_ name: StaticString, payload: [UInt8], id: ArraySlice<UInt8> = []) -> NDEFRecord {
        name.withUTF8Buffer { NDEFRecord(unchecked: .wellKnown, type: $0, id: id, payload: payload) }
    }

    /// A well-known record with a one-letter type whose payload `build` appends to a buffer that already holds the
    /// type, so the record is one allocation (the URI and Text encoders).
    static func wellKnown(
        _ letter: Unicode.Scalar, payloadCapacity: Int, _ build: (inout [UInt8]) -> Void
    ) -> NDEFRecord {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 + payloadCapacity)
        bytes.append(UInt8(ascii: letter))
        build(&bytes)
        return NDEFRecord(
            tnf: .wellKnown, storage: bytes[...], typeRange: 0..<1, idRange: 1..<1, payloadRange: 1..<bytes.count,
            payloadOffset: 0)
    }
}

extension NDEFRecord {
    /// Offset of the type field in the outermost message (approximate for records built in code).
    var typeOffset: Int { max(0, payloadOffset - id.count - type.count) }
}

// MARK: - Fast paths of the typed decoders (the common, valid case; anything else takes the general path)

extension NDEFRecord {
    /// ``NDEFTypedRecord/init(validFields:type:payload:)`` of this record's fields (one borrow of the storage, no
    /// slices); nil when it declines.
    @inline(__always)
    func decodedIfValid<T: NDEFTypedRecord>(as type: T.Type) -> T? {
        let base = storage.startIndex
        return storage.withUnsafeBufferPointer { buffer -> T? in
            try? T(
                validFields: tnf,
                type: UnsafeBufferPointer(
                    rebasing: buffer[(typeRange.lowerBound - base)..<(typeRange.upperBound - base)]),
                payload: UnsafeBufferPointer(
                    rebasing: buffer[(payloadRange.lowerBound - base)..<(payloadRange.upperBound - base)]))
        }
    }
}

extension NDEFError {
    /// What ``NDEFTypedRecord/init(validFields:type:payload:)`` throws to decline a record (never reported).
    static var declined: NDEFError { NDEFError(.wrongRecordType, at: 0) }
}

/// True when every byte is ASCII (below 0x80), eight bytes at a time.
@inline(__always)
func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let start = bytes.baseAddress else { return true }
    var i = 0
    let n = bytes.count
    while n - i >= 8 {
        if UnsafeRawPointer(start + i).loadUnaligned(as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
        i += 8
    }
    while i < n {
        if start[i] >= 0x80 { return false }
        i += 1
    }
    return true
}

/// `prefix` followed by `rest` as a String when `rest` is valid UTF-8 (ASCII checked word-wise, anything else
/// validated); nil for invalid UTF-8, which the general path then reports or repairs.
@inline(__always)
func fastUTF8String(prefix: StaticString = "", _ rest: UnsafeBufferPointer<UInt8>) -> String? {
    let p = prefix.utf8CodeUnitCount
    guard isASCII(rest) else {
        guard let tail = String(validating: rest, as: UTF8.self) else { return nil }
        return p == 0 ? tail : prefix.description + tail
    }
    let n = p + rest.count
    // Small strings (up to 15 UTF-8 bytes) are built in place; longer ones from one contiguous copy, the cheapest
    // ways the standard library offers (String(unsafeUninitializedCapacity:) allocates more slowly, and both
    // validate again, which for ASCII is one word-wise check).
    if n <= 15 {
        return String(unsafeUninitializedCapacity: n) { buffer in
            if p > 0 { buffer.baseAddress!.initialize(from: prefix.utf8Start, count: p) }
            if let from = rest.baseAddress { (buffer.baseAddress! + p).initialize(from: from, count: rest.count) }
            return n
        }
    }
    if p == 0 { return String(decoding: rest, as: UTF8.self) }
    return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: n) { buffer in
        buffer.baseAddress!.initialize(from: prefix.utf8Start, count: p)
        if let from = rest.baseAddress { (buffer.baseAddress! + p).initialize(from: from, count: rest.count) }
        return String(decoding: UnsafeBufferPointer(buffer), as: UTF8.self)
    }
}

/// Calls `body` with the UTF-8 of `string` in place (native and small strings need no copy); a bridged string is
/// made contiguous in a copy first.
@inline(__always)
func withUTF8Bytes<R>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
    if let r = string.utf8.withContiguousStorageIfAvailable(body) { return r }
    var copy = string
    return copy.withUTF8(body)
}

/// Copies `bytes` to `p` and returns their count.
@inline(__always)
func copyBytes(_ bytes: UnsafeBufferPointer<UInt8>, to p: UnsafeMutablePointer<UInt8>) -> Int {
    if let from = bytes.baseAddress, bytes.count > 0 { p.initialize(from: from, count: bytes.count) }
    return bytes.count
}

/// True when every byte is printable ASCII (0x20–0x7E), as a Text record's language code must be (RTD-Text §3.2.1).
@inline(__always)
func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
    for b in bytes where b < 0x20 || b >= 0x7F { return false }
    return true
}
