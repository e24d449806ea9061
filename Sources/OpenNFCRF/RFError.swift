internal import OpenNFCBytes

/// A failure below the tag protocol: the radio link itself. Tag-level rejections (NAK, status words) are answers,
/// not RF errors; see ``RFResponse``.
public struct RFError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: String, Sendable, Hashable {
        /// No answer within the frame waiting time (a mute tag, a command the chip does not have).
        case timeout
        /// A corrupted answer: CRC or parity error, wrong bit count.
        case transmission
        /// The answer broke the transmission protocol (ISO-DEP block rules, frame too short).
        case protocolViolation
        /// The target left the field or the reader lost it: the connection is gone.
        case linkLost
        /// No target is activated, or the handle names a target that is not the active one.
        case notActivated
        /// The frame is longer than the frontend can send or receive.
        case frameTooLong
        /// The frontend cannot do this (e.g. raw frames through a reader without pass-through).
        case unsupported
        /// The frontend itself failed (driver, daemon, socket); `detail` says what to do.
        case frontendFailure
    }

    package var code: Code
    package var detail: String

    package init(_ code: Code, _ detail: String = "") {
        self.code = code
        self.detail = detail
    }

    public var description: String { detail.isEmpty ? "RF \(code.rawValue)" : "RF \(code.rawValue): \(detail)" }
}

/// A tag's answer to one frame.
///
/// Type 2 and MIFARE chips answer some commands with a 4-bit ACK (`0xA`) or NAK (`0x0`, `0x1`, `0x4`, `0x5`);
/// frontends that hand these over as a single byte report them as ``ack`` / ``nak(_:)``
/// (ISO 14443-3 §6.4 / NXP datasheets, "ACK and NAK").
package enum RFResponse: Hashable, Sendable, CustomStringConvertible {
    case frame([UInt8])
    case ack
    case nak(UInt8)

    package var description: String {
        switch self {
        case .frame(let b): return b.hexString
        case .ack: return "ACK"
        case .nak(let n): return "NAK \(n)"
        }
    }
}
