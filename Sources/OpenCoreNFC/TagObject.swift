internal import Foundation
internal import OpenNFCSystem

/// The tag objects sessions hand out: one class per Core NFC tag kind, over a ``TagReference`` into the system.
/// Operations hop to the system's work queue and complete on the session's queue.
class TagObject: NSObject, __NFCTag, NFCNDEFTag, @unchecked Sendable {
    let reference: TagReference
    let delivered: DeliveredTag
    let system: NFCSystem
    private weak var owner: NFCReaderSession?

    init(_ delivered: DeliveredTag, session: NFCReaderSession) {
        self.reference = delivered.reference
        self.delivered = delivered
        self.system = session.system
        self.owner = session
        super.init()
    }

    static func make(_ delivered: DeliveredTag, session: NFCReaderSession) -> TagObject {
        switch delivered.kind {
        case .iso7816: return ISO7816TagObject(delivered, session: session)
        case .miFare: return MiFareTagObject(delivered, session: session)
        case .iso15693: return ISO15693TagObject(delivered, session: session)
        case .ndefOnly: return TagObject(delivered, session: session)
        case .feliCa: return FeliCaTagObject(delivered, session: session)
        }
    }

    // MARK: NSSecureCoding, NSCopying

    class var supportsSecureCoding: Bool { true }
    /// Tag objects are bound to a live session: encoding writes nothing and decoding yields nil.
    func encode(with coder: NSCoder) {}
    required init?(coder: NSCoder) { return nil }
    /// Tag objects are immutable handles: a copy is the same object.
    func copy(with zone: NSZone? = nil) -> Any { self }

    // MARK: __NFCTag

    /// The kind of an object with no tag protocol (an NDEF session's Type 1 and Type 3 tags): the technology it
    /// answered on, as `NFCTagType` names them — FeliCa for Type 3 (NFC-F), ISO 15693 for NFC-V, and MIFARE for an
    /// NFC-A Type 1 tag, the MIFARE-compatible Type A kind (docs/DIFFERENCES.md "Tag objects of NDEF sessions").
    /// The `as…Tag()` casts still give nil: no tag protocol's commands reach such a tag.
    var type: __NFCTagType {
        switch delivered.technology {
        case .nfcF: return .feliCa
        case .nfcV: return .iso15693
        case .nfcA, .nfcB: return .miFare
        }
    }
    var session: (any NFCReaderSessionProtocol)? { owner }
    var isAvailable: Bool { system.isAvailable(reference) }
    func asNFCISO15693Tag() -> (any NFCISO15693Tag)? { self as? ISO15693TagObject }
    func asNFCISO7816Tag() -> (any NFCISO7816Tag)? { self as? ISO7816TagObject }
    func asNFCFeliCaTag() -> (any NFCFeliCaTag)? { self as? FeliCaTagObject }
    func asNFCMiFareTag() -> (any NFCMiFareTag)? { self as? MiFareTagObject }

    // MARK: NFCNDEFTag

    func perform<T>(
        _ work: @escaping @Sendable () throws(SystemError) -> T, then done: @escaping (Result<T, any Error>) -> Void
    ) {
        guard let owner else {
            done(.failure(NFCReaderError(.readerTransceiveErrorSessionInvalidated)))
            return
        }
        owner.run(work, then: done)
    }

    func queryNDEFStatus(completionHandler: @escaping @Sendable (NFCNDEFStatus, Int, (any Error)?) -> Void) {
        let (system, ref) = (self.system, reference)
        perform({ () throws(SystemError) in try system.queryNDEFStatus(ref) }) { result in
            switch result {
            case .success(let state):
                let status: NFCNDEFStatus
                switch state.status {
                case .notSupported: status = .notSupported
                case .readWrite: status = .readWrite
                case .readOnly: status = .readOnly
                }
                completionHandler(status, state.capacity, nil)
            case .failure(let e): completionHandler(.notSupported, 0, e)
            }
        }
    }

    func readNDEF(completionHandler: @escaping @Sendable (NFCNDEFMessage?, (any Error)?) -> Void) {
        let (system, ref) = (self.system, reference)
        perform({ () throws(SystemError) in try system.readNDEF(ref) }) { result in
            switch result {
            case .success(let bytes):
                if let m = NFCNDEFMessage(sessionBytes: bytes) {
                    completionHandler(m, nil)
                } else {
                    completionHandler(nil, NFCReaderError(.readerTransceiveErrorTagResponseError))
                }
            case .failure(let e): completionHandler(nil, e)
            }
        }
    }

