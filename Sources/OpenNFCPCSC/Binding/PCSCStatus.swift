/// The `SCARD_*` return codes of PC/SC Part 5 §3.3 as pcsc-lite defines them (`pcsclite.h`). `LONG` is 64-bit on
/// Linux and 32-bit on macOS, so codes are normalised to their low 32 bits before comparing.
package enum PCSCStatus {
    package static let success: UInt32 = 0x0000_0000
    package static let internalError: UInt32 = 0x8010_0001
    package static let cancelled: UInt32 = 0x8010_0002
    package static let invalidHandle: UInt32 = 0x8010_0003
    package static let invalidParameter: UInt32 = 0x8010_0004
    package static let noMemory: UInt32 = 0x8010_0006
    package static let insufficientBuffer: UInt32 = 0x8010_0008
    package static let unknownReader: UInt32 = 0x8010_0009
    package static let timeout: UInt32 = 0x8010_000A
    package static let sharingViolation: UInt32 = 0x8010_000B
    package static let noSmartcard: UInt32 = 0x8010_000C
    package static let protoMismatch: UInt32 = 0x8010_000F
    package static let notReady: UInt32 = 0x8010_0010
    package static let invalidValue: UInt32 = 0x8010_0011
    package static let systemCancelled: UInt32 = 0x8010_0012
    package static let commError: UInt32 = 0x8010_0013
    package static let unknownError: UInt32 = 0x8010_0014
    package static let notTransacted: UInt32 = 0x8010_0016
    package static let readerUnavailable: UInt32 = 0x8010_0017
    package static let shutdown: UInt32 = 0x8010_0018
    package static let readerUnsupported: UInt32 = 0x8010_001A
    package static let cardUnsupported: UInt32 = 0x8010_001C
    package static let noService: UInt32 = 0x8010_001D
    package static let serviceStopped: UInt32 = 0x8010_001E
    package static let unexpected: UInt32 = 0x8010_001F
    package static let noReadersAvailable: UInt32 = 0x8010_002E
    package static let unsupportedCard: UInt32 = 0x8010_0065
    package static let unresponsiveCard: UInt32 = 0x8010_0066
    package static let unpoweredCard: UInt32 = 0x8010_0067
    package static let resetCard: UInt32 = 0x8010_0068
    package static let removedCard: UInt32 = 0x8010_0069

    /// The `SCARD_*` name of a code, for messages (`SCARD_E_NO_SERVICE`), or its hex value when unknown.
    package static func name(_ status: UInt32) -> String {
        switch status {
        case success: return "SCARD_S_SUCCESS"
        case internalError: return "SCARD_F_INTERNAL_ERROR"
        case cancelled: return "SCARD_E_CANCELLED"
        case invalidHandle: return "SCARD_E_INVALID_HANDLE"
        case invalidParameter: return "SCARD_E_INVALID_PARAMETER"
        case noMemory: return "SCARD_E_NO_MEMORY"
        case insufficientBuffer: return "SCARD_E_INSUFFICIENT_BUFFER"
        case unknownReader: return "SCARD_E_UNKNOWN_READER"
        case timeout: return "SCARD_E_TIMEOUT"
        case sharingViolation: return "SCARD_E_SHARING_VIOLATION"
        case noSmartcard: return "SCARD_E_NO_SMARTCARD"
        case protoMismatch: return "SCARD_E_PROTO_MISMATCH"
        case notReady: return "SCARD_E_NOT_READY"
        case invalidValue: return "SCARD_E_INVALID_VALUE"
        case systemCancelled: return "SCARD_E_SYSTEM_CANCELLED"
        case commError: return "SCARD_F_COMM_ERROR"
        case unknownError: return "SCARD_F_UNKNOWN_ERROR"
        case notTransacted: return "SCARD_E_NOT_TRANSACTED"
        case readerUnavailable: return "SCARD_E_READER_UNAVAILABLE"
        case shutdown: return "SCARD_P_SHUTDOWN"
        case readerUnsupported: return "SCARD_E_READER_UNSUPPORTED"
        case cardUnsupported: return "SCARD_E_CARD_UNSUPPORTED"
        case noService: return "SCARD_E_NO_SERVICE"
        case serviceStopped: return "SCARD_E_SERVICE_STOPPED"
        case unexpected: return "SCARD_E_UNEXPECTED"
        case noReadersAvailable: return "SCARD_E_NO_READERS_AVAILABLE"
        case unsupportedCard: return "SCARD_W_UNSUPPORTED_CARD"
        case unresponsiveCard: return "SCARD_W_UNRESPONSIVE_CARD"
        case unpoweredCard: return "SCARD_W_UNPOWERED_CARD"
        case resetCard: return "SCARD_W_RESET_CARD"
        case removedCard: return "SCARD_W_REMOVED_CARD"
        default:
            let hex = String(status, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: max(0, 8 - hex.count)) + hex
        }
    }
}
