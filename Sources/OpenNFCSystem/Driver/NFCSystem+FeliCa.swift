internal import OpenNFCBytes
internal import OpenNFCRF
internal import OpenNFCTags

/// The FeliCa system a delivered FeliCa tag has selected: Core NFC's `currentSystemCode` and `currentIDm`, and the
/// PMm of the Polling answer that selected it (JIS X 6319-4 §8.5.2 SENSF_RES).
package struct FeliCaSelection: Sendable, Hashable {
    /// The system code (2 bytes, big-endian as polled and as written in the Info.plist).
    package var systemCode: [UInt8]
    /// The IDm of the selected system; empty after a Polling that no system answered.
    package var idm: [UInt8]
    /// The PMm of the last Polling answer.
    package var pmm: [UInt8]

    package init(systemCode: [UInt8], idm: [UInt8], pmm: [UInt8]) {
        self.systemCode = systemCode
        self.idm = idm
        self.pmm = pmm
    }
}

/// What Request Service V2 answered (command `32`, FeliCa Card User's Manual, Excerpted Edition §4.4.16).
package struct FeliCaServiceV2Answer: Sendable, Hashable {
    package var statusFlag1: Int
    package var statusFlag2: Int
    /// The encryption identifier byte (`4F` AES, `41` AES and DES); nil when Status Flag 1 is not zero.
    package var encryptionIdentifier: UInt8?
    package var aesKeyVersions: [[UInt8]]
    /// Nil when the card sent no DES key versions (an AES-only card, or an error).
    package var desKeyVersions: [[UInt8]]?
}

/// What Request Specification Version answered (command `3C`, FeliCa Card User's Manual, Excerpted Edition
/// §4.4.18): Status Flags and, when Status Flag 1 is zero, the basic version and the option versions (each 2 bytes).
package struct FeliCaSpecificationVersion: Sendable, Hashable {
    package var statusFlag1: Int
    package var statusFlag2: Int
    /// Nil when Status Flag 1 is not zero.
    package var basicVersion: [UInt8]?
    /// The option version list as sent (2 bytes per option); nil when Status Flag 1 is not zero.
    package var optionVersion: [UInt8]?
}

/// FeliCa through Core NFC (docs/PARITY.md §9, docs/DIFFERENCES.md "FeliCa"): delivery by the Info.plist's system codes
/// and the ten `NFCFeliCaTag` commands, each one FeliCa frame `code IDm parameters` without the LEN byte (the
/// frontend adds LEN and CRC, `RFFrameMode.felica`). Command and answer layouts: JIS X 6319-4 §8.5 (Polling) and the
/// FeliCa Card User's Manual, Excerpted Edition §4.4 (the others). Status flags are returned, not thrown: Core NFC
/// hands Status Flag 1 and 2 to the app with a nil error.
extension NFCSystem {
    /// The largest FeliCa packet without LEN: LEN is one byte counting itself (JIS X 6319-4 §8.4.2), and Core NFC
    /// documents 254 bytes for `sendFeliCaCommand`.
    package static let feliCaMaxPacket = 254

    // MARK: gating

    /// Why a tag session may not begin: it polls `.iso18092` and the Info.plist declares no valid FeliCa system
    /// code (Core NFC's header: `readerErrorSecurityViolation`; docs/PARITY.md §13), in the `iphone` profile.
    func feliCaRefusal(_ s: SessionState) -> InvalidationReason? {
        guard configuration.profile == .iphone, technologies(for: s).contains(.nfcF), !pollsPACE(s),
            configuration.validSystemCodes.isEmpty
        else { return nil }
        return .securityViolation("no valid \(AppConfiguration.systemCodesKey) entry in Info.plist")
    }

