/// One NDEF record (NFC Forum NDEF 1.0 §3.2): a type name format, a type, an optional ID and a payload.
///
/// A record is always a whole record: the decoder reassembles chunked records (§2.3.3) and the encoder chunks them
/// again on request, so `unchanged` (6) never appears here. Every record that exists satisfies the TNF rules of
/// §3.2.6: the throwing initializer checks them, the decoder only produces valid records.
///
/// `type`, `id` and `payload` are slices. A decoded record's slices share the decoded buffer (no copies), so their
/// indices are those of that buffer: use `first`, `dropFirst`, `startIndex`-relative indexing or `Array(_:)`, never
/// `payload[0]`. Each access returns a slice (a retain of the buffer); bind it once in loops.
package struct NDEFRecord: Hashable, Sendable {
    /// The TNF field (NDEF 1.0 §3.2.6), raw values 0–7 as on the wire.
    package enum TypeNameFormat: UInt8, Hashable, Sendable, CaseIterable {
        /// No type, no ID, no payload.
        case empty = 0
        /// NFC Forum well-known type (RTD), `urn:nfc:wkt:` omitted.
        case wellKnown = 1
        /// RFC 2046 media type.
        case media = 2
        /// RFC 3986 absolute URI in the type field.
        case absoluteURI = 3
        /// NFC Forum external type, `urn:nfc:ext:` omitted.
        case external = 4
        /// Unknown payload type; no type field.
        case unknown = 5
        /// Continuation chunk; only on the wire, never on a whole record.
        case unchanged = 6
        /// Reserved; rejected (strict) or read as unknown (lenient).
        case reserved = 7
    }

    package private(set) var tnf: TypeNameFormat
    /// The bytes holding type, ID and payload: for a decoded record the decoded buffer itself, for a record built
    /// in code one array. One reference for the three fields keeps copies cheap (one retain, not three).
    let storage: ArraySlice<UInt8>
    let typeRange: Range<Int>
    let idRange: Range<Int>
    let payloadRange: Range<Int>
    /// Offset of the payload's first byte in the outermost decoded message (0 for records built in code); typed
    /// decoders add it to their error offsets.
    let payloadOffset: Int

    /// The TYPE field (`U`, `text/plain`, `example.com:t`, …); empty for TNF 0, 5.
    package var type: ArraySlice<UInt8> { storage[typeRange] }
    /// The ID field; empty when the record has none.
    package var id: ArraySlice<UInt8> { storage[idRange] }
    /// The payload (chunks reassembled).
    package var payload: ArraySlice<UInt8> { storage[payloadRange] }

    /// The byte counts of type, ID and payload, without making slices (encoders measuring a message).
    package var fieldCounts: (type: Int, id: Int, payload: Int) {
        (typeRange.count, idRange.count, payloadRange.count)
    }

    /// The type byte of a well-known record with a one-byte type (`U`, `T`); nil for any other record. One read, no
    /// slice (decoders dispatching on the common well-known types).
    package var wellKnownTypeByte: UInt8? {
        guard tnf == .wellKnown, typeRange.count == 1 else { return nil }
        return storage[typeRange.lowerBound]
    }

    /// Builds a record, checking the TNF rules: `empty` has no type, ID or payload; well-known, media, absolute URI
    /// and external need a type; unknown has none; `unchanged` and `reserved` cannot form a whole record. Type and ID
    /// are at most 255 bytes, the payload at most 2^32−1.
    package init(
        tnf: TypeNameFormat, type: some Collection<UInt8> = [], id: some Collection<UInt8> = [],
        payload: some Collection<UInt8> = []
    ) throws(NDEFError) {
        let t = type.count
        let i = id.count
        let p = payload.count
        guard t <= 255 else { throw NDEFError(.typeTooLong, at: 0) }
        guard i <= 255 else { throw NDEFError(.idTooLong, at: 0) }
        guard UInt64(p) <= UInt64(UInt32.max) else { throw NDEFError(.payloadTooLong, at: 0) }
        switch tnf {
        case .empty:
            guard t == 0, i == 0, p == 0 else { throw NDEFError(.nonEmptyEmptyRecord, at: 0) }
        case .wellKnown, .media, .absoluteURI, .external:
            guard t > 0 else { throw NDEFError(.missingType, at: 0) }
        case .unknown:
            guard t == 0 else { throw NDEFError(.unexpectedType, at: 0) }
        case .unchanged:
            throw NDEFError(.unchangedOutsideChunk, at: 0)
        case .reserved:
            throw NDEFError(.reservedTNF, at: 0)
        }
        self.init(unchecked: tnf, type: type, id: id, payload: payload)
    }

    /// A record whose fields the caller has already checked (typed-record encoders): the three fields are copied
    /// into one array.
    init(
        unchecked tnf: TypeNameFormat, type: some Collection<UInt8>, id: some Collection<UInt8>,
        payload: some Collection<UInt8>, payloadOffset: Int = 0
    ) {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(type.count + id.count + payload.count)
        bytes.append(contentsOf: type)
        bytes.append(contentsOf: id)
        bytes.append(contentsOf: payload)
        let t = type.count
        let i = id.count
        self.init(
            tnf: tnf, storage: bytes[...], typeRange: 0..<t, idRange: t..<t + i, payloadRange: t + i..<bytes.count,
            payloadOffset: payloadOffset)
    }

    /// A record over ranges of `storage` (the decoder: no copies).
    init(
        tnf: TypeNameFormat, storage: ArraySlice<UInt8>, typeRange: Range<Int>, idRange: Range<Int>,
        payloadRange: Range<Int>, payloadOffset: Int
    ) {
        self.tnf = tnf
        self.storage = storage
        self.typeRange = typeRange
        self.idRange = idRange
        self.payloadRange = payloadRange
        self.payloadOffset = payloadOffset
    }

    /// The empty record (TNF 0), which alone makes the empty NDEF message `D0 00 00`.
    package static let empty = NDEFRecord(
        tnf: .empty, storage: [], typeRange: 0..<0, idRange: 0..<0, payloadRange: 0..<0, payloadOffset: 0)

    /// A copy with another ID (checked: at most 255 bytes).
    package func withID(_ id: some Collection<UInt8>) throws(NDEFError) -> NDEFRecord {
        guard id.count <= 255 else { throw NDEFError(.idTooLong, at: 0) }
        guard tnf != .empty || id.isEmpty else { throw NDEFError(.nonEmptyEmptyRecord, at: 0) }
        return NDEFRecord(unchecked: tnf, type: type, id: id, payload: payload, payloadOffset: payloadOffset)
    }

    /// True when the record has this TNF and its type equals `type` byte for byte (well-known types are
    /// case-sensitive, NFC Forum RTD 1.0 §2.1).
    package func isType(_ tnf: TypeNameFormat, _ type: some Collection<UInt8>) -> Bool {
        self.tnf == tnf && self.type.elementsEqual(type)
    }

    /// True for a well-known record of the given type name (`"T"`, `"U"`, `"Sp"`, …).
    package func isWellKnown(_ name: StaticString) -> Bool {
        guard tnf == .wellKnown, typeRange.count == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { storage[typeRange].elementsEqual($0) }
    }

    package static func == (a: NDEFRecord, b: NDEFRecord) -> Bool {
        a.tnf == b.tnf && a.type == b.type && a.id == b.id && a.payload == b.payload
    }

    package func hash(into h: inout Hasher) {
        h.combine(tnf)
        h.combine(type)
        h.combine(id)
        h.combine(payload)
    }
}
