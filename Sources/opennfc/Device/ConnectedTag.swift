import OpenNFCBytes
import OpenNFCRF
import OpenNFCTags

/// The tag a command works on: activated, identified, with its NDEF procedure at hand.
struct ConnectedTag {
    let target: RFTarget
    let identified: IdentifiedTag
    let frontend: InstrumentedFrontend

    /// The chip name as the CLI prints it (`ntag215`, `desfire-ev1`, `iso7816`).
    var chip: String { identified.kind.description }
    var uid: String { target.identifier.hexString }

    var type2Chip: Type2Chip? {
        if case .type2(let chip) = identified.kind { return chip }
        return nil
    }

    /// A fresh NDEF procedure (each one caches what it read; a fresh one reads the tag again).
    func ndef() throws -> any NDEFTagProcedure {
        guard let p = identified.ndefProcedure(frontend: frontend) else {
            switch identified.kind {
            case .mifareClassic:
                throw CLIError.failure(
                    "this is a MIFARE Classic tag (UID \(uid)); it has no NFC Forum NDEF mapping that opennfc supports")
            default:
                throw CLIError.failure("the tag (\(chip), UID \(uid)) has no NDEF mapping that opennfc supports")
            }
        }
        return p
    }
}

extension TagSession {
    /// Waits for a tag, activates and identifies it.
    func connectTag() throws -> ConnectedTag {
        try identify(try connect())
    }

    /// Identifies an activated target (GET_VERSION or DESFire GetVersion where needed).
    func identify(_ target: RFTarget) throws -> ConnectedTag {
        do {
            let id = try TagIdentifier.identify(target: target, frontend: frontend)
            return ConnectedTag(target: id.target, identified: id, frontend: frontend)
        } catch {
            throw CLIError.failure(TagErrorText.describe(error, doing: "identify the tag"))
        }
    }
}

/// One-line explanations of reader-procedure errors, saying what to do where there is something to do.
enum TagErrorText {
    static func describe(_ e: TagError, doing operation: String) -> String {
        switch e.code {
        case .rf:
            switch e.rfError?.code {
            case .linkLost?: return "the tag left the field while trying to \(operation); hold it still and try again"
            case .timeout?: return "the tag stopped answering while trying to \(operation) (\(e.reason))"
            case .frameTooLong?: return "the reader cannot carry this frame: \(e.reason)"
            case .frontendFailure?: return "the reader failed: \(e.reason)"
            default: return "radio error while trying to \(operation): \(e.reason)"
            }
        case .commandRejected:
            var s = "the tag refused to \(operation): \(e.reason)"
            if let n = e.nak { s += e.reason.contains("PWD_AUTH") ? " (NAK \(n))" : " (NAK \(n): \(nakHint(n)))" }
            if let sw = e.statusWord {
                s +=
                    " (SW \(Hex.encode([UInt8(sw >> 8), UInt8(sw & 0xFF)])): "
                    + FrameDecoder.statusWord(UInt8(sw >> 8), UInt8(sw & 0xFF)) + ")"
            }
            return s
        case .invalidResponse: return "the tag answered unexpectedly while trying to \(operation): \(e.reason)"
        case .notFormatted: return "the tag is not NDEF formatted (\(e.reason)); 'opennfc format' prepares it"
        case .readOnly: return "cannot \(operation): \(e.reason)"
        case .capacityExceeded: return "cannot \(operation): \(e.reason)"
        case .emptyMessage: return "an empty message cannot be written: \(e.reason)"
        case .tornStateDetected:
            return "the tag's NDEF data is torn (\(e.reason)); 'opennfc write' or 'opennfc format' repairs it"
        case .cannotMakeReadOnly: return "the tag cannot be made read-only: \(e.reason)"
        case .unsupported: return "not supported on this tag: \(e.reason)"
        }
    }

    static func nakHint(_ n: UInt8) -> String {
        switch n {
        case 0: return "page locked, out of range, or password required"
        case 1: return "parity or CRC error"
        case 4: return "authentication limit reached or counter overflow"
        case 5: return "EEPROM write error"
        default: return "unknown NAK"
        }
    }
}

/// Runs one reader-procedure step, turning its ``TagError`` into a one-line failure that says what was being done.
func tagStep<T>(_ doing: String, _ body: () throws(TagError) -> T) throws(CLIError) -> T {
    do {
        return try body()
    } catch {
        throw CLIError.failure(TagErrorText.describe(error, doing: doing))
    }
}
