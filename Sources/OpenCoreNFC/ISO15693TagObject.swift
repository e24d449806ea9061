internal import Foundation
internal import OpenNFCSystem
internal import OpenNFCTags

/// An `NFCISO15693Tag`: an NFC Forum Type 5 tag delivered to a session. Each command checks Apple's parameters and
/// becomes one ``ISO15693Request`` (framed in `OpenNFCTags/Type5/`, §10.4 command formats) sent with the app's request
/// flags through the system's ``NFCSystem/iso15693(_:flags:_:passingErrors:silent:)`` (NFCSystem+ISO15693.swift;
/// docs/PARITY.md, docs/DIFFERENCES.md "Type 5 tags").
///
/// | Rule | What is done |
/// |---|---|
/// | Address flag | set, with the UID LSB first after the command code; ``NFCISO15693RequestFlag/select`` clears it and sends no UID; the Inventory flag (bit 3) is always cleared |
/// | Ranges | `blockRange` start 0–255 and 1–256 blocks ending by block 255 (extended: 0–65535, 1–65536, ending by 65535), else 5 (parameter out of bound); extended block numbers 0–65535, else 5 |
/// | Data | `dataBlocks.count` equal to the range's length and every block the same non-zero size, else 4 (invalid parameter length); custom command codes `A0`–`DF`, else 5 |
/// | Answers | the Error flag → 102 with the code under `NFCISO15693TagResponseErrorKey` (except the commands that return the response flags); an answer that cannot be split into the range's blocks → 102 with `NFCTagResponseUnexpectedLengthErrorKey` |
final class ISO15693TagObject: TagObject, NFCISO15693Tag, @unchecked Sendable {
    override var type: __NFCTagType { .iso15693 }
    /// The UID MSB first (`E0 …`), as Core NFC reports it.
    var identifier: Data { Data(delivered.identifier) }
    var icManufacturerCode: Int { delivered.identifier.count == 8 ? Int(delivered.identifier[1]) : 0 }
    var icSerialNumber: Data { Data(delivered.identifier.dropFirst(2)) }

    // MARK: requests

    /// Sends a request and hands over the answer after its flags byte.
    private func request(
        _ flags: NFCISO15693RequestFlag,
        _ request: @escaping @Sendable () throws(SystemError) -> ISO15693Request,
        silent: Bool = false, then done: @escaping (Result<[UInt8], any Error>) -> Void
    ) {
        let (system, ref) = (self.system, reference)
        perform(
            { () throws(SystemError) in
                Array(try system.iso15693(ref, flags: flags.rawValue, try request(), silent: silent).dropFirst())
            }, then: done)
    }

    /// Sends a request whose answer flags reach the app: an error answer is passed through.
    private func rawRequest(
        _ send: @escaping @Sendable (NFCSystem, TagReference) throws(SystemError) -> [UInt8],
        then done: @escaping (Result<(NFCISO15693ResponseFlag, [UInt8]), any Error>) -> Void
    ) {
        let (system, ref) = (self.system, reference)
        perform(
            { () throws(SystemError) in
                let answer = try send(system, ref)
                return (NFCISO15693ResponseFlag(rawValue: answer[0]), Array(answer.dropFirst()))
            }, then: done)
    }

    /// Runs a System operation and hands its outcome to `done`.
    private func run<T>(
        _ work: @escaping @Sendable (NFCSystem, TagReference) throws(SystemError) -> T,
        _ done: @escaping (Result<T, any Error>) -> Void
    ) {
        let (system, ref) = (self.system, reference)
        perform({ () throws(SystemError) in try work(system, ref) }, then: done)
    }

    static func extendedBlock(_ n: Int) throws(SystemError) -> Int { try NFCSystem.checkISO15693ExtendedBlock(n) }
    static func byte(_ value: Int, _ what: String) throws(SystemError) -> UInt8 {
        try NFCSystem.checkISO15693Byte(value, what)
    }
    private static func bytes(_ data: [Data]) -> [[UInt8]] { data.map { [UInt8]($0) } }

    // MARK: iOS 13 commands

    func stayQuiet(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        request([], { .stayQuiet }, silent: true) { completionHandler($0.failure) }
    }

