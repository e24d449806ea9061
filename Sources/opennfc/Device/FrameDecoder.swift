import OpenNFCRF
import OpenNFCTags

/// Names frames and answers for people: the `#` comments of `--trace` and the decoded column of `opennfc send`. The
/// names are the families' (`FrameDescription` in `OpenNFCTags`, one describer per family under its frame mode).
enum FrameDecoder {
    static func describe(command c: [UInt8], mode: RFFrameMode) -> String? {
        FrameDescription.describe(command: c, mode: mode)
    }

    static func describe(response r: RFResponse, to c: [UInt8], mode: RFFrameMode) -> String? {
        FrameDescription.describe(response: r, to: c, mode: mode)
    }

    /// The frame mode of a target's frames after activation.
    static func mode(_ target: RFTarget) -> RFFrameMode { FrameDescription.mode(of: target) }

    /// ISO/IEC 7816-4 §5.6 status words, and the DESFire ones in their ISO-wrapped form (91 xx).
    static func statusWord(_ sw1: UInt8, _ sw2: UInt8) -> String { Type4Trace.statusWord(sw1, sw2) }
}
