import CoreNFC

// Test doubles of the tag protocols written as an app written today writes them, from Apple's current documentation
// (iOS 26 SDK): every handler is `@escaping @Sendable`. They must compile in Swift 6 language mode against our
// declarations (`scripts/check-public-surface` typechecks this file from outside the package too).

/// The common part: `__NFCTag`, `NSSecureCoding`, `NSCopying`.
class AppleStyleMockTag: NSObject, __NFCTag, NFCNDEFTag, @unchecked Sendable {
    let kind: __NFCTagType
    var stored: NFCNDEFMessage?
    var locked = false
    init(kind: __NFCTagType, stored: NFCNDEFMessage?) {
        self.kind = kind
        self.stored = stored
    }
    static var supportsSecureCoding: Bool { true }
    func encode(with coder: NSCoder) {}
    required init?(coder: NSCoder) { return nil }
    func copy(with zone: NSZone? = nil) -> Any { self }

    var type: __NFCTagType { kind }
    var session: (any NFCReaderSessionProtocol)? { nil }
    var isAvailable: Bool { true }
    func asNFCISO15693Tag() -> (any NFCISO15693Tag)? { self as? any NFCISO15693Tag }
    func asNFCISO7816Tag() -> (any NFCISO7816Tag)? { self as? any NFCISO7816Tag }
    func asNFCFeliCaTag() -> (any NFCFeliCaTag)? { self as? any NFCFeliCaTag }
    func asNFCMiFareTag() -> (any NFCMiFareTag)? { self as? any NFCMiFareTag }

    func queryNDEFStatus(completionHandler: @escaping @Sendable (NFCNDEFStatus, Int, (any Error)?) -> Void) {
        completionHandler(locked ? .readOnly : .readWrite, 496, nil)
    }
    func readNDEF(completionHandler: @escaping @Sendable (NFCNDEFMessage?, (any Error)?) -> Void) {
        if let stored {
            completionHandler(stored, nil)
        } else {
            completionHandler(nil, NFCReaderError(.ndefReaderSessionErrorZeroLengthMessage))
        }
    }
    func writeNDEF(_ ndefMessage: NFCNDEFMessage, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        guard !locked else { return completionHandler(NFCReaderError(.ndefReaderSessionErrorTagNotWritable)) }
        stored = ndefMessage
        completionHandler(nil)
    }
    func writeLock(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        locked = true
        completionHandler(nil)
    }
}

final class AppleStyleMockISO7816Tag: AppleStyleMockTag, NFCISO7816Tag, @unchecked Sendable {
    var initialSelectedAID: String { "D2760000850101" }
    var identifier: Data { Data([0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]) }
    var historicalBytes: Data? { nil }
    var applicationData: Data? { nil }
    var proprietaryApplicationDataCoding: Bool { false }
    var supportsPACE: Bool { false }
    func sendCommand(
        apdu: NFCISO7816APDU, completionHandler: @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void
    ) {
        completionHandler(Data(), 0x90, 0x00, nil)
    }
}

final class AppleStyleMockMiFareTag: AppleStyleMockTag, NFCMiFareTag, @unchecked Sendable {
    var mifareFamily: NFCMiFareFamily { .ultralight }
    var identifier: Data { Data([0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]) }
    var historicalBytes: Data? { nil }
    func sendMiFareCommand(
        commandPacket command: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
    ) {
        completionHandler(Data([0x0A]), nil)
    }
    func sendMiFareISO7816Command(
        _ apdu: NFCISO7816APDU, completionHandler: @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void
    ) {
        completionHandler(Data(), 0x6D, 0x00, nil)
    }
}

final class AppleStyleMockFeliCaTag: AppleStyleMockTag, NFCFeliCaTag, @unchecked Sendable {
    var currentSystemCode: Data { Data([0x12, 0xFC]) }
    var currentIDm: Data { Data(repeating: 1, count: 8) }
    func polling(
        systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot,
        completionHandler: @escaping @Sendable (Data, Data, (any Error)?) -> Void
    ) { completionHandler(Data(count: 8), Data(), nil) }
    func requestService(nodeCodeList: [Data], completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        completionHandler(nodeCodeList.map { _ in Data([0, 0]) }, nil)
    }
    func requestResponse(completionHandler: @escaping @Sendable (Int, (any Error)?) -> Void) {
        completionHandler(0, nil)
    }
    func readWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data],
        completionHandler: @escaping @Sendable (Int, Int, [Data], (any Error)?) -> Void
    ) { completionHandler(0, 0, blockList.map { _ in Data(count: 16) }, nil) }
    func writeWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data], blockData: [Data],
        completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void
    ) { completionHandler(0, 0, nil) }
    func requestSystemCode(completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        completionHandler([currentSystemCode], nil)
    }
    func requestServiceV2(
        nodeCodeList: [Data],
        completionHandler: @escaping @Sendable (Int, Int, NFCFeliCaEncryptionId, [Data], [Data], (any Error)?) -> Void
    ) { completionHandler(0, 0, .AES, [], [], nil) }
    func requestSpecificationVersion(
        completionHandler: @escaping @Sendable (Int, Int, Data, Data, (any Error)?) -> Void
    ) { completionHandler(0, 0, Data([0x00, 0x01]), Data(), nil) }
    func resetMode(completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void) {
        completionHandler(0, 0, nil)
    }
    func sendFeliCaCommand(commandPacket: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
        completionHandler(Data([commandPacket.first.map { $0 + 1 } ?? 0]), nil)
    }
}

