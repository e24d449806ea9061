public import Foundation
import OpenNFCNDEF

/// An NDEF message (Apple's Core NFC documentation; docs/PARITY.md §6.1), over the `OpenNFCNDEF` codec.
///
/// Decisions where Apple documents nothing (docs/DIFFERENCES.md lists them):
/// - ``init(data:)`` decodes strictly: NDEF structure (MB/ME, TNF rules, chunking, no trailing bytes), the RTD rules
///   of every record type the codec knows (Text, URI, Smart Poster, MIME syntax, external type syntax, Handover,
///   Bluetooth/Wi-Fi carriers, Signature, Device Information), the 128 KiB limit and a nesting depth of 16.
/// - ``length`` is the encoded size with each payload's chunk size; a message without records has length 3, the
///   empty NDEF message `D0 00 00`, which is what writing it stores.
open class NFCNDEFMessage: NSObject, NSSecureCoding {
    /// The records, in order.
    open var records: [NFCNDEFPayload] {
        get { storedRecords }
        set { storedRecords = newValue }
    }
    /// The records' storage: private, so that the optimiser can drop the run-time exclusivity checks of an `open`
    /// stored property (docs/PERFORMANCE.md).
    private var storedRecords: [NFCNDEFPayload]

    /// A message of `records`; `[]` gives an empty message.
    public init(records: [NFCNDEFPayload]) {
        self.storedRecords = records
        super.init()
    }

    /// Decodes `data`, which must hold exactly one valid NDEF message; nil otherwise.
    public convenience init?(data: Data) {
        guard let records = NFCNDEFMessage.decodePayloads(byteArray(data)) else { return nil }
        self.init(records: records)
    }

    /// Size in bytes of the message as stored on a tag.
    open var length: Int {
        records.isEmpty ? 3 : records.reduce(0) { $0 + $1.encodedLength }
    }

    // MARK: NSSecureCoding

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        coder.encode(records as NSArray, forKey: "records")
    }

    public required init?(coder: NSCoder) {
        guard let array = coder.decodeObject(of: [NSArray.self, NFCNDEFPayload.self], forKey: "records") as? NSArray
        else { return nil }
        var records: [NFCNDEFPayload] = []
        for element in array {
            guard let p = element as? NFCNDEFPayload else { return nil }
            records.append(p)
        }
        self.storedRecords = records
        super.init()
    }

    open override var description: String {
        "NFCNDEFMessage(\(records.count) record\(records.count == 1 ? "" : "s"), length \(length))"
    }

    // MARK: Codec bridge

    /// Strict decoding as ``init(data:)`` applies it: the message's structure, then every record the codec knows
    /// by its RTD; the payloads keep each record and its decoding (the accessors read them, not the `Data`). Nil
    /// when any check fails.
    static func decodePayloads(_ bytes: [UInt8]) -> [NFCNDEFPayload]? {
        guard let message = try? NDEFMessage(decoding: bytes) else { return nil }
        var payloads: [NFCNDEFPayload] = []
        payloads.reserveCapacity(message.records.count)
        var repairs: [NDEFRepair] = []  // strict mode repairs nothing
        for record in message.records {
            // The checks of NDEFDecodedRecord(decoding:options:) in strict mode, keeping a URI or Text record. Each
            // type's own initializer: the protocol's convenience one is a `package` generic, which this module
            // calls unspecialised (docs/PERFORMANCE.md).
            let decoded: StrictDecoding?
            // A one-byte well-known type read once (not a `isWellKnown` comparison per type).
            let type = record.wellKnownTypeByte
            do {
                if type == UInt8(ascii: "U") {
                    decoded = .uri(try NDEFURIRecord(decoding: record, options: .strict, repairs: &repairs))
                } else if type == UInt8(ascii: "T") {
                    decoded = .text(try NDEFTextRecord(decoding: record, options: .strict, repairs: &repairs))
                } else {
                    _ = try NDEFDecodedRecord(decoding: record, options: .strict)
                    decoded = nil
                }
            } catch {
                return nil
            }
            payloads.append(NFCNDEFPayload(record: record, decoded: decoded))
        }
        return payloads
    }

    /// A message holding codec records.
    convenience init(message: NDEFMessage) {
        self.init(records: message.records.map { NFCNDEFPayload(record: $0) })
    }

    /// The bytes of the message with every record unchunked (NDEF 1.0 §3), as the testing product's virtual tags
    /// store it; throws when a payload cannot form a record.
    package func unchunkedBytes() throws -> [UInt8] {
        try encoded(chunkSizes: false)
    }

    /// The bytes to store on a tag: each record with its own chunk size; throws when a payload cannot form a record.
    func encoded() throws(NDEFError) -> [UInt8] {
        try encoded(chunkSizes: true)
    }

    /// The bytes of the message, each record chunked at its payload's chunk size (`chunkSizes`) or unchunked: one
    /// array of the exact size, each record written straight from its payload (no array of records in between).
    private func encoded(chunkSizes: Bool) throws(NDEFError) -> [UInt8] {
        let payloads = records
        if payloads.isEmpty { return [0xD0, 0x00, 0x00] }
        var length = 0
        for p in payloads { length += p.encodedLength(chunkSize: chunkSizes ? p.chunkSize : 0) }
        var out: [UInt8] = []
        out.reserveCapacity(length)
        let last = payloads.count - 1
        for n in payloads.indices {
            let p = payloads[n]
            try p.ndefRecord().encode(
                into: &out, begin: n == 0, end: n == last, chunkSize: chunkSizes ? p.chunkSize : 0)
        }
        return out
    }
}
