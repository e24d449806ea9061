public import Foundation

/// The iOS 14 overlay's `Result` forms and the imported `async` forms of ``NFCISO15693Tag``'s commands (Apple's
/// Core NFC Swift overlay; every completion-handler method has an `async throws` twin except the deprecated ones).
extension NFCISO15693Tag {
    // MARK: Result forms (iOS 14 overlay)

    /// Read Single Block (`20`), `Result` form.
    @preconcurrency public func readSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
        resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void
    ) {
        readSingleBlock(requestFlags: flags, blockNumber: blockNumber) { data, error in
            resultHandler(error.map { .failure($0) } ?? .success(data))
        }
    }

    /// Read Multiple Blocks (`23`), `Result` form.
    @preconcurrency public func readMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void
    ) {
        readMultipleBlocks(requestFlags: flags, blockRange: blockRange) { blocks, error in
            resultHandler(error.map { .failure($0) } ?? .success(blocks))
        }
    }

    /// A custom command, `Result` form.
    @preconcurrency public func customCommand(
        requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
        resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void
    ) {
        customCommand(
            requestFlags: flags, customCommandCode: customCommandCode, customRequestParameters: customRequestParameters
        ) { data, error in
            resultHandler(error.map { .failure($0) } ?? .success(data))
        }
    }

    /// Extended Read Single Block (`30`), `Result` form.
    @preconcurrency public func extendedReadSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
        resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void
    ) {
        extendedReadSingleBlock(requestFlags: flags, blockNumber: blockNumber) { data, error in
            resultHandler(error.map { .failure($0) } ?? .success(data))
        }
    }

    // MARK: async forms

    /// Stay Quiet (`02`).
    public func stayQuiet() async throws {
        try await Self.bridge { done in stayQuiet(completionHandler: done) }
    }

    /// Read Single Block (`20`).
    public func readSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8) async throws -> Data {
        try await Self.bridge { done in
            readSingleBlock(requestFlags: flags, blockNumber: blockNumber, resultHandler: done)
        }
    }

    /// Write Single Block (`21`).
    public func writeSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data
    ) async throws {
        try await Self.bridge { done in
            writeSingleBlock(
                requestFlags: flags, blockNumber: blockNumber, dataBlock: dataBlock, completionHandler: done)
        }
    }

    /// Lock Block (`22`).
    public func lockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8) async throws {
        try await Self.bridge { done in
            lockBlock(requestFlags: flags, blockNumber: blockNumber, completionHandler: done)
        }
    }

    /// Read Multiple Blocks (`23`).
    public func readMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws
        -> [Data]
    {
        try await Self.bridge { done in
            readMultipleBlocks(requestFlags: flags, blockRange: blockRange, resultHandler: done)
        }
    }

    /// Write Multiple Blocks (`24`).
    public func writeMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data]
    ) async throws {
        try await Self.bridge { done in
            writeMultipleBlocks(
                requestFlags: flags, blockRange: blockRange, dataBlocks: dataBlocks, completionHandler: done)
        }
    }

    /// Select (`25`).
    public func select(requestFlags flags: NFCISO15693RequestFlag) async throws {
        try await Self.bridge { done in select(requestFlags: flags, completionHandler: done) }
    }

    /// Reset to Ready (`26`).
    public func resetToReady(requestFlags flags: NFCISO15693RequestFlag) async throws {
        try await Self.bridge { done in resetToReady(requestFlags: flags, completionHandler: done) }
    }

    /// Write AFI (`27`).
    public func writeAFI(requestFlags flags: NFCISO15693RequestFlag, afi: UInt8) async throws {
        try await Self.bridge { done in writeAFI(requestFlags: flags, afi: afi, completionHandler: done) }
    }

    /// Lock AFI (`28`).
    public func lockAFI(requestFlags flags: NFCISO15693RequestFlag) async throws {
        try await Self.bridge { done in lockAFI(requestFlags: flags, completionHandler: done) }
    }

    /// Write DSFID (`29`).
    public func writeDSFID(requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8) async throws {
        try await Self.bridge { done in writeDSFID(requestFlags: flags, dsfid: dsfid, completionHandler: done) }
    }

    /// Lock DSFID (`2A`).
    public func lockDSFID(requestFlags flags: NFCISO15693RequestFlag) async throws {
        try await Self.bridge { done in lockDSFID(requestFlags: flags, completionHandler: done) }
    }

    /// Get System Information (`2B`) as ``NFCISO15693SystemInfo``.
    public func systemInfo(requestFlags flags: NFCISO15693RequestFlag) async throws -> NFCISO15693SystemInfo {
        try await Self.bridge { done in getSystemInfo(requestFlags: flags, resultHandler: done) }
    }

    /// Get Multiple Block Security Status (`2C`).
    public func getMultipleBlockSecurityStatus(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange)
        async throws -> [NSNumber]
    {
        try await Self.bridge { done in
            getMultipleBlockSecurityStatus(requestFlags: flags, blockRange: blockRange) { status, error in
                done(error.map { .failure($0) } ?? .success(status))
            }
        }
    }

    /// Fast Read Multiple Blocks (`2D`).
    public func fastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange) async throws
        -> [Data]
    {
        try await Self.bridge { done in
            fastReadMultipleBlocks(requestFlags: flags, blockRange: blockRange, resultHandler: done)
        }
    }

    /// A custom command (`A0`–`DF`).
    public func customCommand(
        requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data
    ) async throws -> Data {
        try await Self.bridge { done in
            customCommand(
                requestFlags: flags, customCommandCode: customCommandCode,
                customRequestParameters: customRequestParameters, resultHandler: done)
        }
    }

    /// Extended Read Single Block (`30`).
    public func extendedReadSingleBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int) async throws
        -> Data
    {
        try await Self.bridge { done in
            extendedReadSingleBlock(requestFlags: flags, blockNumber: blockNumber, resultHandler: done)
        }
    }

    /// Extended Write Single Block (`31`).
    public func extendedWriteSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data
    ) async throws {
        try await Self.bridge { done in
            extendedWriteSingleBlock(
                requestFlags: flags, blockNumber: blockNumber, dataBlock: dataBlock, completionHandler: done)
        }
    }

    /// Extended Lock Block (`32`).
    public func extendedLockBlock(requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int) async throws {
        try await Self.bridge { done in
            extendedLockBlock(requestFlags: flags, blockNumber: blockNumber, completionHandler: done)
        }
    }

    /// Extended Read Multiple Blocks (`33`).
    public func extendedReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange)
        async throws -> [Data]
    {
        try await Self.bridge { done in
            extendedReadMultipleBlocks(requestFlags: flags, blockRange: blockRange) { blocks, error in
                done(error.map { .failure($0) } ?? .success(blocks))
            }
        }
    }

    /// Extended Write Multiple Blocks (`34`).
    public func extendedWriteMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data]
    ) async throws {
        try await Self.bridge { done in
            extendedWriteMultipleBlocks(
                requestFlags: flags, blockRange: blockRange, dataBlocks: dataBlocks, completionHandler: done)
        }
    }

    /// Authenticate (`35`).
    public func authenticate(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data)
        async throws -> (NFCISO15693ResponseFlag, Data)
    {
        try await Self.bridge { done in
            authenticate(
                requestFlags: flags, cryptoSuiteIdentifier: cryptoSuiteIdentifier, message: message,
                resultHandler: done)
        }
    }

    /// Key Update (`36`).
    public func keyUpdate(requestFlags flags: NFCISO15693RequestFlag, keyIdentifier: Int, message: Data)
        async throws -> (NFCISO15693ResponseFlag, Data)
    {
        try await Self.bridge { done in
            keyUpdate(requestFlags: flags, keyIdentifier: keyIdentifier, message: message, resultHandler: done)
        }
    }

    /// Challenge (`39`).
    public func challenge(requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data)
        async throws
    {
        try await Self.bridge { done in
            challenge(
                requestFlags: flags, cryptoSuiteIdentifier: cryptoSuiteIdentifier, message: message,
                completionHandler: done)
        }
    }

    /// Read Buffer (`3A`).
    public func readBuffer(requestFlags flags: NFCISO15693RequestFlag) async throws -> (NFCISO15693ResponseFlag, Data) {
        try await Self.bridge { done in readBuffer(requestFlags: flags, resultHandler: done) }
    }

    /// Extended Get Multiple Block Security Status (`3C`).
    public func extendedGetMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange
    ) async throws -> NFCISO15693MultipleBlockSecurityStatus {
        try await Self.bridge { done in
            extendedGetMultipleBlockSecurityStatus(requestFlags: flags, blockRange: blockRange, resultHandler: done)
        }
    }

    /// Extended Fast Read Multiple Blocks (`3D`).
    public func extendedFastReadMultipleBlocks(requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange)
        async throws -> [Data]
    {
        try await Self.bridge { done in
            extendedFastReadMultipleBlocks(requestFlags: flags, blockRange: blockRange, resultHandler: done)
        }
    }

    /// Any request.
    public func sendRequest(requestFlags flags: Int, commandCode: Int, data: Data?) async throws -> (
        NFCISO15693ResponseFlag, Data?
    ) {
        try await Self.bridge { done in
            sendRequest(requestFlags: flags, commandCode: commandCode, data: data, resultHandler: done)
        }
    }

    // MARK: bridging

    private static func bridge<T: Sendable>(_ start: (@escaping @Sendable (Result<T, any Error>) -> Void) -> Void)
        async throws
        -> T
    {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<T, any Error>) in
            start { c.resume(with: $0) }
        }
    }

    private static func bridge(_ start: (@escaping @Sendable ((any Error)?) -> Void) -> Void) async throws {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            start { error in c.resume(with: error.map { .failure($0) } ?? .success(())) }
        }
    }
}
