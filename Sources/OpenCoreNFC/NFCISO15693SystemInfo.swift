public import Foundation

/// The answer to Get System Information (iOS 14 overlay struct; ISO/IEC 15693-3 §10.4.12). A field the tag's
/// information flags leave out is −1 (DIFFERENCES: decided from Apple's header for the iOS 13 form, which says −1
/// for a missing field; the struct form is given the same convention).
public struct NFCISO15693SystemInfo: Sendable, Hashable {
    /// The UID as the response carries it: least significant byte first.
    public var uniqueIdentifier: Data
    /// The DSFID, or −1.
    public var dataStorageFormatIdentifier: Int
    /// The AFI, or −1.
    public var applicationFamilyIdentifier: Int
    /// The block size in bytes (1–32), or −1.
    public var blockSize: Int
    /// The number of blocks (1–256), or −1.
    public var totalBlocks: Int
    /// The IC reference, or −1.
    public var icReference: Int

    /// System information from its fields.
    public init(
        uniqueIdentifier: Data, dataStorageFormatIdentifier: Int, applicationFamilyIdentifier: Int, blockSize: Int,
        totalBlocks: Int, icReference: Int
    ) {
        self.uniqueIdentifier = uniqueIdentifier
        self.dataStorageFormatIdentifier = dataStorageFormatIdentifier
        self.applicationFamilyIdentifier = applicationFamilyIdentifier
        self.blockSize = blockSize
        self.totalBlocks = totalBlocks
        self.icReference = icReference
    }
}
