internal import OpenNFCBytes
package import OpenNFCRF

/// NDEF on an NFC Forum Type 4 tag, MIFARE DESFire through its ISO NDEF mapping included
/// (NFC Forum Type 4 Tag Technical Specification 2.0 §5).
///
/// | Operation | Commands | Frames |
/// |---|---|---|
/// | detect | SELECT NDEF application (v2, then v1), SELECT CC, READ BINARY CC (15 bytes; 2 more for an ENDEF TLV), SELECT NDEF file, READ BINARY NLEN (ENLEN) | 5 (6 for a v1 or a mapping 3.0 tag) |
/// | read | READ BINARY chunks of min(MLe, frontend answer − 2) bytes from offset 2 (4); past offset `7FFF` odd-INS READ BINARY `B1` | ⌈NLEN ÷ chunk⌉ (a few more past `7FFF`: the `53` object takes 2–4 bytes of each answer) |
/// | write | UPDATE BINARY NLEN = 0 with the first data, data in chunks ≤ MLc (odd-INS `D7` past `7FFF`), UPDATE BINARY NLEN | ⌈(NLEN + 2) ÷ chunk⌉ + 1 |
/// | make read-only | SELECT CC, UPDATE BINARY CC byte 14 = `FF` | 2 |
/// | format (NDEF present) | UPDATE BINARY NLEN = 0 | 1 |
/// | format (blank DESFire EV1 or later) | DESFire native, ISO-wrapped: create the NDEF application and its CC and NDEF files, write NLEN, then the CC | 7 |
///
/// Extended-length APDUs are used only when the CC's MLe / MLc exceed a short APDU and the frontend carries them.
/// Mapping 3.0 (NFC Forum T4T 1.0 (2017)): the ENDEF File Control TLV, the 4-byte ENLEN, and the odd-INS READ /
/// UPDATE BINARY (`B1` / `D7`, offset data object `54 03`) for every command starting past offset `7FFF`, up to
/// offset `FFFFFF`. What it does not do: proprietary access conditions (treated as read-only), and creating the
/// NDEF application on a blank card other than a DESFire.
///
/// No APDU is repeated: the ISO-DEP layer below recovers lost blocks (ISO 14443-4 §7.5), and a command that still
/// failed may or may not have run.
package final class Type4NDEF: NDEFTagProcedure {
    let link: APDULink
    let capabilities: RFCapabilities
    var state: State = .unknown
    /// The elementary file currently selected on the card.
    var selectedFile: UInt16?

    enum State {
        case unknown
        case notNDEF(String)
        case ndef(Type4Layout)
    }

    struct Type4Layout {
        var v2: Bool
        var cc: Type4CapabilityContainer
        var messageLength: Int
        /// The message, when read or written during this activation.
        var message: [UInt8]?

        var detection: NDEFDetection {
            NDEFDetection(
                status: cc.isWritable ? .readWrite : .readOnly, capacity: cc.capacity, messageLength: messageLength)
        }
    }

    /// The card's DESFire GetVersion, when it is one: ``NDEFTagProcedure/format()`` can then create the NDEF
    /// application on a blank card.
    package let desfire: DESFireVersion?

    /// - Parameters:
    ///   - target: the activated ISO-DEP target (kept for symmetry with ``Type2NDEF``; no APDU is repeated).
    ///   - desfire: the GetVersion of a DESFire card (from ``TagIdentifier``), enabling formatting of a blank one.
    package init(target: RFTarget?, frontend: any RFFrontend, desfire: DESFireVersion? = nil) {
        self.link = APDULink(frontend: frontend)
        self.capabilities = frontend.capabilities
        self.desfire = desfire
    }

    // MARK: detect

    package func detect() throws(TagError) -> NDEFDetection {
        switch try detectLayout() {
        case .ndef(let layout): return layout.detection
        case .notNDEF(let reason): return .notSupported(reason)
        case .unknown: preconditionFailure("detection left no state")
        }
    }

    func requireLayout() throws(TagError) -> Type4Layout {
        switch try detectLayout() {
        case .ndef(let layout): return layout
        case .notNDEF(let reason): throw TagError(.notFormatted, reason)
        case .unknown: preconditionFailure("detection left no state")
        }
    }

    func detectLayout() throws(TagError) -> State {
        if case .unknown = state { state = try runDetection() }
        return state
    }

    /// NDEF detection procedure (T4T 2.0 §5.4.2).
    private func runDetection() throws(TagError) -> State {
        var v2 = true
        let selectV2 = try link.send(Type4Command.selectApplication(v2: true), name: "SELECT NDEF application v2")
        if !selectV2.isSuccess {
            let selectV1 = try link.send(Type4Command.selectApplication(v2: false), name: "SELECT NDEF application v1")
            guard selectV1.isSuccess else {
                return .notNDEF(
                    "no NDEF application (SELECT answered \(Self.hex(selectV2.sw)) for v2, \(Self.hex(selectV1.sw)) for v1)"
                )
            }
            v2 = false
        }
        selectedFile = nil
        let selectCC = try link.send(Type4Command.selectFile(Type4Command.ccFileID, v2: v2), name: "SELECT CC file")
        guard selectCC.isSuccess else { return .notNDEF("no CC file E103 (SELECT answered \(Self.hex(selectCC.sw)))") }
        selectedFile = Type4Command.ccFileID
        var ccBytes = try link.expectSuccess(
            Type4Command.readBinary(offset: 0, length: Type4CapabilityContainer.mandatoryLength), name: "READ BINARY CC"
        )
        if Type4CapabilityContainer.announcesExtendedTLV(ccBytes), ccBytes.count == 15 {
            // The ENDEF File Control TLV (mapping 3.0) is 2 bytes longer: its access bytes follow a 4-byte size.
            ccBytes += try link.expectSuccess(
                Type4Command.readBinary(offset: 15, length: 2), name: "READ BINARY CC (ENDEF TLV end)")
        }
        let cc: Type4CapabilityContainer
        switch Type4CapabilityContainer.parse(ccBytes) {
        case .success(let c): cc = c
        case .failure(let f): return .notNDEF(f.reason)
        }
        let selectNDEF = try link.send(Type4Command.selectFile(cc.fileID, v2: v2), name: "SELECT NDEF file")
        guard selectNDEF.isSuccess else {
            return .notNDEF("no NDEF file \(Self.hex(cc.fileID)) (SELECT answered \(Self.hex(selectNDEF.sw)))")
        }
        selectedFile = cc.fileID
        let n = cc.lengthFieldSize
        let name = cc.isExtended ? "ENLEN" : "NLEN"
        let nlen = try link.expectSuccess(Type4Command.readBinary(offset: 0, length: n), name: "READ BINARY \(name)")
        guard nlen.count == n else {
            throw TagError(.invalidResponse, "READ BINARY \(name) answered \(nlen.count) bytes, expected \(n)")
        }
        let length = nlen.reduce(0) { $0 << 8 | Int($1) }
        guard length <= cc.maxFileSize - n else {
            throw TagError(
                .tornStateDetected, "\(name) \(length) exceeds the NDEF file's \(cc.maxFileSize - n) bytes of message")
        }
        guard length <= cc.capacity else {
            throw TagError(
                .unsupported,
                cc.isExtended
                    ? "ENLEN \(length) reaches past offset FFFFFF, beyond 3-byte offset data objects"
                    : "NLEN \(length) reaches past offset 0x7FFF, beyond short READ BINARY offsets")
        }
        return .ndef(Type4Layout(v2: v2, cc: cc, messageLength: length, message: length == 0 ? [] : nil))
    }

    static func hex(_ v: UInt16) -> String { Hex.encode([UInt8(v >> 8), UInt8(v & 0xFF)]) }

    // MARK: chunk sizes

    /// Bytes per READ BINARY: MLe, what the frontend can return (data + SW), and 256 unless the card's MLe asks
    /// for extended APDUs.
    func readChunk(_ cc: Type4CapabilityContainer) -> Int {
        let frontend = capabilities.maxResponseSize - 2
        let shortLimit = cc.maxResponseData > 256 && capabilities.maxCommandSize >= 7 ? 65536 : 256
        return max(1, min(cc.maxResponseData, frontend, shortLimit))
    }

    /// Bytes per UPDATE BINARY: MLc, what the frontend can send (header + Lc), and 255 unless the card's MLc asks
    /// for extended APDUs.
    func writeChunk(_ cc: Type4CapabilityContainer) -> Int {
        if cc.maxCommandData > 255, capabilities.maxCommandSize - 7 > 255 {
            return min(cc.maxCommandData, capabilities.maxCommandSize - 7)
        }
        return max(1, min(cc.maxCommandData, 255, capabilities.maxCommandSize - 5))
    }

    /// Bytes per odd-INS READ BINARY: what fits in one answer once the `53` tag and its length are counted.
    func readChunkODO(_ cc: Type4CapabilityContainer) -> Int {
        let limit = readChunk(cc)
        var n = limit - 2
        while n > 1, n + Type4Command.dataObjectOverhead(n) > limit { n -= 1 }
        return max(1, n)
    }

    /// Bytes per odd-INS UPDATE BINARY: what fits in one command data field after the offset data object
    /// (5 bytes) and the `53` tag and length.
    func writeChunkODO(_ cc: Type4CapabilityContainer) -> Int {
        let limit = writeChunk(cc)
        var n = limit - 7
        while n > 1, 5 + n + Type4Command.dataObjectOverhead(n) > limit { n -= 1 }
        return max(1, n)
    }

    /// Reads `count` bytes of the selected NDEF file from `offset`: even-INS READ BINARY while a command starts at
    /// or below `7FFF`, odd-INS `B1` after (ENDEF files only), each answer checked for its length.
    func readFile(offset start: Int, count: Int, cc: Type4CapabilityContainer) throws(TagError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(count)
        let evenChunk = readChunk(cc)
        let oddChunk = readChunkODO(cc)
        while out.count < count {
            let offset = start + out.count
            if offset <= Type4Command.lastEvenOffset || !cc.isExtended {
                let n = min(evenChunk, count - out.count)
                let data = try link.expectSuccess(
                    Type4Command.readBinary(offset: offset, length: n), name: "READ BINARY offset \(offset)")
                guard data.count == n else {
                    throw TagError(
                        .invalidResponse, "READ BINARY offset \(offset) answered \(data.count) bytes, expected \(n)")
                }
                out += data
            } else {
                let n = min(oddChunk, count - out.count)
                let expected = n + Type4Command.dataObjectOverhead(n)
                let name = "READ BINARY (odd INS) offset \(offset)"
                let data = try link.expectSuccess(
                    Type4Command.readBinaryODO(offset: offset, expected: expected), name: name)
                let header = [0x53] + Type4Command.berLength(n)
                guard data.count == expected, Array(data.prefix(header.count)) == header else {
                    throw TagError(
                        .invalidResponse,
                        "\(name) answered \(Hex.encode(data.prefix(4))) … (\(data.count) bytes), expected a 53 "
                            + "data object of \(n) bytes")
                }
                out += data[header.count...]
            }
        }
        return out
    }

    func selectNDEFFile(_ layout: Type4Layout) throws(TagError) {
        guard selectedFile != layout.cc.fileID else { return }
        selectedFile = nil
        _ = try link.expectSuccess(
            Type4Command.selectFile(layout.cc.fileID, v2: layout.v2), name: "SELECT NDEF file")
        selectedFile = layout.cc.fileID
    }

    // MARK: read

    package func readMessage() throws(TagError) -> [UInt8] {
        var layout = try requireLayout()
        if let known = layout.message { return known }
        try selectNDEFFile(layout)
        let message = try readFile(
            offset: layout.cc.lengthFieldSize, count: layout.messageLength, cc: layout.cc)
        if let problem = NDEFFraming.problem(in: message) {
            throw TagError(.tornStateDetected, "the \(message.count)-byte NDEF message is malformed: \(problem)")
        }
        layout.message = message
        state = .ndef(layout)
        return message
    }
}
