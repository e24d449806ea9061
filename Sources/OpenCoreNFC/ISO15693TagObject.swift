internal import Foundation
internal import OpenNFCSystem
internal import OpenNFCTags

/// An `NFCISO15693Tag`: an NFC Forum Type 5 tag delivered to a session. Each command becomes one ISO/IEC 15693-3
/// request `flags command [UID] parameters` (§10.4 command formats; the frontend adds the CRC), sent through the
/// system's ``NFCSystem/sendISO15693(_:_:passingErrors:silent:)`` (docs/PARITY.md, docs/DIFFERENCES.md "Type 5
/// tags").
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

    // MARK: framing

    /// The request as Core NFC frames it.
    static func frame(_ flags: NFCISO15693RequestFlag, _ command: UInt8, uid: [UInt8], _ parameters: [UInt8])
        -> [UInt8]
    {
        var f = flags.rawValue & ~0x04
        if flags.contains(.select) {
            f &= ~NFCISO15693RequestFlag.address.rawValue
            return [f, command] + parameters
        }
        f |= NFCISO15693RequestFlag.address.rawValue
        return [f, command] + uid.reversed() + parameters
    }

    /// Sends a request and hands over the answer after its flags byte.
    private func request(
        _ flags: NFCISO15693RequestFlag, _ command: UInt8,
        _ parameters:
            @escaping @Sendable () throws(SystemError)
            -> [UInt8] = { [] },
        silent: Bool = false, then done: @escaping (Result<[UInt8], any Error>) -> Void
    ) {
        let (system, ref, uid) = (self.system, reference, delivered.identifier)
        perform(
            { () throws(SystemError) in
                let frame = Self.frame(flags, command, uid: uid, try parameters())
                return Array(try system.sendISO15693(ref, frame, silent: silent).dropFirst())
            }, then: done)
    }

    /// Sends a request whose answer flags reach the app: an error answer is passed through.
    private func rawRequest(
        _ frame: @escaping @Sendable () throws(SystemError) -> [UInt8],
        then done: @escaping (Result<(NFCISO15693ResponseFlag, [UInt8]), any Error>) -> Void
    ) {
        let (system, ref) = (self.system, reference)
        perform(
            { () throws(SystemError) in
                let answer = try system.sendISO15693(ref, try frame(), passingErrors: true)
                return (NFCISO15693ResponseFlag(rawValue: answer[0]), Array(answer.dropFirst()))
            }, then: done)
    }

    private var uid: [UInt8] { delivered.identifier }

    static func block(_ n: UInt8) -> [UInt8] { [n] }

    static func extendedBlock(_ n: Int) throws(SystemError) -> [UInt8] {
        guard (0...0xFFFF).contains(n) else {
            throw SystemError(.parameterOutOfBound, "block number \(n) is outside 0…65535")
        }
        return [UInt8(n & 0xFF), UInt8(n >> 8)]
    }

    /// First block and count − 1 (ISO/IEC 15693-3 §10.4.5), one byte each.
    static func range(_ r: NSRange) throws(SystemError) -> [UInt8] {
        guard r.location >= 0, r.location <= 0xFF, r.length >= 1, r.length <= 256, r.location + r.length <= 256
        else {
            throw SystemError(
                .parameterOutOfBound, "block range \(r.location)+\(r.length) is outside blocks 0…255 (1–256 blocks)")
        }
        return [UInt8(r.location), UInt8(r.length - 1)]
    }

    /// First block and count − 1, two bytes each, LSB first (the extended commands, §10.4.15 onwards).
    static func extendedRange(_ r: NSRange) throws(SystemError) -> [UInt8] {
        guard r.location >= 0, r.location <= 0xFFFF, r.length >= 1, r.length <= 0x10000,
            r.location + r.length <= 0x10000
        else {
            throw SystemError(
                .parameterOutOfBound,
                "block range \(r.location)+\(r.length) is outside blocks 0…65535 (1–65536 blocks)")
        }
        let last = r.length - 1
        return [UInt8(r.location & 0xFF), UInt8(r.location >> 8), UInt8(last & 0xFF), UInt8(last >> 8)]
    }

    /// The blocks to write, concatenated: as many as the range holds, all of one non-zero size.
    static func blocks(_ data: [Data], for r: NSRange) throws(SystemError) -> [UInt8] {
        guard data.count == r.length else {
            throw SystemError(
                .invalidParameterLength, "\(data.count) data blocks for a range of \(r.length) blocks")
        }
        guard let size = data.first?.count, size > 0, data.allSatisfy({ $0.count == size }) else {
            throw SystemError(.invalidParameterLength, "the data blocks are empty or not all of one size")
        }
        return data.flatMap { [UInt8]($0) }
    }

    /// The answer split into `count` blocks of one size.
    static func split(_ data: [UInt8], into count: Int) throws(SystemError) -> [Data] {
        guard count > 0, !data.isEmpty, data.count % count == 0 else {
            throw SystemError(
                .tagResponseError, "\(data.count) data bytes cannot be \(count) blocks", unexpectedLength: true)
        }
        let size = data.count / count
        return (0..<count).map { Data(data[($0 * size)..<(($0 + 1) * size)]) }
    }

    // MARK: iOS 13 commands

    func stayQuiet(completionHandler: @escaping @Sendable ((any Error)?) -> Void) {
        request([], 0x02, silent: true) { completionHandler($0.failure) }
    }

    func readSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
    ) {
        request(flags, 0x20, { [blockNumber] }) { Self.deliver($0, completionHandler) }
    }

    func writeSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8, dataBlock: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let data = [UInt8](dataBlock)
        request(
            flags, 0x21,
            { () throws(SystemError) in
                guard !data.isEmpty else { throw SystemError(.invalidParameterLength, "an empty data block") }
                return [blockNumber] + data
            }
        ) { completionHandler($0.failure) }
    }

    func lockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: UInt8,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, 0x22, { [blockNumber] }) { completionHandler($0.failure) }
    }

    func readMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void
    ) {
        readBlocks(flags, 0x23, blockRange, extended: false) { Self.deliver($0, completionHandler) }
    }

    func writeMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(
            flags, 0x24,
            { () throws(SystemError) in
                try Self.range(blockRange) + Self.blocks(dataBlocks, for: blockRange)
            }
        ) { completionHandler($0.failure) }
    }

    func select(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, 0x25) { completionHandler($0.failure) }
    }

    func resetToReady(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, 0x26) { completionHandler($0.failure) }
    }

    func writeAFI(
        requestFlags flags: NFCISO15693RequestFlag, afi: UInt8,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, 0x27, { [afi] }) { completionHandler($0.failure) }
    }

    func lockAFI(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, 0x28) { completionHandler($0.failure) }
    }

    func writeDSFID(
        requestFlags flags: NFCISO15693RequestFlag, dsfid: UInt8,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, 0x29, { [dsfid] }) { completionHandler($0.failure) }
    }

    func lockDFSID(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        lockDSFID(requestFlags: flags, completionHandler: completionHandler)
    }

    func lockDSFID(
        requestFlags flags: NFCISO15693RequestFlag, completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, 0x2A) { completionHandler($0.failure) }
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
        let (system, ref, uid) = (self.system, reference, self.uid)
        perform(
            { () throws(SystemError) in
                let answer = Array(try system.sendISO15693(ref, Self.frame(flags, 0x2B, uid: uid, [])).dropFirst())
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
        securityStatus(flags, 0x2C, blockRange, extended: false) { result in
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
        readBlocks(flags, 0x2D, blockRange, extended: false, then: resultHandler)
    }

    func customCommand(
        requestFlags flags: NFCISO15693RequestFlag, customCommandCode: Int, customRequestParameters: Data,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
    ) {
        let (parameters, manufacturer) = ([UInt8](customRequestParameters), UInt8(icManufacturerCode & 0xFF))
        let (system, ref, uid) = (self.system, reference, self.uid)
        perform({ () throws(SystemError) in
            guard (0xA0...0xDF).contains(customCommandCode) else {
                throw SystemError(.parameterOutOfBound, "custom command code \(customCommandCode) is outside A0…DF")
            }
            // ISO/IEC 15693-3 §10.5: a custom request carries the IC manufacturer code after the command code.
            var frame = Self.frame(flags, UInt8(customCommandCode), uid: [], [])
            frame += [manufacturer] + (flags.contains(.select) ? [] : uid.reversed()) + parameters
            return Array(try system.sendISO15693(ref, frame).dropFirst())
        }) { Self.deliver($0, completionHandler) }
    }

    func extendedReadSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
        completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void
    ) {
        request(flags, 0x30, { () throws(SystemError) in try Self.extendedBlock(blockNumber) }) {
            Self.deliver($0, completionHandler)
        }
    }

    func extendedWriteSingleBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int, dataBlock: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        let data = [UInt8](dataBlock)
        request(
            flags, 0x31,
            { () throws(SystemError) in
                guard !data.isEmpty else { throw SystemError(.invalidParameterLength, "an empty data block") }
                return try Self.extendedBlock(blockNumber) + data
            }
        ) { completionHandler($0.failure) }
    }

    func extendedLockBlock(
        requestFlags flags: NFCISO15693RequestFlag, blockNumber: Int,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(flags, 0x32, { () throws(SystemError) in try Self.extendedBlock(blockNumber) }) {
            completionHandler($0.failure)
        }
    }

    func extendedReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void
    ) {
        readBlocks(flags, 0x33, blockRange, extended: true) { Self.deliver($0, completionHandler) }
    }

    // MARK: iOS 14 commands

    func extendedWriteMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange, dataBlocks: [Data],
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        request(
            flags, 0x34,
            { () throws(SystemError) in
                try Self.extendedRange(blockRange) + Self.blocks(dataBlocks, for: blockRange)
            }
        ) { completionHandler($0.failure) }
    }

    func authenticate(
        requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        cryptoRequest(flags, 0x35, cryptoSuiteIdentifier, "crypto suite identifier", message, resultHandler)
    }

    func keyUpdate(
        requestFlags flags: NFCISO15693RequestFlag, keyIdentifier: Int, message: Data,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        cryptoRequest(flags, 0x36, keyIdentifier, "key identifier", message, resultHandler)
    }

    func challenge(
        requestFlags flags: NFCISO15693RequestFlag, cryptoSuiteIdentifier: Int, message: Data,
        completionHandler: @escaping @Sendable ((any Error)?) -> Void
    ) {
        // ISO/IEC 15693-3:2019 §10.4.26: tags answer no Challenge; they compute into their buffer (Read Buffer).
        let bytes = [UInt8](message)
        request(
            flags, 0x39,
            { () throws(SystemError) in
                [try Self.byte(cryptoSuiteIdentifier, "crypto suite identifier")] + bytes
            }, silent: true
        ) { completionHandler($0.failure) }
    }

    func readBuffer(
        requestFlags flags: NFCISO15693RequestFlag,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        let uid = self.uid
        rawRequest({ Self.frame(flags, 0x3A, uid: uid, []) }) { resultHandler($0.map { ($0.0, Data($0.1)) }) }
    }

    func extendedGetMultipleBlockSecurityStatus(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<NFCISO15693MultipleBlockSecurityStatus, any Error>) -> Void
    ) {
        securityStatus(flags, 0x3C, blockRange, extended: true) { result in
            resultHandler(result.map { NFCISO15693MultipleBlockSecurityStatus(blockSecurityStatus: $0) })
        }
    }

    func extendedFastReadMultipleBlocks(
        requestFlags flags: NFCISO15693RequestFlag, blockRange: NSRange,
        resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void
    ) {
        readBlocks(flags, 0x3D, blockRange, extended: true, then: resultHandler)
    }

    func sendRequest(
        requestFlags flags: Int, commandCode: Int, data: Data?,
        resultHandler: @escaping @Sendable (Result<(NFCISO15693ResponseFlag, Data?), any Error>) -> Void
    ) {
        let bytes = data.map { [UInt8]($0) } ?? []
        rawRequest({ () throws(SystemError) in
            [try Self.byte(flags, "request flags"), try Self.byte(commandCode, "command code")] + bytes
        }) { resultHandler($0.map { ($0.0, $0.1.isEmpty ? nil : Data($0.1)) }) }
    }

    // MARK: shared shapes

    private func readBlocks(
        _ flags: NFCISO15693RequestFlag, _ command: UInt8, _ r: NSRange, extended: Bool,
        then done: @escaping (Result<[Data], any Error>) -> Void
    ) {
        let (system, ref, uid) = (self.system, reference, self.uid)
        perform(
            { () throws(SystemError) in
                let parameters = extended ? try Self.extendedRange(r) : try Self.range(r)
                let answer = try system.sendISO15693(ref, Self.frame(flags, command, uid: uid, parameters))
                return try Self.split(Array(answer.dropFirst()), into: r.length)
            }, then: done)
    }

    private func securityStatus(
        _ flags: NFCISO15693RequestFlag, _ command: UInt8, _ r: NSRange, extended: Bool,
        then done: @escaping (Result<[Int], any Error>) -> Void
    ) {
        let (system, ref, uid) = (self.system, reference, self.uid)
        perform(
            { () throws(SystemError) in
                let parameters = extended ? try Self.extendedRange(r) : try Self.range(r)
                let status = Array(
                    try system.sendISO15693(ref, Self.frame(flags, command, uid: uid, parameters)).dropFirst())
                guard status.count == r.length else {
                    throw SystemError(
                        .tagResponseError, "\(status.count) status bytes for \(r.length) blocks", unexpectedLength: true
                    )
                }
                return status.map(Int.init)
            }, then: done)
    }

    private func cryptoRequest(
        _ flags: NFCISO15693RequestFlag, _ command: UInt8, _ identifier: Int, _ what: String, _ message: Data,
        _ done: @escaping (Result<(NFCISO15693ResponseFlag, Data), any Error>) -> Void
    ) {
        let (uid, bytes) = (self.uid, [UInt8](message))
        rawRequest({ () throws(SystemError) in
            Self.frame(flags, command, uid: uid, [try Self.byte(identifier, what)] + bytes)
        }) { done($0.map { ($0.0, Data($0.1)) }) }
    }

    static func byte(_ value: Int, _ what: String) throws(SystemError) -> UInt8 {
        guard (0...0xFF).contains(value) else {
            throw SystemError(.parameterOutOfBound, "\(what) \(value) is not a byte")
        }
        return UInt8(value)
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
