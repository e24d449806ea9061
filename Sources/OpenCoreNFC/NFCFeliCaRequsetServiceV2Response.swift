public import Foundation

/// What `requestServiceV2(nodeCodeList:resultHandler:)` returns (the iOS 14 overlay, Apple's spelling "Requset";
/// docs/PARITY.md §9.3). The key version lists are nil when the card sent none (Status Flag 1 not zero; no DES
/// versions on an AES-only card).
public struct NFCFeliCaRequsetServiceV2Response {
    public var statusFlag1: Int
    public var statusFlag2: Int
    public var encryptionIdentifier: NFCFeliCaEncryptionId
    /// One AES key version per node, 2 bytes little-endian (`FF FF`: the node does not exist).
    public var nodeKeyVersionListAES: [Data]?
    /// One DES key version per node, 2 bytes little-endian.
    public var nodeKeyVersionListDES: [Data]?

    public init(
        statusFlag1: Int, statusFlag2: Int, encryptionIdentifier: NFCFeliCaEncryptionId,
        nodeKeyVersionListAES: [Data]?, nodeKeyVersionListDES: [Data]?
    ) {
        self.statusFlag1 = statusFlag1
        self.statusFlag2 = statusFlag2
        self.encryptionIdentifier = encryptionIdentifier
        self.nodeKeyVersionListAES = nodeKeyVersionListAES
        self.nodeKeyVersionListDES = nodeKeyVersionListDES
    }
}
