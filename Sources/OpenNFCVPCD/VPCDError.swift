package import OpenNFCBytes

/// A failure of the vpcd connection, with what to do about it.
package typealias VPCDError = CodedError<VPCDErrorCode>

/// The kinds of ``VPCDError``.
package enum VPCDErrorCode: String, Sendable, Hashable {
    /// Nothing listens on the vpcd port: pcscd with the vpcd driver is not running.
    case connectionRefused
    /// The address is not an IPv4 address or host name that resolves.
    case badAddress
    /// The connection broke (pcscd stopped).
    case connectionLost
    /// The driver sent a frame that breaks the vpcd protocol.
    case protocolViolation
    /// A socket call failed.
    case socket
}