    func readSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
    ) {
        request(flags, { .readSingleBlock(Int(blockNumber)) }) { Self.deliver($0, completionHandler) }
    }

    func writeSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let data = [UInt8](dataBlock)
        request(
            flags,
            { () throws(SystemError) in
                guard !data.isEmpty else { throw SystemError(.invalidParameterLength, "an empty data block") }
                return .writeSingleBlock(Int(blockNumber), data)
            }
        ) { completionHandler($0.failure) }
    }

    func lockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, { .lockBlock(Int(blockNumber)) }) { completionHandler($0.failure) }
    }

    func readMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void
    ) {
        readBlocks(flags, blockRange, extended: false, fast: false) {
            Self.deliver($0, completionHandler)
        }
    }

    func writeMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        writeBlocks(flags, blockRange, dataBlocks, extended: false) { completionHandler($0.failure) }
    }

    func select(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, { .select }) { completionHandler($0.failure) }
    }

    func resetToReady(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, { .resetToReady }) { completionHandler($0.failure) }
    }

    func writeAFI(
        requestFlags flags: NFCISO15693RequestFlag, afi: UInt8,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, { .writeAFI(afi) }) { completionHandler($0.failure) }
    }

    func lockAFI(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, { .lockAFI }) { completionHandler($0.failure) }
    }

    func writeDSFID(
        requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, { .writeDSFID(dsfid) }) { completionHandler($0.failure) }
    }

    func lockDFSID(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        lockDSFID(requestFlags: flags, completionHandler: completionHandler)
    }

    func lockDSFID(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, { .lockDSFID }) { completionHandler($0.failure) }
    }

    func getSystemInfo(
        requestFlags flags: NFCISO15693RequestFlag,
        completionHandler: @escaping @Sendable (Int, Int, Int, Int, Int, (any Error)?) -> Void
    ) {
        getSystemInfo(requestFlags: flags) { (result: Result<NFCISO15693SystemInfo, any Error>) in
            switch result {
            case .success(let i):
                completionHandler(
                    i.dataStorageFormatIdentifier, i.applicationFamilyIdentifier, i.blockSize, i.totalBlocks,
                    i.icReference, nil)
            case .failure(let e): completionHandler(-1, -1, -1, -1, -1, e)
            }
        }
    }

    func getSystemInfo(
        requestFlags flags: NFCISO15693RequestFlag,
        resultHandler: @escaping @Sendable (Result<NFCISO15693SystemInfo, any Error>) -> Void
    ) {
        let (system, ref) = (self.system, reference)
        perform(
            { () throws(SystemError) in
                let answer = Array(try system.iso15693(ref, flags: flags.rawValue, .getSystemInformation).dropFirst())
                var problem = ""
                guard let info = Type5SystemInfo(getSystemInformationAnswer: answer, problem: &problem) else {
                    throw SystemError(.tagResponseError, problem, unexpectedLength: true)
                }
                return NFCISO15693SystemInfo(
                    uniqueIdentifier: Data(answer[1..<9]), dataStorageFormatIdentifier: info.dsfid.map(Int.init) ?? -1,
                    applicationFamilyIdentifier: info.afi.map(Int.init) ?? -1, blockSize: info.blockSize ?? -1,
                    totalBlocks: info.blockCount ?? -1, icReference: info.icReference.map(Int.init) ?? -1)
            }, then: resultHandler)
    }

    func getMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([NSNumber], (any Error)?) -> Void
    ) {
        securityStatus(flags, blockRange, extended: false) { result in
            switch result {
            case .success(let s): completionHandler(s.map { NSNumber(value: $0) }, nil)
            case .failure(let e): completionHandler([], e)
            }
        }
    }

    func fastReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void
    ) {
        readBlocks(flags, blockRange, extended: false, fast: true, then: resultHandler)
    }

    func customCommand(
        requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
    ) {
        let parameters = [UInt8](customRequestParameters)
        request(
            flags,
            { () throws(SystemError) in
                guard (0xA0...0xDF).contains(customCommandCode) else {
                    throw SystemError(
                        .parameterOutOfBound, "custom command code \(customCommandCode) is outside A0…DF")
                }
                return .custom(UInt8(customCommandCode), parameters)
            }
        ) { Self.deliver($0, completionHandler) }
    }

    func extendedReadSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
    ) {
        request(
            flags, { () throws(SystemError) in .readSingleBlock(try Self.extendedBlock(blockNumber), extended: true) }
        ) { Self.deliver($0, completionHandler) }
    }

    func extendedWriteSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let data = [UInt8](dataBlock)
        request(
            flags,
            { () throws(SystemError) in
                guard !data.isEmpty else { throw SystemError(.invalidParameterLength, "an empty data block") }
                return .writeSingleBlock(try Self.extendedBlock(blockNumber), data, extended: true)
            }
        ) { completionHandler($0.failure) }
    }

    func extendedLockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, { () throws(SystemError) in .lockBlock(try Self.extendedBlock(blockNumber), extended: true) }) {
            completionHandler($0.failure)
        }
    }

    func extendedReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void
    ) {
        readBlocks(flags, blockRange, extended: true, fast: false) {
            Self.deliver($0, completionHandler)
        }
    }

    // MARK: iOS 14 commands

    func extendedWriteMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        writeBlocks(flags, blockRange, dataBlocks, extended: true) { completionHandler($0.failure) }
    }

    func authenticate(
        requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        let bytes = [UInt8](message)
        cryptoRequest(
            flags,
            { () throws(SystemError) in
                .authenticate(cryptoSuite: try Self.byte(cryptoSuiteIdentifier, "crypto suite identifier"), bytes)
            }, resultHandler)
    }

    func keyUpdate(
        requestFlags flags: NFCISO15693RequestFlag, keyIdentifier: Int, message: Data,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        let bytes = [UInt8](message)
        cryptoRequest(
            flags,
            { () throws(SystemError) in .keyUpdate(keyIdentifier: try Self.byte(keyIdentifier, "key identifier"), bytes)
            }, resultHandler)
    }

    func challenge(
        requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        // ISO/IEC 15693-3:2019 §10.4.26: tags answer no Challenge; they compute into their buffer (Read Buffer).
        let bytes = [UInt8](message)
        request(
            flags,
            { () throws(SystemError) in
                .challenge(cryptoSuite: try Self.byte(cryptoSuiteIdentifier, "crypto suite identifier"), bytes)
            }, silent: true
        ) { completionHandler($0.failure) }
    }

    func readBuffer(
        requestFlags flags: NFCISO15693RequestFlag,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        cryptoRequest(flags, { .readBuffer }, resultHandler)
    }

    func extendedGetMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<NFCISO15693MultipleBlockSecurityStatus, any Error>) -> Void
    ) {
        securityStatus(flags, blockRange, extended: true) { result in
            resultHandler(result.map { NFCISO15693MultipleBlockSecurityStatus(blockSecurityStatus: $0) })
        }
    }

    func extendedFastReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void
    ) {
        readBlocks(flags, blockRange, extended: true, fast: true, then: resultHandler)
    }

    func sendRequest(
        requestFlags flags: Int, commandCode: Int, data: Data?,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data?), any Error>) -> Void
    ) {
        // The app's own frame: its flags, its command code, its data, nothing added.
        let bytes = data.map { [UInt8]($0) } ?? []
        rawRequest({ (system, ref) throws(SystemError) in
            let frame = [try Self.byte(flags, "request flags"), try Self.byte(commandCode, "command code")] + bytes
            return try system.sendISO15693(ref, frame, passingErrors: true)
        }) { resultHandler($0.map { ($0.0, $0.1.isEmpty ? nil : Data($0.1)) }) }
    }

    // MARK: shared shapes

    private func readBlocks(
        _ flags: NFCISO15693RequestFlag, _ r: NSRange, extended: Bool, fast: Bool,
        then done: @escaping (Result<[Data], any Error>) -> Void
    ) {
        run(
            { (system, ref) throws(SystemError) in
                try system.iso15693ReadBlocks(
                    ref, flags: flags.rawValue, first: r.location, count: r.length, extended: extended, fast: fast
                ).map { Data($0) }
            }, done)
    }

    private func writeBlocks(
        _ flags: NFCISO15693RequestFlag, _ r: NSRange, _ data: [Data], extended: Bool,
        then done: @escaping (Result<Void, any Error>) -> Void
    ) {
        let blocks = Self.bytes(data)
        run(
            { (system, ref) throws(SystemError) in
                try system.iso15693WriteBlocks(
                    ref, flags: flags.rawValue, first: r.location, count: r.length, data: blocks, extended: extended)
            }, done)
    }

    private func securityStatus(
        _ flags: NFCISO15693RequestFlag, _ r: NSRange, extended: Bool,
        then done: @escaping (Result<[Int], any Error>) -> Void
    ) {
        run(
            { (system, ref) throws(SystemError) in
                try system.iso15693SecurityStatus(
                    ref, flags: flags.rawValue, first: r.location, count: r.length, extended: extended)
            }, done)
    }

    /// A request whose answer flags reach the app (Authenticate, Key Update, Read Buffer).
    private func cryptoRequest(
        _ flags: NFCISO15693RequestFlag, _ request: @escaping @Sendable () throws(SystemError) -> ISO15693Request,
        _ done: @escaping (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        rawRequest({ (system, ref) throws(SystemError) in
            try system.iso15693(ref, flags: flags.rawValue, try request(), passingErrors: true)
        }) { done($0.map { ($0.0, Data($0.1)) }) }
    }

    private static func deliver(_ r: Result<[UInt8], any Error>, _ done: (Data, (any Error)?) -> Void) {
        switch r {
        case .success(let b): done(Data(b), nil)
        case .failure(let e): done(Data(), e)
        }
    }

    private static func deliver(_ r: Result<[Data], any Error>, _ done: ([Data], (any Error)?) -> Void) {
        switch r {
        case .success(let b): done(b, nil)
        case .failure(let e): done([], e)
        }
    }
}
