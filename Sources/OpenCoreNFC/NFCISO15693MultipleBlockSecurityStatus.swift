/// The answer to (Extended) Get Multiple Block Security Status (iOS 14 overlay struct; ISO/IEC 15693-3 §10.4.13):
/// one status byte per block, bit 1 set when the block is locked.
public struct NFCISO15693MultipleBlockSecurityStatus: Sendable, Hashable {
    /// The status byte of each block, in block order.
    public var blockSecurityStatus: [Int]

    /// A status list from its bytes.
    public init(blockSecurityStatus: [Int]) { self.blockSecurityStatus = blockSecurityStatus }
}
