internal import Foundation
internal import OpenNFCSystem

/// An `NFCISO15693Tag`: an NFC Forum Type 5 tag delivered to a session (ISO/IEC 15693-3; docs/PARITY.md).
final class ISO15693TagObject: TagObject, NFCISO15693Tag, @unchecked Sendable {
    override var type: __NFCTagType { .iso15693 }
    /// The UID MSB first (`E0 …`), as Core NFC reports it.
    var identifier: Data { Data(delivered.identifier) }
    var icManufacturerCode: Int { delivered.identifier.count == 8 ? Int(delivered.identifier[1]) : 0 }
    var icSerialNumber: Data { Data(delivered.identifier.dropFirst(2)) }
}
