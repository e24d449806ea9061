public import Foundation

/// What `requestSpecificationVersion(resultHandler:)` returns (the iOS 14 overlay; docs/PARITY.md §9.3). The versions
/// are nil when Status Flag 1 is not zero.
public struct NFCFeliCaRequestSpecificationVersionResponse {
    public var statusFlag1: Int
    public var statusFlag2: Int
    /// The basic version, 2 bytes (BCD, little-endian as the card sends it).
    public var basicVersion: Data?
    /// The option versions, 2 bytes each, as the card sends them (empty on a card without options).
    public var optionVersion: Data?

    public init(statusFlag1: Int, statusFlag2: Int, basicVersion: Data?, optionVersion: Data?) {
        self.statusFlag1 = statusFlag1
        self.statusFlag2 = statusFlag2
        self.basicVersion = basicVersion
        self.optionVersion = optionVersion
    }
}