    /// Delivery of an NFC-F target to a tag session: Polling with each declared system code in declaration order
    /// (wildcards never, they are not valid entries); the first system that answers is selected. In the `desktop`
    /// profile without declared codes the card's own first system is selected (a wildcard Polling asking for the
    /// system code). Nil: no declared system answered, so the tag is not delivered.
    func selectFeliCaSystem(_ t: RFTarget, for s: SessionState, frontend: any RFFrontend) -> FeliCaSelection? {
        var codes = systemCodes(for: s).map(\.code)
        var requestCode: UInt8 = 0x00
        if codes.isEmpty && configuration.profile == .desktop && configuration.validSystemCodes.isEmpty {
            codes = [[0xFF, 0xFF]]
            requestCode = 0x01
        }
        for code in codes {
            guard let answer = try? poll(code, requestCode: requestCode, timeSlot: 0, on: frontend) else { continue }
            var selected = code
            if requestCode == 0x01, let rd = answer.requestData, rd.count == 2 { selected = rd }
            log(.system, "tag \(t.handle) answered Polling for system \(Hex.encode(selected))")
            return FeliCaSelection(systemCode: selected, idm: answer.idm, pmm: answer.pmm)
        }
        log(.system, "tag \(t.handle) not delivered: no declared FeliCa system code answers Polling")
        return nil
    }

    /// One Polling command (JIS X 6319-4 §8.5.1: `00 SC SC RC TSN`) and its answer `01 IDm PMm [RD]` (§8.5.2).
    func poll(
        _ systemCode: [UInt8], requestCode: UInt8, timeSlot: UInt8, on frontend: any RFFrontend
    ) throws(SystemError) -> (idm: [UInt8], pmm: [UInt8], requestData: [UInt8]?) {
        let r: RFResponse
        do {
            r = try frontend.exchange(
                FeliCaFrame.polling(systemCode: systemCode, requestCode: requestCode, timeSlot: timeSlot))
        } catch {
            throw SystemError(rf: error)
        }
        guard case .frame(let b) = r, let answer = FeliCaFrame.PollingAnswer(b) else {
            throw SystemError(.tagResponseError, "Polling answer is not 01 IDm PMm [RD]", unexpectedLength: true)
        }
        return (answer.idm, answer.pmm, answer.requestData)
    }

    // MARK: the selection

    /// The current selection of a delivered FeliCa tag, while its session and polling round last.
    package func feliCaSelection(_ ref: TagReference) -> FeliCaSelection? {
        perform {
            guard let s = sessions[ref.session] else { return nil }
            return s.tags.entry(ref)?.tag.feliCa
        }
    }

    // MARK: commands

    /// `polling(systemCode:requestCode:timeSlot:)`: the system code must be 2 bytes (4), without `FF` (3), and
    /// declared in the Info.plist (2); those refusals leave the selection as it was. Otherwise the answer's IDm
    /// becomes `currentIDm` and the code `currentSystemCode`; when no system answers, `currentIDm` becomes empty.
    /// Returns PMm and the request data (empty unless asked for and sent).
    package func feliCaPolling(
        _ ref: TagReference, systemCode: [UInt8], requestCode: UInt8, timeSlot: UInt8
    ) throws(SystemError) -> (pmm: [UInt8], requestData: [UInt8]) {
        touch()
        return try operation(ref) { (s, entry, frontend) throws(SystemError) in
            guard systemCode.count == 2 else {
                throw SystemError(.invalidParameterLength, "a system code is 2 bytes, not \(systemCode.count)")
            }
            guard systemCode[0] != 0xFF, systemCode[1] != 0xFF else {
                throw SystemError(.invalidParameter, "wildcard system code \(Hex.encode(systemCode))")
            }
            guard requestCode <= 0x02 else {
                throw SystemError(.invalidParameter, "request code \(requestCode) (0…2)")
            }
            let declared = configuration.validSystemCodes
            if configuration.profile == .iphone || !declared.isEmpty {
                guard declared.contains(where: { $0.code == systemCode }) else {
                    throw SystemError(
                        .securityViolation,
                        "system code \(Hex.encode(systemCode)) is not declared in \(AppConfiguration.systemCodesKey)")
                }
            }
            do throws(SystemError) {
                let a = try poll(systemCode, requestCode: requestCode, timeSlot: timeSlot, on: frontend)
                s.tags.update(ref.handle) {
                    $0.feliCa = FeliCaSelection(systemCode: systemCode, idm: a.idm, pmm: a.pmm)
                }
                log(.system, "tag \(ref.handle) selected FeliCa system \(Hex.encode(systemCode))")
                return (a.pmm, requestCode == 0 ? [] : a.requestData ?? [])
            } catch {
                s.tags.update(ref.handle) { $0.feliCa?.idm = [] }
                throw error
            }
        }
    }

