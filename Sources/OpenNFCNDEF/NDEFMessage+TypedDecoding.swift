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
    package static func decoded<each R: NDEFTypedRecord>(
        _ bytes: ArraySlice<UInt8>, as types: repeat (each R).Type, options: NDEFDecodingOptions = .strict
    ) throws(NDEFError) -> (repeat each R) {
        var repairs: [NDEFRepair] = []
        return try decoded(bytes, as: repeat each types, options: options, repairs: &repairs)
    }

    /// ``decoded(_:as:options:)`` of an array.
    @inlinable
    package static func decoded<each R: NDEFTypedRecord>(
        _ bytes: [UInt8], as types: repeat (each R).Type, options: NDEFDecodingOptions = .strict
    ) throws(NDEFError) -> (repeat each R) {
        var repairs: [NDEFRepair] = []
        return try decoded(bytes[...], as: repeat each types, options: options, repairs: &repairs)
    }

    /// ``decoded(_:as:options:)`` of a message of exactly two records: the same result, but each record's
    /// decoder is called directly (a pack expansion calls them through the protocol and builds its result tuple's
    /// metadata at run time: about twice the time, docs/PERFORMANCE.md).
    ///
    /// `package` generics are not specialised in the calling module (their bodies are not inlined across
    /// modules, measured with this toolchain: docs/PERFORMANCE.md), so the common pairs of Core NFC's well-known
    /// records are specialised here, in the codec, and exported; any other pair runs this generic code.
    @_specialize(exported:true,where A == NDEFURIRecord, B == NDEFTextRecord)
    @_specialize(exported:true,where A == NDEFTextRecord, B == NDEFURIRecord)
    @inlinable
    package static func decoded<A: NDEFTypedRecord, B: NDEFTypedRecord>(
        _ bytes: [UInt8], as first: A.Type, _ second: B.Type, options: NDEFDecodingOptions = .strict
    ) throws(NDEFError) -> (A, B) {
        if let found = typedFastPathCount(bytes[...], options) {
            try checkTypedRecordCount(found, expected: 2, bytes[...])
            // One buffer borrow per record, each returning its record alone: a closure returning the pair would need
            // the tuple's metadata built at run time in unspecialised code.
            var position = 0
            let a = try bytes.withUnsafeBufferPointer { (buffer) throws(NDEFError) -> A in
                try nextTypedRecord(buffer, bytes[...], at: &position, as: A.self)
            }
            let b = try bytes.withUnsafeBufferPointer { (buffer) throws(NDEFError) -> B in
                try nextTypedRecord(buffer, bytes[...], at: &position, as: B.self)
            }
            return (a, b)
        }
        var repairs: [NDEFRepair] = []
        return try decoded(bytes[...], as: A.self, B.self, options: options, repairs: &repairs)
    }

    /// ``decoded(_:as:options:)``, appending every lenient repair (message structure first, then each record's in
    /// order) to `repairs`.
    @inlinable
    package static func decoded<each R: NDEFTypedRecord>(
        _ bytes: ArraySlice<UInt8>, as types: repeat (each R).Type, options: NDEFDecodingOptions,
        repairs: inout [NDEFRepair]
    ) throws(NDEFError) -> (repeat each R) {
        var count = 0
        for _ in repeat each types { count += 1 }
        if let found = typedFastPathCount(bytes, options) {
            try checkTypedRecordCount(found, expected: count, bytes)
            return try bytes.withUnsafeBufferPointer { (buffer) throws(NDEFError) -> (repeat each R) in
                var position = 0
                return (repeat try nextTypedRecord(buffer, bytes, at: &position, as: each types))
            }
        }
        let message = try NDEFMessage(decoding: bytes, options: options, repairs: &repairs)
        try checkTypedRecordCount(message.records.count, expected: count, bytes)
        var k = 0
        return (repeat try nextTypedRecord(message.records, at: &k, as: each types, options, &repairs))
    }
}

// The typed message decoder's steps. A strict, unchunked message (the common case) is checked in one pass
// (``NDEFMessage/strictRecordCount(_:)``) and each record is then read from the buffer when its type asks for it:
// no record array, and for types with an ``NDEFTypedRecord/init(validFields:type:payload:)`` no record at all.
// Anything else (lenient mode, chunks, an error) goes through the general decoder, which alone produces structure
// errors and repairs. The generic steps are called once per record from a pack expansion, which is not specialized
// per element: they avoid anything that needs new generic metadata (an `Optional<T>`, a tuple with `T`).
extension NDEFMessage {
    /// The number of records when the strict fast path applies to `bytes` (strict mode, within the guards, a
    /// regular unchunked message), else nil.
    @usableFromInline
    static func typedFastPathCount(_ bytes: ArraySlice<UInt8>, _ options: NDEFDecodingOptions) -> Int? {
        guard !options.isLenient, options.depth <= options.maxNestingDepth, !bytes.isEmpty,
            bytes.count <= options.maxMessageSize
        else { return nil }
        return bytes.withUnsafeBufferPointer { strictRecordCount($0) }
    }

