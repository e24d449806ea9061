public import Foundation
import OpenNFCNDEF
import Synchronization

/// One NDEF record (Apple's Core NFC documentation; docs/PARITY.md §6.2), over the `OpenNFCNDEF` codec.
///
/// Decisions where Apple documents nothing (docs/DIFFERENCES.md lists them):
/// - `chunkSize` is kept with the payload and used whenever the payload is encoded (so it changes
///   ``NFCNDEFMessage/length``); 0 and the four-argument initializer mean one record without chunks. Payloads read
///   with ``NFCNDEFMessage/init(data:)`` have chunk size 0 (chunked input is reassembled).
/// - The initializers accept any field values, as Apple's do; an impossible record (type or ID over 255 bytes, TNF
///   `unchanged`) can exist and fails only when written.
/// - `wellKnownTypeTextPayload(string:locale:)` stores the locale identifier in BCP 47 form (`en_US` → `en-US`) and
///   returns nil when that is empty or longer than 63 characters; text is UTF-8.
/// - `wellKnownTypeURIPayload(url:)` uses `url.absoluteString`; both URI builders pick the longest prefix code.
/// - `wellKnownTypeURIPayload()` percent-encodes non-ASCII characters when `URL(string:)` rejects the raw text.
/// - Factory methods return `Self`; for a subclass they build it through `init?(coder:)`, the one initializer every
///   subclass has (see `make(_:)`).
/// - Equality is identity (NSObject's), as in Core NFC.
open class NFCNDEFPayload: NSObject, NSSecureCoding {
    /// The TNF of the record.
    open var typeNameFormat: NFCTypeNameFormat {
        get { fields.withLock { $0.format } }
        set {
            fields.withLock {
                $0.detach(from: origin)
                $0.format = newValue
            }
        }
    }
    /// The type field; empty means none.
    open var type: Data {
        get { field(\.type, else: \.type) }
        set { change(\.type, to: newValue) }
    }
    /// The ID field; empty means none.
    open var identifier: Data {
        get { field(\.identifier, else: \.id) }
        set { change(\.identifier, to: newValue) }
    }
    /// The payload.
    open var payload: Data {
        get { field(\.payload, else: \.payload) }
        set { change(\.payload, to: newValue) }
    }
    /// A field: the one set (or made from fields), else made from the origin record's bytes at each read.
    private func field(_ set: KeyPath<PayloadFields, Data>, else bytes: KeyPath<NDEFRecord, ArraySlice<UInt8>>) -> Data
    {
        let value: Data? = fields.withLock { $0.isSet ? $0[keyPath: set] : nil }
        return value ?? Data(origin[keyPath: bytes])
    }

    /// Sets a field: the fields are made from the origin record first if they are still that record.
    private func change(_ field: WritableKeyPath<PayloadFields, Data>, to value: Data) {
        fields.withLock {
            $0.detach(from: origin)
            $0[keyPath: field] = value
        }
    }

    /// Payload bytes per chunk when encoded; 0 means no chunking.
    let chunkSize: Int
    /// The codec record this payload was made from. With the three below, immutable (read without the lock); the
    /// decodings are plain optionals, whose destruction is inline code (an optional struct of them costs a generic
    /// outlined destroy, about 200 instructions a payload: docs/PERFORMANCE.md).
    private let origin: NDEFRecord
    /// False when made from fields (`origin` is then `NDEFRecord.empty`): not an optional, whose every read through
    /// the class copies it with outlined code (docs/PERFORMANCE.md).
    private let hasOrigin: Bool
    /// What strict decoding made of `origin` when it is a URI record that ``NFCNDEFMessage/init(data:)`` decoded.
    private let decodedURI: NDEFURIRecord?
    /// The same for a Text record.
    private let decodedText: NDEFTextRecord?
    /// The fields; while none has been set on a payload with an origin, its record is the fields (see
    /// ``PayloadFields``).
    private let fields: Mutex<PayloadFields>

