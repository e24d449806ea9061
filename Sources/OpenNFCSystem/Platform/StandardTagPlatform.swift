package import OpenNFCRF
package import OpenNFCTags
internal import Synchronization

/// The reader procedures of `OpenNFCTags` as the system's platform: identification (`TagIdentifier`) and the NFC
/// Forum NDEF procedures (`Type1NDEF`, `Type2NDEF`, `Type4NDEF`, `Type5NDEF`), with their errors mapped to the session's codes — the read and
/// write columns of `TagError`'s table (a garbled answer is 102 while reading, 401 while writing; Apple's Core NFC documentation).
package struct StandardTagPlatform: TagPlatform {
    package init() {}

    package func identify(_ target: RFTarget, frontend: any RFFrontend) throws(SystemError) -> IdentifiedTag {
        do {
            return try TagIdentifier.identify(target: target, frontend: frontend)
        } catch {
            throw Self.map(error, writing: false)
        }
    }

    package func ndefAccess(for tag: IdentifiedTag, frontend: any RFFrontend) -> (any NDEFAccess)? {
        tag.ndefProcedure(frontend: frontend).map { Access($0) }
    }

    /// One exhaustive switch from the procedures' codes to the session's (no `default:`).
    static func map(_ e: TagError, writing: Bool) -> SystemError {
        switch e.code {
        case .rf:
            if let rf = e.rfError { return SystemError(rf: rf, writing: writing) }
            return SystemError(writing ? .tagUpdateFailure : .tagResponseError, e.description)
        case .commandRejected, .invalidResponse, .tornStateDetected:
            return SystemError(
                writing ? .tagUpdateFailure : .tagResponseError, e.description,
                tagStatus: e.iso15693Error.map { .iso15693($0) })
        case .notFormatted:
            return SystemError(writing ? .tagUpdateFailure : .tagResponseError, "Tag Not NDEF formatted")
        case .readOnly: return SystemError(.tagNotWritable, e.description)
        case .capacityExceeded: return SystemError(.tagSizeTooSmall, e.description)
        case .emptyMessage: return SystemError(.zeroLengthMessage, e.description)
        case .cannotMakeReadOnly: return SystemError(.tagUpdateFailure, e.description)
        case .unsupported: return SystemError(.unsupportedFeature, e.description)
        }
    }

    final class Access: NDEFAccess {
        let procedure: any NDEFTagProcedure
        init(_ procedure: any NDEFTagProcedure) { self.procedure = procedure }

        func detect() throws(SystemError) -> NDEFState {
            do {
                let d = try procedure.detect()
                switch d.status {
                case .notSupported: return NDEFState(status: .notSupported, capacity: 0)
                case .readWrite: return NDEFState(status: .readWrite, capacity: d.capacity)
                case .readOnly: return NDEFState(status: .readOnly, capacity: d.capacity)
                }
            } catch {
                throw StandardTagPlatform.map(error, writing: false)
            }
        }

        func read() throws(SystemError) -> [UInt8] {
            do {
                return try procedure.readMessage()
            } catch {
                throw StandardTagPlatform.map(error, writing: false)
            }
        }

        func write(_ message: [UInt8]) throws(SystemError) {
            do {
                try procedure.writeMessage(message)
            } catch {
                throw StandardTagPlatform.map(error, writing: true)
            }
        }

        func lock() throws(SystemError) {
            do {
                try procedure.makeReadOnly()
            } catch {
                throw StandardTagPlatform.map(error, writing: true)
            }
        }
    }
}

extension NFCSystem {
    private static let platformStorage = Mutex<any TagPlatform>(StandardTagPlatform())
    /// The reader procedures systems use unless told otherwise.
    package static var standardPlatform: any TagPlatform {
        get { platformStorage.withLock { $0 } }
        set { platformStorage.withLock { $0 = newValue } }
    }
}

/// A platform without reader procedures: nothing can be identified.
struct NoProcedures: TagPlatform {
    func identify(_ target: RFTarget, frontend: any RFFrontend) throws(SystemError) -> IdentifiedTag {
        IdentifiedTag(target: target, kind: .unsupported("no reader procedures are linked"))
    }
    func ndefAccess(for tag: IdentifiedTag, frontend: any RFFrontend) -> (any NDEFAccess)? { nil }
}
