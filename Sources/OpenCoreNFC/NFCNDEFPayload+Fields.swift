import Foundation
import OpenNFCNDEF

/// The fields of an ``NFCNDEFPayload``: the TNF, and type, ID and payload as `Data`, each made from the codec record
/// the payload was read from (or built as) when first read, so that a payload whose fields are never asked for
/// costs no `Data` at all (docs/PERFORMANCE.md). Setting any field makes the other two `Data` from the record and
/// drops it: from then on the fields alone are the record, as for a payload made from `Data`.
///
/// Invariant: `record` is set, or `type`, `identifier` and `payload` all are.
struct PayloadFields: Sendable {
    private(set) var format: NFCTypeNameFormat
    private var typeData: Data?
    private var identifierData: Data?
    private var payloadData: Data?
    /// The codec record the fields are, while none has been set.
    private(set) var record: NDEFRecord?
    /// What strict decoding made of `record` when it is a URI or Text record and was decoded
    /// (``NFCNDEFMessage/init(data:)`` decodes every record strictly before it accepts a message): the two
    /// accessors read it instead of decoding again.
    private(set) var decoded: StrictDecoding?

    init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data) {
        self.format = format
        self.typeData = type
        self.identifierData = identifier
        self.payloadData = payload
    }

    init(record: NDEFRecord, decoded: StrictDecoding?) {
        self.format = NFCTypeNameFormat(rawValue: record.tnf.rawValue) ?? .unknown
        self.record = record
        self.decoded = decoded
    }

    mutating func type() -> Data {
        if let typeData { return typeData }
        let made = Data(record!.type)
        typeData = made
        return made
    }

    mutating func identifier() -> Data {
        if let identifierData { return identifierData }
        let made = Data(record!.id)
        identifierData = made
        return made
    }

    mutating func payload() -> Data {
        if let payloadData { return payloadData }
        let made = Data(record!.payload)
        payloadData = made
        return made
    }

    /// Byte counts of type, ID and payload while the fields are the record, without making `Data`; nil once a
    /// field has been set (the fields' getters then give them, as a subclass may override them).
    var recordCounts: (type: Int, identifier: Int, payload: Int)? {
        guard let record else { return nil }
        return (record.type.count, record.id.count, record.payload.count)
    }

    mutating func set(format: NFCTypeNameFormat) {
        detach()
        self.format = format
    }

    mutating func set(type: Data) {
        detach()
        typeData = type
    }

    mutating func set(identifier: Data) {
        detach()
        identifierData = identifier
    }

    mutating func set(payload: Data) {
        detach()
        payloadData = payload
    }

    /// Makes every field `Data` and drops the record and its decoding: a field is about to change.
    private mutating func detach() {
        guard record != nil else { return }
        _ = type()
        _ = identifier()
        _ = payload()
        record = nil
        decoded = nil
    }
}

/// A URI or Text record as strict decoding read it (the two records whose accessors return decoded values).
enum StrictDecoding: Sendable {
    case uri(NDEFURIRecord)
    case text(NDEFTextRecord)
}

/// `identifier` in BCP 47 form: every `_` (Foundation's locale identifiers, `en_US`) replaced by `-` (`en-US`); the
/// string itself when it has none.
func bcp47(_ identifier: String) -> String {
    guard identifier.utf8.contains(UInt8(ascii: "_")) else { return identifier }
    return String(decoding: identifier.utf8.map { $0 == UInt8(ascii: "_") ? UInt8(ascii: "-") : $0 }, as: UTF8.self)
}

/// The bytes of `data` as an array, copied in one piece.
func byteArray(_ data: Data) -> [UInt8] {
    data.withUnsafeBytes { [UInt8]($0) }
}
