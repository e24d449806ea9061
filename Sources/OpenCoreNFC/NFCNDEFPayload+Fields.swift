import Foundation
import OpenNFCNDEF

/// The fields of an ``NFCNDEFPayload`` once one has been set, or when it was made from fields (its public
/// initializers, NSSecureCoding): the TNF, type, ID and payload as `Data`. While `isSet` is false the codec record
/// the payload was made from is its fields, and the `Data` values here are empty (no allocation): each read of a
/// field of such a payload makes its `Data` from the record (docs/PERFORMANCE.md).
struct PayloadFields: Sendable {
    var format: NFCTypeNameFormat
    var type: Data
    var identifier: Data
    var payload: Data
    /// True once the four fields above are the payload (made from fields, or a field set).
    var isSet: Bool

    init(format: NFCTypeNameFormat, type: Data, identifier: Data, payload: Data) {
        self.format = format
        self.type = type
        self.identifier = identifier
        self.payload = payload
        self.isSet = true
    }

    /// The fields of a payload that is its origin's record.
    init(origin record: NDEFRecord) {
        self.format = NFCTypeNameFormat(rawValue: record.tnf.rawValue) ?? .unknown
        self.type = Data()
        self.identifier = Data()
        self.payload = Data()
        self.isSet = false
    }

    /// Makes the fields `Data` from `origin` if they are still that record: a field is about to change.
    mutating func detach(from record: NDEFRecord) {
        guard !isSet else { return }
        type = Data(record.type)
        identifier = Data(record.id)
        payload = Data(record.payload)
        isSet = true
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