    /// `requestService(nodeCodeList:)` (command `02`): 1…32 node codes of 2 bytes, little-endian; returns one key
    /// version per node (`FF FF`: the node does not exist).
    package func feliCaRequestService(_ ref: TagReference, nodeCodes: [[UInt8]]) throws(SystemError) -> [[UInt8]] {
        try Self.checkNodes(nodeCodes)
        let r = try feliCaCommand(
            ref, FeliCaFrame.Code.requestService, [UInt8(nodeCodes.count)] + nodeCodes.flatMap { $0 })
        return try Self.list(r, count: nodeCodes.count, what: "Request Service")
    }

    /// `requestResponse()` (command `04`): the card's mode, 0…3.
    package func feliCaRequestResponse(_ ref: TagReference) throws(SystemError) -> Int {
        let r = try feliCaCommand(ref, FeliCaFrame.Code.requestResponse, [])
        guard r.count == 1 else { throw Self.badLength("Request Response", r.count) }
        return Int(r[0])
    }

    /// `readWithoutEncryption(serviceCodeList:blockList:)` (command `06`): Status Flags and, when Status Flag 1 is
    /// zero, the blocks (16 bytes each).
    package func feliCaReadWithoutEncryption(
        _ ref: TagReference, serviceCodes: [[UInt8]], blocks: [[UInt8]]
    ) throws(SystemError) -> (statusFlag1: Int, statusFlag2: Int, blocks: [[UInt8]]) {
        try Self.checkServices(serviceCodes)
        try Self.checkBlocks(blocks)
        let r = try feliCaCommand(
            ref, FeliCaFrame.Code.readWithoutEncryption,
            [UInt8(serviceCodes.count)] + serviceCodes.flatMap { $0 } + [UInt8(blocks.count)] + blocks.flatMap { $0 })
        guard r.count >= 2 else { throw Self.badLength("Read Without Encryption", r.count) }
        guard r[0] == 0 else { return (Int(r[0]), Int(r[1]), []) }
        guard r.count >= 3, r.count == 3 + 16 * Int(r[2]) else {
            throw Self.badLength("Read Without Encryption", r.count)
        }
        let data = (0..<Int(r[2])).map { Array(r[(3 + 16 * $0)..<(19 + 16 * $0)]) }
        return (Int(r[0]), Int(r[1]), data)
    }

    /// `writeWithoutEncryption(serviceCodeList:blockList:blockData:)` (command `08`): as many blocks as block data,
    /// each 16 bytes; returns the Status Flags.
    package func feliCaWriteWithoutEncryption(
        _ ref: TagReference, serviceCodes: [[UInt8]], blocks: [[UInt8]], data: [[UInt8]]
    ) throws(SystemError) -> (statusFlag1: Int, statusFlag2: Int) {
        try Self.checkServices(serviceCodes)
        try Self.checkBlocks(blocks)
        guard data.count == blocks.count else {
            throw SystemError(.invalidParameter, "\(blocks.count) block list elements but \(data.count) data blocks")
        }
        if let k = data.firstIndex(where: { $0.count != 16 }) {
            throw SystemError(.invalidParameterLength, "block data \(k) is \(data[k].count) bytes, not 16")
        }
        let r = try feliCaCommand(
            ref, FeliCaFrame.Code.writeWithoutEncryption,
            [UInt8(serviceCodes.count)] + serviceCodes.flatMap { $0 } + [UInt8(blocks.count)] + blocks.flatMap { $0 }
                + data.flatMap { $0 })
        guard r.count == 2 else { throw Self.badLength("Write Without Encryption", r.count) }
        return (Int(r[0]), Int(r[1]))
    }

    /// `requestSystemCode()` (command `0C`): the card's system codes, 2 bytes each as the card sends them.
    package func feliCaRequestSystemCode(_ ref: TagReference) throws(SystemError) -> [[UInt8]] {
        let r = try feliCaCommand(ref, FeliCaFrame.Code.requestSystemCode, [])
        guard let n = r.first else { throw Self.badLength("Request System Code", 0) }
        return try Self.list(r, count: Int(n), what: "Request System Code")
    }

