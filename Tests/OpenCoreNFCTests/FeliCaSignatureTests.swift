import Foundation
import OpenCoreNFC
import Testing

/// Binds every `NFCFeliCaTag` member and FeliCa type to Apple's exact signature (docs/PARITY.md §9): a drift in a
/// name, label, optionality or type breaks the build. The raw values are checked at run time.
@Suite struct FeliCaSignatureTests {
    @Test func rawValuesAreApples() {
        #expect(NFCFeliCaPollingRequestCode(rawValue: 1) == .systemCode)
        #expect(NFCFeliCaPollingTimeSlot(rawValue: 7) == .max8)
        #expect(NFCFeliCaEncryptionId(rawValue: 79) == .AES && NFCFeliCaEncryptionId(rawValue: 65) == .AES_DES)
    }
}

func bindFeliCaTag<F: NFCFeliCaTag>(_ f: F) {
    let _: Data = f.currentSystemCode
    let _: Data = f.currentIDm
    let _:
        (
            Data, NFCFeliCaPollingRequestCode, NFCFeliCaPollingTimeSlot,
            @escaping @Sendable (Data, Data, (any Error)?) -> Void
        ) -> Void = f.polling(systemCode:requestCode:timeSlot:completionHandler:)
    let _: (Data, NFCFeliCaPollingRequestCode, NFCFeliCaPollingTimeSlot) async throws -> (Data, Data) =
        f.polling(systemCode:requestCode:timeSlot:)
    let _:
        (
            Data, NFCFeliCaPollingRequestCode, NFCFeliCaPollingTimeSlot,
            @escaping @Sendable (Result<NFCFeliCaPollingResponse, any Error>) -> Void
        ) -> Void = f.polling(systemCode:requestCode:timeSlot:resultHandler:)
    let _: ([Data], @escaping @Sendable ([Data], (any Error)?) -> Void) -> Void = f.requestService(
        nodeCodeList:completionHandler:)
    let _: ([Data]) async throws -> [Data] = f.requestService(nodeCodeList:)
    let _: ([Data], @escaping @Sendable (Result<[Data], any Error>) -> Void) -> Void = f.requestService(
        nodeCodeList:resultHandler:)
    let _: (@escaping @Sendable (Int, (any Error)?) -> Void) -> Void = f.requestResponse(completionHandler:)
    let _: () async throws -> Int = f.requestResponse
    let _: (@escaping @Sendable (Result<Int, any Error>) -> Void) -> Void = f.requestResponse(resultHandler:)
    let _: ([Data], [Data], @escaping @Sendable (Int, Int, [Data], (any Error)?) -> Void) -> Void =
        f.readWithoutEncryption(serviceCodeList:blockList:completionHandler:)
    let _: ([Data], [Data]) async throws -> (Int, Int, [Data]) = f.readWithoutEncryption(
        serviceCodeList:blockList:)
    let _: ([Data], [Data], @escaping @Sendable (Result<(NFCFeliCaStatusFlag, [Data]), any Error>) -> Void) -> Void =
        f.readWithoutEncryption(serviceCodeList:blockList:resultHandler:)
    let _: ([Data], [Data], [Data], @escaping @Sendable (Int, Int, (any Error)?) -> Void) -> Void =
        f.writeWithoutEncryption(serviceCodeList:blockList:blockData:completionHandler:)
    let _: ([Data], [Data], [Data]) async throws -> (Int, Int) = f.writeWithoutEncryption(
        serviceCodeList:blockList:blockData:)
    let _: ([Data], [Data], [Data], @escaping @Sendable (Result<NFCFeliCaStatusFlag, any Error>) -> Void) -> Void =
        f.writeWithoutEncryption(serviceCodeList:blockList:blockData:resultHandler:)
    let _: (@escaping @Sendable ([Data], (any Error)?) -> Void) -> Void = f.requestSystemCode(completionHandler:)
    let _: () async throws -> [Data] = f.requestSystemCode
    let _: (@escaping @Sendable (Result<[Data], any Error>) -> Void) -> Void = f.requestSystemCode(resultHandler:)
    let _:
        ([Data], @escaping @Sendable (Int, Int, NFCFeliCaEncryptionId, [Data], [Data], (any Error)?) -> Void) -> Void =
            f.requestServiceV2(nodeCodeList:completionHandler:)
    let _: ([Data]) async throws -> (Int, Int, NFCFeliCaEncryptionId, [Data], [Data]) = f.requestServiceV2(
        nodeCodeList:)
    let _: ([Data], @escaping @Sendable (Result<NFCFeliCaRequsetServiceV2Response, any Error>) -> Void) -> Void =
        f.requestServiceV2(nodeCodeList:resultHandler:)
    let _: (@escaping @Sendable (Int, Int, Data, Data, (any Error)?) -> Void) -> Void = f.requestSpecificationVersion(
        completionHandler:)
    let _: () async throws -> (Int, Int, Data, Data) = f.requestSpecificationVersion
    let _: (@escaping @Sendable (Result<NFCFeliCaRequestSpecificationVersionResponse, any Error>) -> Void) -> Void =
        f.requestSpecificationVersion(resultHandler:)
    let _: (@escaping @Sendable (Int, Int, (any Error)?) -> Void) -> Void = f.resetMode(completionHandler:)
    let _: () async throws -> (Int, Int) = f.resetMode
    let _: (@escaping @Sendable (Result<NFCFeliCaStatusFlag, any Error>) -> Void) -> Void = f.resetMode(resultHandler:)
    let _: (Data, @escaping @Sendable (Data, (any Error)?) -> Void) -> Void = f.sendFeliCaCommand(
        commandPacket:completionHandler:)
    let _: (Data) async throws -> Data = f.sendFeliCaCommand(commandPacket:)
    let _: (Data, @escaping @Sendable (Result<Data, any Error>) -> Void) -> Void = f.sendFeliCaCommand(
        commandPacket:resultHandler:)
}