final class AppleStyleMockISO15693Tag: AppleStyleMockTag, NFCISO15693Tag, @unchecked Sendable {
    var blocks: [Data] = (0..<8).map { Data(repeating: UInt8($0), count: 4) }
    var identifier: Data { Data([0xE0, 0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]) }
    var icManufacturerCode: Int { 0x04 }
    var icSerialNumber: Data { Data([0x01, 0x02, 0x03, 0x04, 0x05, 0x06]) }
    typealias Flags = NFCISO15693RequestFlag
    func stayQuiet(completionHandler: @escaping @Sendable ((any Error)?) -> Void) { completionHandler(nil) }
    func readSingleBlock(
        requestFlags flags: Flags, blockNumber: UInt8,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
    ) { completionHandler(blocks[Int(blockNumber)], nil) }
    func writeSingleBlock(
        requestFlags flags: Flags, blockNumber: UInt8, dataBlock: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        blocks[Int(blockNumber)] = dataBlock
        completionHandler(nil)
    }
    func lockBlock(
        requestFlags flags: Flags, blockNumber: UInt8, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) { completionHandler(nil) }
    func readMultipleBlocks(
        requestFlags flags: Flags, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void
    ) { completionHandler(Array(blocks[blockRange.location..<blockRange.location + blockRange.length]), nil) }
    func writeMultipleBlocks(
        requestFlags flags: Flags, blockRange: NSRange, dataBlocks: [Data],
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) { completionHandler(nil) }
    func select(requestFlags flags: Flags, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        completionHandler(nil)
    }
    func resetToReady(requestFlags flags: Flags, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        completionHandler(nil)
    }
    func writeAFI(requestFlags flags: Flags, afi: UInt8, completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    {
        completionHandler(nil)
    }
    func lockAFI(requestFlags flags: Flags, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        completionHandler(nil)
    }
    func writeDSFID(
        requestFlags flags: Flags, dsfid: UInt8, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        completionHandler(nil)
    }
    func lockDFSID(requestFlags flags: Flags, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        completionHandler(nil)
    }
    func lockDSFID(requestFlags flags: Flags, completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        completionHandler(nil)
    }
    func getSystemInfo(
        requestFlags flags: Flags,
        completionHandler: @escaping @Sendable (Int, Int, Int, Int, Int, (any Error)?) -> Void
    ) { completionHandler(0, 0, 4, blocks.count, 0, nil) }
    func getSystemInfo(
        requestFlags flags: Flags, resultHandler: @escaping @Sendable (Result<NFCISO15693SystemInfo, any Error>) -> Void
    ) {
        resultHandler(
            .success(
                NFCISO15693SystemInfo(
                    uniqueIdentifier: identifier, dataStorageFormatIdentifier: 0, applicationFamilyIdentifier: 0,
                    blockSize: 4, totalBlocks: blocks.count, icReference: 0)))
    }
    func getMultipleBlockSecurityStatus(
        requestFlags flags: Flags, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([NSNumber], (any Error)?) -> Void
    ) { completionHandler((0..<blockRange.length).map { _ in NSNumber(value: 0) }, nil) }
    func fastReadMultipleBlocks(
        requestFlags flags: Flags, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void
    ) { resultHandler(.success(Array(blocks[blockRange.location..<blockRange.location + blockRange.length]))) }
    func customCommand(
        requestFlags flags: Flags, customCommandCode: Int, customRequestParameters: Data,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
    ) { completionHandler(Data([UInt8(customCommandCode & 0xFF)]), nil) }
    func extendedReadSingleBlock(
        requestFlags flags: Flags, blockNumber: Int, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
    ) { completionHandler(blocks[blockNumber], nil) }
    func extendedWriteSingleBlock(
        requestFlags flags: Flags, blockNumber: Int, dataBlock: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) { completionHandler(nil) }
    func extendedLockBlock(
        requestFlags flags: Flags, blockNumber: Int, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) { completionHandler(nil) }
    func extendedReadMultipleBlocks(
        requestFlags flags: Flags, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void
    ) { completionHandler([], nil) }
    func extendedWriteMultipleBlocks(
        requestFlags flags: Flags, blockRange: NSRange, dataBlocks: [Data],
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) { completionHandler(nil) }
    func authenticate(
        requestFlags flags: Flags, cryptoSuiteIdentifier: Int, message: Data,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) { resultHandler(.success(([], Data()))) }
    func keyUpdate(
        requestFlags flags: Flags, keyIdentifier: Int, message: Data,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) { resultHandler(.success(([], Data()))) }
    func challenge(
        requestFlags flags: Flags, cryptoSuiteIdentifier: Int, message: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) { completionHandler(nil) }
    func readBuffer(
        requestFlags flags: Flags,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) { resultHandler(.success(([], Data()))) }
    func extendedGetMultipleBlockSecurityStatus(
        requestFlags flags: Flags, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<NFCISO15693MultipleBlockSecurityStatus, any Error>) -> Void
    ) { resultHandler(.success(NFCISO15693MultipleBlockSecurityStatus(blockSecurityStatus: []))) }
    func extendedFastReadMultipleBlocks(
        requestFlags flags: Flags, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void
    ) { resultHandler(.success([])) }
    // The iOS 11 calls: Apple's SDK imports them without `@Sendable` (they have no async form).
    func sendCustomCommand(
        commandConfiguration: NFCISO15693CustomCommandConfiguration,
        completionHandler: @escaping (Data, (any Error)?) -> Void
    ) { completionHandler(Data(), NFCReaderError(.readerErrorUnsupportedFeature)) }
    func readMultipleBlock(
        readConfiguration: NFCISO15693ReadMultipleBlocksConfiguration,
        completionHandler: @escaping (Data, (any Error)?) -> Void
    ) { completionHandler(Data(), NFCReaderError(.readerErrorUnsupportedFeature)) }
    func sendRequest(
        requestFlags flags: Int, commandCode: Int, data: Data?,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data?), any Error>) -> Void
    ) { resultHandler(.success(([], data))) }
}
