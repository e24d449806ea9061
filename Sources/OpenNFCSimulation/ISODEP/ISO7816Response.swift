import OpenNFCBytes

/// A response APDU as the card sends it: the response data field followed by the status word SW1 SW2
/// (ISO/IEC 7816-4 §5.1).
public struct ISO7816Response: Sendable, Hashable, CustomStringConvertible {
    public var data: [UInt8]
    public var status: ISO7816Status

    public init(data: [UInt8] = [], status: ISO7816Status = .success) {
        self.data = data
        self.status = status
    }

    /// A response without data carrying only a status word.
    public static func status(_ status: ISO7816Status) -> ISO7816Response { ISO7816Response(status: status) }

    /// Data then SW1 SW2, as they travel in the ISO-DEP I-block.
    public var encoded: [UInt8] { data + [status.sw1, status.sw2] }

    public var description: String {
        (data.isEmpty ? "" : Hex.encode(data) + " ") + status.description
    }
}
