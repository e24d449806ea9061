public import Foundation

/// A FeliCa card (Apple's Core NFC documentation; docs/PARITY.md §9.2), delivered to tag reader sessions polling
/// `.iso18092` once a system code declared in the Info.plist answers Polling. Every command is one FeliCa frame to
/// the system selected by the last Polling (`currentIDm`); LEN and CRC are added by the reader. When the error is
/// non-nil the other values of a completion handler are meaningless. Status Flag 1 and 2 are the card's own report
/// (zero on success) and come with a nil error.
public protocol NFCFeliCaTag: __NFCTag, NFCNDEFTag {
    /// The system code most recently selected by Polling (2 bytes, as in the Info.plist).
    var currentSystemCode: Data { get }
    /// The IDm from the most recent Polling; empty when that Polling found no system.
    var currentIDm: Data { get }

    /// Polling (`00`) for a declared system code: (PMm, request data). The request data is empty unless
    /// `requestCode` asks for it and the card sends it. Updates `currentIDm` and `currentSystemCode`.
    @preconcurrency func polling(
        systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot,
        completionHandler: @escaping @Sendable (Data, Data, (any Error)?) -> Void)
    /// Request Service (`02`): the key version of each node (1…32 node codes, 2 bytes little-endian each).
    @preconcurrency func requestService(
        nodeCodeList: [Data], completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void)
    /// Request Response (`04`): the card's mode (0…3).
    @preconcurrency func requestResponse(completionHandler: @escaping @Sendable (Int, (any Error)?) -> Void)
    /// Read Without Encryption (`06`): Status Flag 1, Status Flag 2, and the 16-byte blocks.
    @preconcurrency func readWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data],
        completionHandler: @escaping @Sendable (Int, Int, [Data], (any Error)?) -> Void
    )
    /// Write Without Encryption (`08`): Status Flag 1 and 2. `blockData` has one 16-byte block per `blockList` element.
    @preconcurrency func writeWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data], blockData: [Data],
        completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void)
    /// Request System Code (`0C`): the card's system codes, 2 bytes each.
    @preconcurrency func requestSystemCode(completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void)
    /// Request Service V2 (`32`): Status Flags, encryption identifier, AES and DES key versions.
    @preconcurrency func requestServiceV2(
        nodeCodeList: [Data],
        completionHandler: @escaping @Sendable (Int, Int, NFCFeliCaEncryptionId, [Data], [Data], (any Error)?) -> Void)
    /// Request Specification Version (`3C`): Status Flags, basic version, option versions.
    @preconcurrency func requestSpecificationVersion(
        completionHandler: @escaping @Sendable (Int, Int, Data, Data, (any Error)?) -> Void)
    /// Reset Mode (`3E`): Status Flags; the card returns to Mode 0.
    @preconcurrency func resetMode(completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void)
    /// Sends a packet `code IDm parameters` (at most 254 bytes, without LEN; the LEN byte and the CRC are added) and
    /// returns the answer without LEN, starting with its response code (docs/DIFFERENCES.md "FeliCa").
    @preconcurrency func sendFeliCaCommand(
        commandPacket: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void)
}

