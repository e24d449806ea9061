package import OpenNFCRF
internal import OpenNFCTags

/// The reader procedures of `OpenNFCTags` as the system's platform: identification (`TagIdentifier`) and the NFC
/// Forum NDEF procedures (`Type1NDEF`, `Type2NDEF`, `Type4NDEF`, `Type5NDEF`), with their errors mapped to the session's codes — the read and
/// write columns of `TagError`'s table (a garbled answer is 102 while reading, 401 while writing; Apple's Core NFC documentation).
package struct StandardTagPlatform: TagPlatform {
    package init() {}

    package func identify(_ target: RFTarget, frontend: any RFFrontend) throws(SystemError) -> TagIdentity {
        let tag: IdentifiedTag
        do {
            tag = try TagIdentifier.identify(target: target, frontend: frontend)
        } catch {
            throw Self.map(error, writing: false)
        }
        let family: TagIdentity.Family
        switch tag.kind {
        case .type2(let chip): family = .type2(chip: chip.name)
        case .type1: family = .type1
        case .type3: family = .type3
        case .desfire: family = .desfire
        case .iso7816: family = .iso7816
        case .type5(let chip): family = .type5(chip: chip.name)
        case .mifareClassic: family = .mifareClassic
        case .unsupported(let why): family = .unsupported(why)
        }
        var identity = TagIdentity(target: tag.target, family: family, historicalBytes: tag.historicalBytes)
        identity.identified = tag
        return identity
    }

    package func ndefAccess(for tag: TagIdentity, frontend: any RFFrontend) -> (any NDEFAccess)? {
        if var identified = tag.identified {
            identified.target = tag.target
            return identified.ndefProcedure(frontend: frontend).map { Access($0) }
        }
        let kind: TagKind
        switch tag.family {
        case .type2(let name): kind = .type2(Type2Chip.known.first { $0.name == name } ?? .generic)
        case .type1: kind = .type1
        case .type3: kind = .type3
        case .desfire, .iso7816: kind = .iso7816
        case .type5: kind = .type5(Type5Chip(uid: tag.target.identifier))
        case .mifareClassic, .unsupported: return nil
        }
        guard let procedure = IdentifiedTag(target: tag.target, kind: kind).ndefProcedure(frontend: frontend) else {
            return nil
        }
        return Access(procedure)
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