func bindFeliCaTypes() {
    let _: NFCFeliCaPollingRequestCode = .noRequest
    let _: [NFCFeliCaPollingRequestCode] = [.systemCode, .communicationPerformance]
    let _: [NFCFeliCaPollingTimeSlot] = [.max1, .max2, .max4, .max8, .max16]
    let _: [NFCFeliCaEncryptionId] = [.AES, .AES_DES]
    var p = NFCFeliCaPollingResponse(manufactureParameter: Data(), requestData: nil)
    p.manufactureParameter = Data()
    p.requestData = Data()
    var s = NFCFeliCaStatusFlag(statusFlag1: 0, statusFlag2: 0)
    s.statusFlag1 = 1
    s.statusFlag2 = 2
    var v = NFCFeliCaRequsetServiceV2Response(
        statusFlag1: 0, statusFlag2: 0, encryptionIdentifier: .AES, nodeKeyVersionListAES: nil,
        nodeKeyVersionListDES: nil)
    v.encryptionIdentifier = .AES_DES
    let _: [Data]? = v.nodeKeyVersionListAES
    let _: [Data]? = v.nodeKeyVersionListDES
    let r = NFCFeliCaRequestSpecificationVersionResponse(
        statusFlag1: 0, statusFlag2: 0, basicVersion: nil, optionVersion: nil)
    let _: (Int, Int, Data?, Data?) = (r.statusFlag1, r.statusFlag2, r.basicVersion, r.optionVersion)
}

@available(*, deprecated)
func bindDeprecatedFeliCa() {
    let _: PollingRequestCode = .PollingRequestCodeNoRequest
    let _: [NFCFeliCaPollingRequestCode] = [.PollingRequestCodeSystemCode, .PollingRequestCodeCommunicationPerformance]
    let _: PollingTimeSlot = .PollingTimeSlotMax1
    let _: [NFCFeliCaPollingTimeSlot] = [
        .PollingTimeSlotMax2, .PollingTimeSlotMax4, .PollingTimeSlotMax8, .PollingTimeSlotMax16,
    ]
    let _: EncryptionId = .aes
    let _: NFCFeliCaEncryptionId = .aes_des
}
