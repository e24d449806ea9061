internal import Foundation
internal import OpenNFCSystem

/// An `NFCFeliCaTag`: each command is a System operation (NFCSystem+FeliCa.swift) carried to the frontend as one
/// FeliCa frame; `currentSystemCode` and `currentIDm` are the system's selection, which `polling` updates.
final class FeliCaTagObject: TagObject, NFCFeliCaTag, @unchecked Sendable {
    override var type: __NFCTagType { .feliCa }

    /// The selection while the tag's round lasts, else the one it was delivered with.
    private var selection: FeliCaSelection? { system.feliCaSelection(reference) ?? delivered.feliCa }
    var currentSystemCode: Data { Data(selection?.systemCode ?? []) }
    var currentIDm: Data { Data(selection?.idm ?? []) }

    /// Runs a System operation and hands its outcome, or `failed` with the error, to `done`.
    private func run<T>(
        _ work: @escaping @Sendable (NFCSystem, TagReference) throws(SystemError) -> T,
        _ done: @escaping (Result<T, any Error>) -> Void
    ) {
        let (system, ref) = (self.system, reference)
        perform({ () throws(SystemError) in try work(system, ref) }, then: done)
    }

    private static func bytes(_ list: [Data]) -> [[UInt8]] { list.map { [UInt8]($0) } }

    func polling(
        systemCode: Data, requestCode: NFCFeliCaPollingRequestCode, timeSlot: NFCFeliCaPollingTimeSlot,
        completionHandler: @escaping @Sendable (Data, Data, (any Error)?) -> Void
    ) {
        let (sc, rc, ts) = ([UInt8](systemCode), UInt8(requestCode.rawValue), UInt8(timeSlot.rawValue))
        run({ (system, ref) throws(SystemError) in
            try system.feliCaPolling(ref, systemCode: sc, requestCode: rc, timeSlot: ts)
        }) { result in
            switch result {
            case .success(let r): completionHandler(Data(r.pmm), Data(r.requestData), nil)
            case .failure(let e): completionHandler(Data(), Data(), e)
            }
        }
    }

    func requestService(nodeCodeList: [Data], completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        let nodes = Self.bytes(nodeCodeList)
        run({ (system, ref) throws(SystemError) in try system.feliCaRequestService(ref, nodeCodes: nodes) }) {
            result in
            switch result {
            case .success(let v): completionHandler(v.map { Data($0) }, nil)
            case .failure(let e): completionHandler([], e)
            }
        }
    }

    func requestResponse(completionHandler: @escaping @Sendable (Int, (any Error)?) -> Void) {
        run({ (system, ref) throws(SystemError) in try system.feliCaRequestResponse(ref) }) { result in
            switch result {
            case .success(let mode): completionHandler(mode, nil)
            case .failure(let e): completionHandler(0, e)
            }
        }
    }

    func readWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data],
        completionHandler: @escaping @Sendable (Int, Int, [Data], (any Error)?) -> Void
    ) {
        let (services, blocks) = (Self.bytes(serviceCodeList), Self.bytes(blockList))
        run({ (system, ref) throws(SystemError) in
            try system.feliCaReadWithoutEncryption(ref, serviceCodes: services, blocks: blocks)
        }) { result in
            switch result {
            case .success(let r): completionHandler(r.statusFlag1, r.statusFlag2, r.blocks.map { Data($0) }, nil)
            case .failure(let e): completionHandler(0, 0, [], e)
            }
        }
    }

    func writeWithoutEncryption(
        serviceCodeList: [Data], blockList: [Data], blockData: [Data],
        completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void
    ) {
        let (services, blocks, data) = (Self.bytes(serviceCodeList), Self.bytes(blockList), Self.bytes(blockData))
        run({ (system, ref) throws(SystemError) in
            try system.feliCaWriteWithoutEncryption(ref, serviceCodes: services, blocks: blocks, data: data)
        }) { result in
            switch result {
            case .success(let r): completionHandler(r.statusFlag1, r.statusFlag2, nil)
            case .failure(let e): completionHandler(0, 0, e)
            }
        }
    }

    func requestSystemCode(completionHandler: @escaping @Sendable ([Data], (any Error)?) -> Void) {
        run({ (system, ref) throws(SystemError) in try system.feliCaRequestSystemCode(ref) }) { result in
            switch result {
            case .success(let codes): completionHandler(codes.map { Data($0) }, nil)
            case .failure(let e): completionHandler([], e)
            }
        }
    }

    func requestServiceV2(
        nodeCodeList: [Data],
        completionHandler: @escaping @Sendable (Int, Int, NFCFeliCaEncryptionId, [Data], [Data], (any Error)?) -> Void
    ) {
        let nodes = Self.bytes(nodeCodeList)
        run({ (system, ref) throws(SystemError) in
            let a = try system.feliCaRequestServiceV2(ref, nodeCodes: nodes)
            // Apple's enum has AES (4F) and AES_DES (41) only; another identifier is an answer Core NFC cannot
            // report (docs/DIFFERENCES.md "FeliCa").
            if let id = a.encryptionIdentifier, NFCFeliCaEncryptionId(rawValue: Int(id)) == nil {
                throw SystemError(.tagResponseError, "encryption identifier \(id) is neither 4F (AES) nor 41 (AES_DES)")
            }
            return a
        }) { result in
            switch result {
            case .success(let a):
                let id = a.encryptionIdentifier.flatMap { NFCFeliCaEncryptionId(rawValue: Int($0)) } ?? .AES
                completionHandler(
                    a.statusFlag1, a.statusFlag2, id, a.aesKeyVersions.map { Data($0) },
                    (a.desKeyVersions ?? []).map { Data($0) }, nil)
            case .failure(let e): completionHandler(0, 0, .AES, [], [], e)
            }
        }
    }

    func requestSpecificationVersion(
        completionHandler: @escaping @Sendable (Int, Int, Data, Data, (any Error)?) -> Void
    ) {
        run({ (system, ref) throws(SystemError) in try system.feliCaRequestSpecificationVersion(ref) }) { result in
            switch result {
            case .success(let v):
                completionHandler(
                    v.statusFlag1, v.statusFlag2, Data(v.basicVersion ?? []), Data(v.optionVersion ?? []), nil)
            case .failure(let e): completionHandler(0, 0, Data(), Data(), e)
            }
        }
    }

    func resetMode(completionHandler: @escaping @Sendable (Int, Int, (any Error)?) -> Void) {
        run({ (system, ref) throws(SystemError) in try system.feliCaResetMode(ref) }) { result in
            switch result {
            case .success(let r): completionHandler(r.statusFlag1, r.statusFlag2, nil)
            case .failure(let e): completionHandler(0, 0, e)
            }
        }
    }

    func sendFeliCaCommand(commandPacket: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void) {
        let packet = [UInt8](commandPacket)
        run({ (system, ref) throws(SystemError) in try system.sendFeliCaCommand(ref, packet) }) { result in
            switch result {
            case .success(let b): completionHandler(Data(b), nil)
            case .failure(let e): completionHandler(Data(), e)
            }
        }
    }
}
