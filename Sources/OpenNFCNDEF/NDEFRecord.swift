/// One NDEF record (NFC Forum NDEF 1.0 §3.2): a type name format, a type, an optional ID and a payload.
///
/// A record is always a whole record: the decoder reassembles chunked records (§2.3.3) and the encoder chunks them
/// again on request, so `unchanged` (6) never appears here. Every record that exists satisfies the TNF rules of
/// §3.2.6: the throwing initializer checks them, the decoder only produces valid records.
///
/// `type`, `id` and `payload` are slices. A decoded record's slices share the decoded buffer (no copies), so their
/// indices are those of that buffer: use `first`, `dropFirst`, `startIndex`-relative indexing or `Array(_:)`, never
/// `payload[0]`.
public struct NDEFRecord: Hashable, Sendable {
    /// The TNF field (NDEF 1.0 §3.2.6), raw values 0–7 as on the wire.
    public enum TypeNameFormat: UInt8, Hashable, Sendable, CaseIterable {
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

    public private(set) var tnf: TypeNameFormat
    public private(set) var type: ArraySlice<UInt8>
    public private(set) var id: ArraySlice<UInt8>
    public private(set) var payload: ArraySlice<UInt8>
    /// Offset of the payload's first byte in the outermost decoded message (0 for records built in code); typed
    /// decoders add it to their error offsets.
    let payloadOffset: Int

    /// Builds a record, checking the TNF rules: `empty` has no type, ID or payload; well-known, media, absolute URI
    /// and external need a type; unknown has none; `unchanged` and `reserved` cannot form a whole record. Type and ID
    /// are at most 255 bytes, the payload at most 2^32−1.
    public init(
        tnf: TypeNameFormat, type: some Collection<UInt8> = [], id: some Collection<UInt8> = [],
        payload: some Collection<UInt8> = []
    ) throws(NDEFError) {
        let t = ArraySlice(type)
        let i = ArraySlice(id)
        let p = ArraySlice(payload)
        guard t.count <= 255 else { throw NDEFError(.typeTooLong, at: 0) }
        guard i.count <= 255 else { throw NDEFError(.idTooLong, at: 0) }
        guard UInt64(p.count) <= UInt64(UInt32.max) else { throw NDEFError(.payloadTooLong, at: 0) }
        switch tnf {
        case .empty:
            guard t.isEmpty, i.isEmpty, p.isEmpty else { throw NDEFError(.nonEmptyEmptyRecord, at: 0) }
        case .wellKnown, .media, .absoluteURI, .external:
            guard !t.isEmpty else { throw NDEFError(.missingType, at: 0) }
        case .unknown:
            guard t.isEmpty else { throw NDEFError(.unexpectedType, at: 0) }
        case .unchanged:
            throw NDEFError(.unchangedOutsideChunk, at: 0)
        case .reserved:
            throw NDEFError(.reservedTNF, at: 0)
        }
        self.init(unchecked: tnf, type: t, id: i, payload: p, payloadOffset: 0)
    }

    /// A record whose fields the caller has already checked (the decoder, typed-record encoders).
    init(
        unchecked tnf: TypeNameFormat, type: ArraySlice<UInt8>, id: ArraySlice<UInt8>, payload: ArraySlice<UInt8>,
        payloadOffset: Int = 0
    ) {
        self.tnf = tnf
        self.type = type
        self.id = id
        self.payload = payload
        self.payloadOffset = payloadOffset
    }

    /// The empty record (TNF 0), which alone makes the empty NDEF message `D0 00 00`.
    public static let empty = NDEFRecord(unchecked: .empty, type: [], id: [], payload: [])

    /// A copy with another ID (checked: at most 255 bytes).
    public func withID(_ id: some Collection<UInt8>) throws(NDEFError) -> NDEFRecord {
        let i = ArraySlice(id)
        guard i.count <= 255 else { throw NDEFError(.idTooLong, at: 0) }
        guard tnf != .empty || i.isEmpty else { throw NDEFError(.nonEmptyEmptyRecord, at: 0) }
        var r = self
        r.id = i
        return r
    }

    /// True when the record has this TNF and its type equals `type` byte for byte (well-known types are
    /// case-sensitive, NFC Forum RTD 1.0 §2.1).
    public func isType(_ tnf: TypeNameFormat, _ type: some Collection<UInt8>) -> Bool {
        self.tnf == tnf && self.type.elementsEqual(type)
    }

    /// True for a well-known record of the given type name (`"T"`, `"U"`, `"Sp"`, …).
    public func isWellKnown(_ name: StaticString) -> Bool {
        guard tnf == .wellKnown, type.count == name.utf8CodeUnitCount else { return false }
        return name.withUTF8Buffer { type.elementsEqual($0) }
    }

    public static func == (a: NDEFRecord, b: NDEFRecord) -> Bool {
        a.tnf == b.tnf && a.type == b.type && a.id == b.id && a.payload == b.payload
    }

    public func hash(into h: inout Hasher) {
        h.combine(tnf)
        h.combine(type)
        h.combine(id)
        h.combine(payload)
    }
}