    /// A record without chunking (the NDEF maximum chunk size, 2^32−1).
    ///
    /// A designated initializer, as Apple's: a subclass's own initializer may call
    /// `super.init(format:type:identifier:payload:)`.
    public init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data) {
        self.fields = Mutex(PayloadFields(format: format, type: type, identifier: identifier, payload: payload))
        self.origin = .empty
        self.hasOrigin = false
        self.decodedURI = nil
        self.decodedText = nil
        self.chunkSize = 0
        super.init()
    }

    /// A record whose payload is split into chunks of `chunkSize` bytes when encoded; 0 means no chunking.
    ///
    /// Designated and not `required`, as Apple's: a subclass with its own initializers implements only
    /// `required init?(coder:)` (NSSecureCoding's).
    public init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data, chunkSize: Int) {
        self.fields = Mutex(PayloadFields(format: format, type: type, identifier: identifier, payload: payload))
        self.origin = .empty
        self.hasOrigin = false
        self.decodedURI = nil
        self.decodedText = nil
        self.chunkSize = max(0, chunkSize)
        super.init()
    }

    /// A payload holding a codec record (chunk size 0), with what strict decoding made of it when that was done
    /// (`decoded`); the `Data` fields are made from the record when read.
    init(record: NDEFRecord, decoded: StrictDecoding? = nil) {
        self.fields = Mutex(PayloadFields(origin: record))
        self.origin = record
        self.hasOrigin = true
        switch decoded {
        case .uri(let uri)?:
            self.decodedURI = uri
            self.decodedText = nil
        case .text(let text)?:
            self.decodedURI = nil
            self.decodedText = text
        case nil:
            self.decodedURI = nil
            self.decodedText = nil
        }
        self.chunkSize = 0
        super.init()
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(Int(typeNameFormat.rawValue), forKey: "typeNameFormat")
        coder.encode(type as NSData, forKey: "type")
        coder.encode(identifier as NSData, forKey: "identifier")
        coder.encode(payload as NSData, forKey: "payload")
        coder.encode(chunkSize, forKey: "chunkSize")
    }

    public required init?(coder: NSCoder) {
        let raw = coder.decodeInteger(forKey: "typeNameFormat")
        guard let format = UInt8(exactly: raw).flatMap(NFCTypeNameFormat.init(rawValue:)),
            let type = coder.decodeObject(of: NSData.self, forKey: "type"),
            let identifier = coder.decodeObject(of: NSData.self, forKey: "identifier"),
            let payload = coder.decodeObject(of: NSData.self, forKey: "payload")
        else { return nil }
        self.fields = Mutex(
            PayloadFields(
                format: format, type: Data(referencing: type), identifier: Data(referencing: identifier),
                payload: Data(referencing: payload)))
        self.origin = .empty
        self.hasOrigin = false
        self.decodedURI = nil
        self.decodedText = nil
        self.chunkSize = max(0, coder.decodeInteger(forKey: "chunkSize"))
        super.init()
    }

    // MARK: Well-known type builders

    /// A Well Known "U" record for `uri` in UTF-8, for URIs a `URL` cannot hold (e.g. non-ASCII characters).
    open class func wellKnownTypeURIPayload(string uri: String) -> Self? {
        guard let record = try? NDEFURIRecord(uri: uri).record() else { return nil }
        return make(record)
    }

    /// A Well Known "U" record for `url` (its `absoluteString`).
    open class func wellKnownTypeURIPayload(url: URL) -> Self? {
        wellKnownTypeURIPayload(string: url.absoluteString)
    }

    /// A Well Known "T" record: `text` in UTF-8 with the locale's language code.
    open class func wellKnownTypeTextPayload(string text: String, locale: Locale) -> Self? {
        let language = bcp47(locale.identifier)
        guard let record = try? NDEFTextRecord(text: text, language: language).record() else { return nil }
        return make(record)
    }

    /// The misspelled original of ``wellKnownTypeTextPayload(string:locale:)``.
    @available(*, deprecated, renamed: "wellKnownTypeTextPayload(string:locale:)")
    open class func wellKnowTypeTextPayload(string text: String, locale: Locale) -> Self? {
        wellKnownTypeTextPayload(string: text, locale: locale)
    }

    /// The URI of a valid Well Known "U" record; nil for any other record.
    open func wellKnownTypeURIPayload() -> URL? {
        let uri: NDEFURIRecord
        var ignored: [NDEFRepair] = []  // strict mode repairs nothing
        if let decoded = decodedURI, !fields.withLock({ $0.isSet }) {
            uri = decoded  // NFCNDEFMessage(data:) decoded it strictly, as below
        } else if let record = try? ndefRecord(),
            let decoded = try? NDEFURIRecord(decoding: record, options: .strict, repairs: &ignored)
        {
            uri = decoded
        } else {
            return nil
        }
        if let url = URL(string: uri.uri) { return url }
        var allowed = CharacterSet(charactersIn: Unicode.Scalar(0x21)...Unicode.Scalar(0x7E))
        allowed.remove("%")
        return uri.uri.addingPercentEncoding(withAllowedCharacters: allowed).flatMap(URL.init(string:))
    }

    /// The text and locale of a valid Well Known "T" record; (nil, nil) for any other record.
    public func wellKnownTypeTextPayload() -> (String?, Locale?) {
        let text: NDEFTextRecord
        var ignored: [NDEFRepair] = []  // strict mode repairs nothing
        if let decoded = decodedText, !fields.withLock({ $0.isSet }) {
            text = decoded  // NFCNDEFMessage(data:) decoded it strictly, as below
        } else if let record = try? ndefRecord(),
            let decoded = try? NDEFTextRecord(decoding: record, options: .strict, repairs: &ignored)
        {
            text = decoded
        } else {
            return (nil, nil)
        }
        return (text.text, text.language.isEmpty ? nil : Locale(identifier: text.language))
    }

    // MARK: Codec bridge

    /// An instance of the receiving class holding `record`, or nil when a subclass cannot be built.
    ///
    /// The one initializer every subclass has is NSSecureCoding's `required init?(coder:)`, so a subclass instance
    /// is made by encoding the fields with a keyed archiver and calling `init?(coder:)` on the receiving class (a
    /// subclass that adds stored properties sets them there, as it does when unarchived). On iOS the Objective-C
    /// factory runs `initWithFormat:…` on the subclass instead, which traps in a Swift subclass that did not inherit
    /// that initializer; here such a subclass gets its `init?(coder:)` (docs/DIFFERENCES.md).
    private class func make(_ record: NDEFRecord) -> Self? {
        let base = NFCNDEFPayload(record: record)
        if self == NFCNDEFPayload.self { return base as? Self }
        let archiver = NSKeyedArchiver(requiringSecureCoding: true)
        base.encode(with: archiver)
        archiver.finishEncoding()
        guard let unarchiver = try? NSKeyedUnarchiver(forReadingFrom: archiver.encodedData) else { return nil }
        unarchiver.requiresSecureCoding = true
        defer { unarchiver.finishDecoding() }
        return self.init(coder: unarchiver)
    }

    /// The codec record; throws when the fields cannot form a record (TNF rules, type/ID over 255 bytes). The
    /// record this payload was read from or built as while no field has been set; else one built from the fields.
    func ndefRecord() throws(NDEFError) -> NDEFRecord {
        if let record = originRecord { return record }
        let tnf = NDEFRecord.TypeNameFormat(rawValue: typeNameFormat.rawValue)!
        return try NDEFRecord(tnf: tnf, type: byteArray(type), id: byteArray(identifier), payload: byteArray(payload))
    }

    /// Bytes of this record on the wire with its chunk size.
    var encodedLength: Int { encodedLength(chunkSize: chunkSize) }

    /// Bytes of this record on the wire with `chunkSize` (0: unchunked).
    func encodedLength(chunkSize: Int) -> Int {
        guard hasOrigin, !fields.withLock({ $0.isSet }) else {
            return NDEFRecord.encodedLength(
                typeCount: type.count, idCount: identifier.count, payloadCount: payload.count, chunkSize: chunkSize)
        }
        let counts = origin.fieldCounts
        return NDEFRecord.encodedLength(
            typeCount: counts.type, idCount: counts.id, payloadCount: counts.payload, chunkSize: chunkSize)
    }

    /// The origin's record while no field has been set: then it is this payload's record.
    var originRecord: NDEFRecord? {
        guard hasOrigin, !fields.withLock({ $0.isSet }) else { return nil }
        return origin
    }

    open override var description: String {
        "NFCNDEFPayload(typeNameFormat: \(typeNameFormat.rawValue), type: \([UInt8](type).hexString), identifier: "
            + "\([UInt8](identifier).hexString), payload: \([UInt8](payload).hexString))"
    }
}