    /// Throws ``NDEFError/Code/unexpectedRecordCount`` unless the message's `found` records are the `expected`
    /// ones: at the header of the first record too many, or at the end of the message when records are missing.
    @usableFromInline
    static func checkTypedRecordCount(_ found: Int, expected: Int, _ bytes: ArraySlice<UInt8>) throws(NDEFError) {
        guard found != expected else { return }
        throw NDEFError(
            .unexpectedRecordCount, at: found < expected ? bytes.count : headerOffset(ofRecord: expected, bytes),
            detail: "expected \(expected) record(s), the message has \(found)")
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
                inChunk = flags & Flag.cf != 0
                let headerLength = (flags & Flag.sr != 0 ? 3 : 6) + (flags & Flag.il != 0 ? 1 : 0)
                guard buffer.count - i >= headerLength else { break }
                let idLength = flags & Flag.il != 0 ? Int(buffer[i + headerLength - 1]) : 0
                i += headerLength + Int(buffer[i + 1]) + idLength + payloadLength(buffer, at: i, flags: flags)
            }
            return min(i, buffer.count)
        }
    }

    /// Where the fields of a checked record lie (offsets from the message's start).
    @usableFromInline
    struct RecordFields {
        @usableFromInline var tnf: UInt8
        @usableFromInline var typeStart: Int
        @usableFromInline var idStart: Int
        @usableFromInline var payloadStart: Int
        @usableFromInline var end: Int

        @inlinable
        init(tnf: UInt8, typeStart: Int, idStart: Int, payloadStart: Int, end: Int) {
            self.tnf = tnf
            self.typeStart = typeStart
            self.idStart = idStart
            self.payloadStart = payloadStart
            self.end = end
        }
    }

    /// The fields of the record whose header is at `position` of a message the fast path checked (NDEF 1.0 §3.2).
    @inlinable
    static func recordFields(_ buffer: UnsafeBufferPointer<UInt8>, at position: Int) -> RecordFields {
        let flags = buffer[position]
        let il = flags & Flag.il != 0
        let headerLength = (flags & Flag.sr != 0 ? 3 : 6) + (il ? 1 : 0)
        let typeStart = position + headerLength
        let idStart = typeStart + Int(buffer[position + 1])
        let payloadStart = idStart + (il ? Int(buffer[position + headerLength - 1]) : 0)
        return RecordFields(
            tnf: flags & Flag.tnfMask, typeStart: typeStart, idStart: idStart, payloadStart: payloadStart,
            end: payloadStart + payloadLength(buffer, at: position, flags: flags))
    }

    /// The record of `f`, its slices sharing `bytes`.
    @usableFromInline
    static func record(_ f: RecordFields, in bytes: ArraySlice<UInt8>) -> NDEFRecord {
        guard f.tnf != 0 else { return .empty }
        let base = bytes.startIndex
        return NDEFRecord(
            tnf: NDEFRecord.TypeNameFormat(rawValue: f.tnf)!, storage: bytes,
            typeRange: base + f.typeStart..<base + f.idStart, idRange: base + f.idStart..<base + f.payloadStart,
            payloadRange: base + f.payloadStart..<base + f.end, payloadOffset: f.payloadStart)
    }

    /// Fast path: the record at `position` of `buffer` (the storage of `bytes`) decoded as `T`, first by
    /// ``NDEFTypedRecord/init(validFields:type:payload:)`` in place, else by `T`'s strict initializer, which checks
    /// its RTD rules; advances `position` past it.
    @inlinable
    static func nextTypedRecord<T: NDEFTypedRecord>(
        _ buffer: UnsafeBufferPointer<UInt8>, _ bytes: ArraySlice<UInt8>, at position: inout Int, as type: T.Type
    ) throws(NDEFError) -> T {
        let f = recordFields(buffer, at: position)
        position = f.end
        if f.tnf != 0, let tnf = NDEFRecord.TypeNameFormat(rawValue: f.tnf) {
            do {
                return try T(
                    validFields: tnf, type: UnsafeBufferPointer(rebasing: buffer[f.typeStart..<f.idStart]),
                    payload: UnsafeBufferPointer(rebasing: buffer[f.payloadStart..<f.end]))
            } catch {
                // Declined: the initializer below decides.
            }
        }
        var repairs: [NDEFRepair] = []  // strict mode repairs nothing
        return try T(decoding: record(f, in: bytes), options: .strict, repairs: &repairs)
    }

    /// General path: record `k` of `records` decoded as `T`; advances `k`.
    @usableFromInline
    static func nextTypedRecord<T: NDEFTypedRecord>(
        _ records: [NDEFRecord], at k: inout Int, as type: T.Type, _ options: NDEFDecodingOptions,
        _ repairs: inout [NDEFRepair]
    ) throws(NDEFError) -> T {
        let i = k
        k += 1
        return try T(decoding: records[i], options: options, repairs: &repairs)
    }
}