    func writeNDEF(_ ndefMessage: NFCNDEFMessage, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        let (system, ref, bytes) = (self.system, reference, ndefMessage.sessionBytes)
        perform({ () throws(SystemError) in
            guard let bytes else { throw SystemError(.invalidParameter, "the message cannot be encoded as NDEF") }
            try system.writeNDEF(ref, bytes)
        }) { completionHandler($0.failure) }
    }

    func writeLock(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        let (system, ref) = (self.system, reference)
        perform({ () throws(SystemError) in try system.writeLock(ref) }) { completionHandler($0.failure) }
    }

    /// Sends an APDU after checking it can be encoded (Le and data length).
    func sendAPDU(
        _ apdu: NFCISO7816APDU, completionHandler: @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void
    ) {
        let fields = apdu.fields
        let (system, ref) = (self.system, reference)
        perform({ () throws(SystemError) in
            switch fields.problem {
            case .dataTooLong: throw SystemError(.invalidParameterLength, "APDU data longer than 65535 bytes")
            case .expectedLengthOutOfRange:
                throw SystemError(.parameterOutOfBound, "expectedResponseLength must be -1 or 1…65536")
            case nil: return try system.sendAPDU(ref, fields.encoded)
            }
        }) { result in
            switch result {
            case .success(let r): completionHandler(Data(r.data), r.sw1, r.sw2, nil)
            case .failure(let e): completionHandler(Data(), 0, 0, e)
            }
        }
    }
}

/// An `NFCISO7816Tag`.
final class ISO7816TagObject: TagObject, NFCISO7816Tag, @unchecked Sendable {
    override var type: __NFCTagType { .iso7816Compatible }
    var initialSelectedAID: String {
        if case .iso7816(let aid) = delivered.kind { return aid }
        return ""
    }
    var identifier: Data { Data(delivered.identifier) }
    var historicalBytes: Data? { delivered.historicalBytes.map { Data($0) } }
    var applicationData: Data? { delivered.applicationData.map { Data($0) } }
    var proprietaryApplicationDataCoding: Bool { delivered.proprietaryApplicationDataCoding }
    var supportsPACE: Bool { delivered.supportsPACE }

    func sendCommand(
        apdu: NFCISO7816APDU, completionHandler: @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void
    ) {
        sendAPDU(apdu, completionHandler: completionHandler)
    }
}

/// An `NFCMiFareTag`.
final class MiFareTagObject: TagObject, NFCMiFareTag, @unchecked Sendable {
    var mifareFamily: NFCMiFareFamily {
        switch delivered.kind {
        case .miFare(.ultralight): return .ultralight
        case .miFare(.plus): return .plus
        case .miFare(.desfire): return .desfire
        case .miFare(.unknown), .iso7816, .iso15693, .ndefOnly, .feliCa: return .unknown
        }
    }
    var identifier: Data { Data(delivered.identifier) }
    var historicalBytes: Data? { delivered.historicalBytes.map { Data($0) } }

    func sendMiFareCommand(
        commandPacket command: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
    ) {
        let (system, ref, bytes) = (self.system, reference, [UInt8](command))
        perform({ () throws(SystemError) in try system.sendMiFareCommand(ref, bytes) }) { result in
            switch result {
            case .success(let b): completionHandler(Data(b), nil)
            case .failure(let e): completionHandler(Data(), e)
            }
        }
    }

    func sendMiFareISO7816Command(
        _ apdu: NFCISO7816APDU, completionHandler: @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void
    ) {
        // An APDU needs a tag that speaks ISO-DEP: the delivered tag's own fact (its activation announced it), not a
        // list of families (docs/DIFFERENCES.md).
        guard delivered.isoDEP else {
            perform({ () throws(SystemError) in
                throw SystemError(
                    .unsupportedFeature,
                    "ISO 7816 commands need an ISO-DEP (ISO/IEC 14443-4) tag; this MIFARE tag is not one")
            }) { result in completionHandler(Data(), 0, 0, result.failure) }
            return
        }
        sendAPDU(apdu, completionHandler: completionHandler)
    }
}