    /// `requestServiceV2(nodeCodeList:)` (command `32`): Status Flags and, when Status Flag 1 is zero, the encryption
    /// identifier and the AES (and, for `41`, DES) key versions of each node.
    package func feliCaRequestServiceV2(
        _ ref: TagReference, nodeCodes: [[UInt8]]
    ) throws(SystemError) -> FeliCaServiceV2Answer {
        try Self.checkNodes(nodeCodes)
        let r = try feliCaCommand(
            ref, FeliCaFrame.Code.requestServiceV2, [UInt8(nodeCodes.count)] + nodeCodes.flatMap { $0 })
        guard r.count >= 2 else { throw Self.badLength("Request Service V2", r.count) }
        var a = FeliCaServiceV2Answer(
            statusFlag1: Int(r[0]), statusFlag2: Int(r[1]), encryptionIdentifier: nil, aesKeyVersions: [],
            desKeyVersions: nil)
        guard r[0] == 0 else { return a }
        guard r.count >= 4 else { throw Self.badLength("Request Service V2", r.count) }
        let n = Int(r[3])
        let pairs = (r.count - 4) / 2
        guard (r.count - 4) % 2 == 0, pairs == n || pairs == 2 * n else {
            throw Self.badLength("Request Service V2", r.count)
        }
        let keys = stride(from: 4, to: r.count, by: 2).map { Array(r[$0..<($0 + 2)]) }
        a.encryptionIdentifier = r[2]
        a.aesKeyVersions = Array(keys.prefix(n))
        if pairs == 2 * n && n > 0 { a.desKeyVersions = Array(keys.suffix(n)) }
        return a
    }

    /// `requestSpecificationVersion()` (command `3C`, reserved `00 00`): format version `00` only.
    package func feliCaRequestSpecificationVersion(_ ref: TagReference) throws(SystemError)
        -> FeliCaSpecificationVersion
    {
        let r = try feliCaCommand(ref, FeliCaFrame.Code.requestSpecificationVersion, FeliCaFrame.reservedParameters)
        guard r.count >= 2 else { throw Self.badLength("Request Specification Version", r.count) }
        var v = FeliCaSpecificationVersion(
            statusFlag1: Int(r[0]), statusFlag2: Int(r[1]), basicVersion: nil, optionVersion: nil)
        guard r[0] == 0 else { return v }
        guard r.count >= 6 else { throw Self.badLength("Request Specification Version", r.count) }
        guard r[2] == 0x00 else {
            throw SystemError(.tagResponseError, "specification version format \(Hex.encode([r[2]])) is not 00")
        }
        guard r.count == 6 + 2 * Int(r[5]) else { throw Self.badLength("Request Specification Version", r.count) }
        v.basicVersion = Array(r[3..<5])
        v.optionVersion = Array(r[6...])
        return v
    }

    /// `resetMode()` (command `3E`, reserved `00 00`): the Status Flags.
    package func feliCaResetMode(_ ref: TagReference) throws(SystemError) -> (statusFlag1: Int, statusFlag2: Int) {
        let r = try feliCaCommand(ref, FeliCaFrame.Code.resetMode, FeliCaFrame.reservedParameters)
        guard r.count == 2 else { throw Self.badLength("Reset Mode", r.count) }
        return (Int(r[0]), Int(r[1]))
    }

    /// `sendFeliCaCommand(commandPacket:)`: the packet is `code IDm parameters` without LEN (Core NFC adds LEN and
    /// CRC; docs/DIFFERENCES.md "FeliCa"), 9…254 bytes, addressed to `currentIDm` (another IDm is 2, as observed on
    /// iOS); Polling (`00`) goes through `polling(...)` only, since it would select a system the app did not declare
    /// (2). Returns the answer without LEN, starting with its response code.
    package func sendFeliCaCommand(_ ref: TagReference, _ packet: [UInt8]) throws(SystemError) -> [UInt8] {
        touch()
        return try operation(ref) { (s, entry, frontend) throws(SystemError) in
            guard packet.count <= Self.feliCaMaxPacket else {
                throw SystemError(.packetTooLong, "FeliCa packet of \(packet.count) bytes (at most 254)")
            }
            guard let code = packet.first else { throw SystemError(.invalidParameterLength, "empty command packet") }
            guard code != FeliCaFrame.Code.polling else {
                throw SystemError(
                    .securityViolation, "Polling goes through polling(systemCode:…), which checks the plist")
            }
            guard packet.count >= 9 else {
                throw SystemError(.invalidParameterLength, "a FeliCa command is code + IDm (9 bytes) at least")
            }
            let idm = s.tags.entry(ref)?.tag.feliCa?.idm ?? []
            guard Array(packet[1..<9]) == idm else {
                throw SystemError(.securityViolation, "the packet's IDm is not currentIDm")
            }
            guard case .frame(let b) = try exchange(s, ref, frontend, packet), !b.isEmpty else {
                throw SystemError(.tagResponseError, "empty FeliCa answer", unexpectedLength: true)
            }
            return b
        }
    }