/// The imported `async` forms and the iOS 14 overlay's `Result` forms.
extension NFCFeliCaTag {
    public func polling(
        systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot
    ) async throws -> (Data, Data) {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<(Data, Data), any Error>) in
            polling(systemCode: systemCode, requestCode: requestCode, timeSlot: timeSlot) { pmm, rd, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: (pmm, rd)) }
            }
        }
    }

    @preconcurrency public func polling(
        systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot,
        resultHandler: @escaping @Sendable (Result<NFCFeliCaPollingResponse, any Error>) -> Void
    ) {
        polling(systemCode: systemCode, requestCode: requestCode, timeSlot: timeSlot) { pmm, rd, error in
            if let error { return resultHandler(.failure(error)) }
            resultHandler(
                .success(NFCFeliCaPollingResponse(manufactureParameter: pmm, requestData: rd.isEmpty ? nil : rd)))
        }
    }

    public func requestService(nodeCodeList: [Data]) async throws -> [Data] {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<[Data], any Error>) in
            requestService(nodeCodeList: nodeCodeList) { versions, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: versions) }
            }
        }
    }

    @preconcurrency public func requestService(
        nodeCodeList: [Data], resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void
    ) {
        requestService(nodeCodeList: nodeCodeList) { versions, error in
            resultHandler(error.map { .failure($0) } ?? .success(versions))
        }
    }

    public func requestResponse() async throws -> Int {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Int, any Error>) in
            requestResponse { mode, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: mode) }
            }
        }
    }

    @preconcurrency public func requestResponse(resultHandler: @escaping @Sendable (Result<Int, any Error>) -> Void) {
        requestResponse { mode, error in resultHandler(error.map { .failure($0) } ?? .success(mode)) }
    }

    public func readWithoutEncryption(serviceCodeList: [Data], blockList: [Data]) async throws -> (Int, Int, [Data]) {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<(Int, Int, [Data]), any Error>) in
            readWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList) { sf1, sf2, blocks, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: (sf1, sf2, blocks)) }
            }
        }
    }

    @preconcurrency public func readWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data],
        resultHandler: @escaping @Sendable (Result<(NFCFeliCaStatusFlag, [Data]), any Error>) -> Void
    ) {
        readWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList) { sf1, sf2, blocks, error in
            if let error { return resultHandler(.failure(error)) }
            resultHandler(.success((NFCFeliCaStatusFlag(statusFlag1: sf1, statusFlag2: sf2), blocks)))
        }
    }

    public func writeWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data], blockData: [Data]
    ) async throws -> (Int, Int) {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<(Int, Int), any Error>) in
            writeWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList, blockData: blockData) {
                sf1, sf2, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: (sf1, sf2)) }
            }
        }
    }

    @preconcurrency public func writeWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data], blockData: [Data],
        resultHandler: @escaping @Sendable (Result<NFCFeliCaStatusFlag, any Error>) -> Void
    ) {
        writeWithoutEncryption(serviceCodeList: serviceCodeList, blockList: blockList, blockData: blockData) {
            sf1, sf2, error in
            if let error { return resultHandler(.failure(error)) }
            resultHandler(.success(NFCFeliCaStatusFlag(statusFlag1: sf1, statusFlag2: sf2)))
        }
    }

    public func requestSystemCode() async throws -> [Data] {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<[Data], any Error>) in
            requestSystemCode { codes, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: codes) }
            }
        }
    }

    @preconcurrency public func requestSystemCode(
        resultHandler: @escaping @Sendable (Result<[Data], any Error>) -> Void
    ) {
        requestSystemCode { codes, error in resultHandler(error.map { .failure($0) } ?? .success(codes)) }
    }

    public func requestServiceV2(
        nodeCodeList: [Data]
    ) async throws -> (Int, Int, NFCFeliCaEncryptionId, [Data], [Data]) {
        try await withCheckedThrowingContinuation {
            (c: CheckedContinuation<(Int, Int, NFCFeliCaEncryptionId, [Data], [Data]), any Error>) in
            requestServiceV2(nodeCodeList: nodeCodeList) { sf1, sf2, id, aes, des, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: (sf1, sf2, id, aes, des)) }
            }
        }
    }

    @preconcurrency public func requestServiceV2(
        nodeCodeList: [Data],
        resultHandler: @escaping @Sendable (Result<NFCFeliCaRequsetServiceV2Response, any Error>) -> Void
    ) {
        requestServiceV2(nodeCodeList: nodeCodeList) { sf1, sf2, id, aes, des, error in
            if let error { return resultHandler(.failure(error)) }
            resultHandler(
                .success(
                    NFCFeliCaRequsetServiceV2Response(
                        statusFlag1: sf1, statusFlag2: sf2, encryptionIdentifier: id,
                        nodeKeyVersionListAES: sf1 == 0 ? aes : nil, nodeKeyVersionListDES: des.isEmpty ? nil : des)))
        }
    }

    public func requestSpecificationVersion() async throws -> (Int, Int, Data, Data) {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<(Int, Int, Data, Data), any Error>) in
            requestSpecificationVersion { sf1, sf2, basic, option, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: (sf1, sf2, basic, option)) }
            }
        }
    }

    @preconcurrency public func requestSpecificationVersion(
        resultHandler: @escaping @Sendable (Result<NFCFeliCaRequestSpecificationVersionResponse, any Error>) -> Void
    ) {
        requestSpecificationVersion { sf1, sf2, basic, option, error in
            if let error { return resultHandler(.failure(error)) }
            resultHandler(
                .success(
                    NFCFeliCaRequestSpecificationVersionResponse(
                        statusFlag1: sf1, statusFlag2: sf2, basicVersion: sf1 == 0 ? basic : nil,
                        optionVersion: sf1 == 0 ? option : nil)))
        }
    }

    public func resetMode() async throws -> (Int, Int) {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<(Int, Int), any Error>) in
            resetMode { sf1, sf2, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: (sf1, sf2)) }
            }
        }
    }

    @preconcurrency public func resetMode(
        resultHandler: @escaping @Sendable (Result<NFCFeliCaStatusFlag, any Error>) -> Void
    ) {
        resetMode { sf1, sf2, error in
            if let error { return resultHandler(.failure(error)) }
            resultHandler(.success(NFCFeliCaStatusFlag(statusFlag1: sf1, statusFlag2: sf2)))
        }
    }

    public func sendFeliCaCommand(commandPacket: Data) async throws -> Data {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Data, any Error>) in
            sendFeliCaCommand(commandPacket: commandPacket) { data, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: data) }
            }
        }
    }

    @preconcurrency public func sendFeliCaCommand(
        commandPacket: Data, resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void
    ) {
        sendFeliCaCommand(commandPacket: commandPacket) { data, error in
            resultHandler(error.map { .failure($0) } ?? .success(data))
        }
    }
}
