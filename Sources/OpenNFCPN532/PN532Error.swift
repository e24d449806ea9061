/// A failure of the PN532 or of the link to it, with what to do about it. Chip statuses (UM0701-02 §7.1 table 12)
/// are kept as ``Code/status`` with their byte.
package struct PN532Error: Error, Sendable, Hashable, CustomStringConvertible {
    package enum Code: Sendable, Hashable {
        /// The device could not be opened or configured (path, permissions, not a tty/i2c/spi device).
        case open
        /// No ACK or no answer within the timeout (nothing on the line: wrong port, wrong speed, chip asleep).
        case timeout
        /// The link failed under the command: the adapter was unplugged, the bus returned an error.
        case unplugged
        /// The chip's bytes do not make a frame (bad checksum, wrong TFI, wrong answer code) after every retry.
        case garbled
        /// The chip answered with the application-level error frame: it rejected the command's syntax.
        case syntaxError
        /// The chip answered with an error status byte.
        case status(UInt8)
        /// Something this driver or this chip cannot do.
        case unsupported
    }

    package var code: Code
    package var detail: String

    package init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    package var description: String { detail }

    /// The chip's status byte in words (UM0701-02 §7.1, table 12).
    package static func meaning(ofStatus status: UInt8) -> String {
        switch status & 0x3F {
        case 0x01: return "timeout: the target did not answer"
        case 0x02: return "CRC error"
        case 0x03: return "parity error"
        case 0x04: return "wrong bit count during anticollision"
        case 0x05: return "MIFARE framing error"
        case 0x06: return "abnormal bit collision"
        case 0x07: return "communication buffer too small"
        case 0x09: return "RF buffer overflow"
        case 0x0A: return "RF field not switched on in time"
        case 0x0B: return "RF protocol error"
        case 0x0D: return "overheating: the antenna drivers were switched off"
        case 0x0E: return "internal buffer overflow"
        case 0x10: return "invalid parameter"
        case 0x12: return "command not supported by the DEP target"
        case 0x13: return "data format does not match the specification"
        case 0x14: return "MIFARE authentication error"
        case 0x23: return "UID check byte (BCC) wrong"
        case 0x25: return "invalid device state"
        case 0x26: return "operation not allowed in this configuration"
        case 0x27: return "command not acceptable in the current context"
        case 0x29: return "released by the initiator"
        case 0x2A: return "ISO/IEC 14443-3B card ID does not match"
        case 0x2B: return "ISO/IEC 14443-3B card has disappeared"
        case 0x2C: return "NFCID3 mismatch"
        case 0x2D: return "over-current"
        case 0x2E: return "NAD missing in DEP frame"
        default: return "status \(PN532Frame.hex([status]))"
        }
    }
}