    // MARK: plumbing

    /// One command to the selected system: `code IDm parameters`; the answer must carry `code + 1` and the same
    /// IDm, and what follows the IDm is returned.
    func feliCaCommand(_ ref: TagReference, _ code: UInt8, _ parameters: [UInt8]) throws(SystemError) -> [UInt8] {
        touch()
        return try operation(ref) { (s, entry, frontend) throws(SystemError) in
            guard let idm = s.tags.entry(ref)?.tag.feliCa?.idm, idm.count == 8 else {
                throw SystemError(.tagResponseError, "no FeliCa system is selected (the last Polling failed)")
            }
            let frame = FeliCaFrame.command(code, idm: idm, parameters)
            guard frame.count <= Self.feliCaMaxPacket, frame.count <= frontend.capabilities.maxCommandSize else {
                throw SystemError(.packetTooLong, "FeliCa command of \(frame.count) bytes (at most 254)")
            }
            guard case .frame(let b) = try exchange(s, ref, frontend, frame) else {
                throw SystemError(.tagResponseError, "the card did not answer with a frame")
            }
            guard b.count >= 9 else { throw Self.badLength("command \(Hex.encode([code]))", b.count) }
            guard let parameters = FeliCaFrame.answer(b, to: code, idm: idm) else {
                throw SystemError(.tagResponseError, "answer \(Hex.encode([b[0]])) from another IDm or command")
            }
            return parameters
        }
    }

    static func checkNodes(_ nodes: [[UInt8]]) throws(SystemError) {
        guard (1...32).contains(nodes.count) else {
            throw SystemError(.parameterOutOfBound, "\(nodes.count) node codes (1…32)")
        }
        if let k = nodes.firstIndex(where: { $0.count != 2 }) {
            throw SystemError(.invalidParameterLength, "node code \(k) is \(nodes[k].count) bytes, not 2")
        }
    }

    static func checkServices(_ services: [[UInt8]]) throws(SystemError) {
        guard (1...16).contains(services.count) else {
            throw SystemError(.parameterOutOfBound, "\(services.count) service codes (1…16)")
        }
        if let k = services.firstIndex(where: { $0.count != 2 }) {
            throw SystemError(.invalidParameterLength, "service code \(k) is \(services[k].count) bytes, not 2")
        }
    }

    static func checkBlocks(_ blocks: [[UInt8]]) throws(SystemError) {
        guard !blocks.isEmpty, blocks.count <= 255 else {
            throw SystemError(.parameterOutOfBound, "\(blocks.count) block list elements")
        }
        if let k = blocks.firstIndex(where: { $0.count != 2 && $0.count != 3 }) {
            throw SystemError(
                .invalidParameterLength, "block list element \(k) is \(blocks[k].count) bytes, not 2 or 3")
        }
    }

    /// `n` followed by `count` 2-byte entries.
    static func list(_ r: [UInt8], count: Int, what: String) throws(SystemError) -> [[UInt8]] {
        guard r.count == 1 + 2 * count, Int(r[0]) == count else { throw badLength(what, r.count) }
        return (0..<count).map { Array(r[(1 + 2 * $0)..<(3 + 2 * $0)]) }
    }

    static func badLength(_ what: String, _ n: Int) -> SystemError {
        SystemError(.tagResponseError, "\(what) answer has \(n) bytes after the IDm", unexpectedLength: true)
    }
}
