public import Foundation

/// An ISO 15693 tag (Apple's `NFCISO15693Tag`; ISO/IEC 15693-3 commands; docs/PARITY.md): NFC Forum Type 5 tags
/// such as NXP ICODE, ST ST25 and TI Tag-it, delivered to tag reader sessions polling `.iso15693` and to NDEF
/// reader sessions.
///
/// Every command is addressed as Core NFC addresses it: the Address flag is set and the UID (LSB first) follows the
/// command code, unless `requestFlags` contains ``NFCISO15693RequestFlag/select``, which clears the Address flag
/// and sends no UID. A request is at most 256 bytes. An answer with the Error flag fails the command with
/// `readerTransceiveErrorTagResponseError` (102) and the tag's error code under
/// ``NFCISO15693TagResponseErrorKey``; a tag that left the field gives 100, a tag not connected 104.
/// Completion handlers run on the session's queue.
public protocol NFCISO15693Tag: __NFCTag, NFCNDEFTag {
    /// The 64-bit UID, big-endian.
    var identifier: Data { get }
    /// UID bits 56–49 (ISO/IEC 7816-6 manufacturer code).
    var icManufacturerCode: Int { get }
    /// UID bits 48–1, big-endian.
    var icSerialNumber: Data { get }

    /// Stay Quiet (`02`): the tag answers nothing until it is selected or reset to ready.
    @preconcurrency func stayQuiet(completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Read Single Block (`20`); with ``NFCISO15693RequestFlag/option`` the block security status comes first.
    @preconcurrency func readSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void)
    /// Write Single Block (`21`).
    @preconcurrency func writeSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Lock Block (`22`).
    @preconcurrency func lockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Read Multiple Blocks (`23`): `blockRange` starts at 0–255 and holds 1–256 blocks; one `Data` per block.
    @preconcurrency func readMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void)
    /// Write Multiple Blocks (`24`): one `Data` per block of `blockRange`, all of the same size.
    @preconcurrency func writeMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
        completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Select (`25`).
    @preconcurrency func select(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Reset to Ready (`26`).
    @preconcurrency func resetToReady(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Write AFI (`27`).
    @preconcurrency func writeAFI(
        requestFlags flags: NFCISO15693RequestFlag, afi: UInt8,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Lock AFI (`28`).
    @preconcurrency func lockAFI(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Write DSFID (`29`).
    @preconcurrency func writeDSFID(
        requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Lock DSFID (`2A`), under the iOS 13 misspelling.
    @available(*, deprecated, renamed: "lockDSFID(requestFlags:completionHandler:)")
    @preconcurrency func lockDFSID(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Lock DSFID (`2A`).
    @preconcurrency func lockDSFID(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Get System Information (`2B`): DSFID, AFI, block size, block count and IC reference, −1 for each field the
    /// answer leaves out.
    @available(*, deprecated, message: "Use getSystemInfo(requestFlags:resultHandler:)")
    @preconcurrency func getSystemInfo(
        requestFlags flags: NFCISO15693RequestFlag,
        completionHandler: @escaping @Sendable (Int, Int, Int, Int, Int, (any Error)?) -> Void)
    /// Get System Information (`2B`) as ``NFCISO15693SystemInfo`` (iOS 14).
    @preconcurrency func getSystemInfo(
        requestFlags flags: NFCISO15693RequestFlag,
        resultHandler: @escaping @Sendable (Result<NFCISO15693SystemInfo, any Error>) -> Void)
    /// Get Multiple Block Security Status (`2C`): one status byte per block.
    @preconcurrency func getMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([NSNumber], (any Error)?) -> Void)
    /// Fast Read Multiple Blocks (`2D`, iOS 14).
    @preconcurrency func fastReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void)
    /// A custom command (`A0`–`DF`): the tag's IC manufacturer code is inserted after the command code.
    @preconcurrency func customCommand(
        requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void)
    /// Extended Read Single Block (`30`): block numbers 0–65535.
    @preconcurrency func extendedReadSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void)
    /// Extended Write Single Block (`31`).
    @preconcurrency func extendedWriteSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Extended Lock Block (`32`).
    @preconcurrency func extendedLockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Extended Read Multiple Blocks (`33`): start 0–65535, 1–65536 blocks.
    @preconcurrency func extendedReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void)
    /// Extended Write Multiple Blocks (`34`, iOS 14).
    @preconcurrency func extendedWriteMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
        completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Authenticate (`35`, iOS 14; ISO/IEC 29167 crypto suite): the answer's flags and the rest, passed through.
    @preconcurrency func authenticate(
        requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void)
    /// Key Update (`36`, iOS 14): the answer's flags and the rest, passed through.
    @preconcurrency func keyUpdate(
        requestFlags flags: NFCISO15693RequestFlag, keyIdentifier: Int, message: Data,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void)
    /// Challenge (`39`, iOS 14): tags compute their answer into their buffer and send nothing back.
    @preconcurrency func challenge(
        requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Read Buffer (`3A`, iOS 14): the answer's flags and the rest, passed through.
    @preconcurrency func readBuffer(
        requestFlags flags: NFCISO15693RequestFlag,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void)
    /// Extended Get Multiple Block Security Status (`3C`, iOS 14).
    @preconcurrency func extendedGetMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<NFCISO15693MultipleBlockSecurityStatus, any Error>) -> Void)
    /// Extended Fast Read Multiple Blocks (`3D`, iOS 14).
    @preconcurrency func extendedFastReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void)
    /// The iOS 11 custom command. A current iOS refuses it on every tag a session delivers with
    /// `readerErrorUnsupportedFeature` (1); use
    /// ``customCommand(requestFlags:customCommandCode:customRequestParameters:completionHandler:)``
    /// (docs/DIFFERENCES.md "iOS 11 ISO 15693 calls"). No `async` form, as in Apple's SDK.
    func sendCustomCommand(
        commandConfiguration: NFCISO15693CustomCommandConfiguration,
        completionHandler: @escaping (Data, (any Error)?) -> Void)
    /// The iOS 11 multi-block read (singular "Block", as Apple spells it). A current iOS refuses it on every tag a
    /// session delivers with `readerErrorUnsupportedFeature` (1); use
    /// ``readMultipleBlocks(requestFlags:blockRange:completionHandler:)`` (docs/DIFFERENCES.md "iOS 11 ISO 15693
    /// calls"). No `async` form, as in Apple's SDK.
    func readMultipleBlock(
        readConfiguration: NFCISO15693ReadMultipleBlocksConfiguration,
        completionHandler: @escaping (Data, (any Error)?) -> Void)
    /// Any request (iOS 14): the frame is `requestFlags`, `commandCode` and `data` exactly as given (no UID is
    /// inserted), at most 256 bytes; the answer's flags and data come back as the tag sent them.
    @preconcurrency func sendRequest(
        requestFlags flags: Int, commandCode: Int, data: Data?,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data?), any Error>) -> Void)
}
