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

    /// Which table explains this tag's 4-bit NAKs in error messages.
    var nakMeaning: TagErrorText.NAKMeaning {
        if case .mifareClassic = identified.kind { return .mifareClassic }
        return .type2
    }

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
    /// The 4-bit NAK tables differ per family: Type 2 (NTAG21x §10, MF0ULx1 §8) and MIFARE Classic (MF1S50yyX §9.3).
    enum NAKMeaning { case type2, mifareClassic }

    static func describe(_ e: TagError, doing operation: String, naks: NAKMeaning = .type2) -> String {
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
            if let n = e.nak {
                let hint = naks == .mifareClassic ? classicNAKHint(n) : nakHint(n)
                if e.reason.contains("PWD_AUTH") {
                    s += " (NAK \(n))"
                } else if e.reason.contains("(NAK \(n)") {
                    s += " (\(hint))"
                } else {
                    s += " (NAK \(n): \(hint))"
                }
            }
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

    /// MIFARE Classic NAKs (MF1S50yyX §9.3 Table 9): 0/4 invalid operation, 1/5 parity or CRC error; the pairs differ
    /// in whether the transfer buffer is still valid.
    static func classicNAKHint(_ n: UInt8) -> String {
        switch n {
        case 0x0, 0x4:
            return "invalid operation: the access conditions refuse it with this key, the block is outside the "
                + "authenticated sector, or it is not a value block"
        case 0x1, 0x5: return "parity or CRC error"
        default: return "not a MIFARE Classic NAK code"
        }
    }
}

/// Runs one reader-procedure step, turning its ``TagError`` into a one-line failure that says what was being done
/// (a NAK explained by the `naks` family's table).
func tagStep<T>(
    _ doing: String, naks: TagErrorText.NAKMeaning = .type2, _ body: () throws(TagError) -> T
) throws(CLIError) -> T {
    do {
        return try body()
    } catch {
        throw CLIError.failure(TagErrorText.describe(error, doing: doing, naks: naks))
    }
}

/// ``tagStep(_:naks:_:)`` for a MIFARE Classic: its NAKs explained by MF1S50yyX §9.3.
func classicStep<T>(_ doing: String, _ body: () throws(TagError) -> T) throws(CLIError) -> T {
    try tagStep(doing, naks: .mifareClassic, body)
}
