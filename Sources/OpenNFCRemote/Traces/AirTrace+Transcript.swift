internal import OpenNFCBytes
internal import OpenNFCCrypto
internal import OpenNFCRF

/// A transcript rendered as the frames a reader and a card exchange on the air (docs/TRACES.md, "What goes on the
/// air"): the transcript holds what the program asked of its frontend (polls, activations, whole frames without
/// CRC, whole ISO-DEP payloads); this adds what every frontend adds below it, as the standards define it.
///
/// | Transcript | On the air |
/// |---|---|
/// | poll (NFC-A) | WUPA (7 bits) → ATQA (ISO/IEC 14443-3 §6.3) |
/// | activate (NFC-A) | per cascade level `SEL 20` → UID CLn + BCC, `SEL 70 …` + CRC_A → SAK + CRC_A (§6.4); Type 1: RID → HR0 HR1 UID (NFC Forum Digital §8.6); ISO-DEP: RATS `E0 80` → ATS (ISO/IEC 14443-4 §5.6) |
/// | poll / activate (NFC-B) | WUPB `05 00 08` → ATQB; ATTRIB → its answer, all with CRC_B (ISO/IEC 14443-3 §7.7–§7.11) |
/// | exchange, ISO-DEP | I-blocks numbered and chained by FSC/FSD, R(ACK) for each chained block (ISO/IEC 14443-4 §7) |
/// | exchange, NFC-A level 3 | frame + CRC_A → answer + CRC_A, or a 4-bit ACK/NAK |
/// | authenticate (MIFARE Classic) | `60`/`61` block + CRC_A → nT, {nR}{aR} → {aT}; then every frame enciphered with its parity bits (Crypto1, with a deterministic nT and nR) |
/// | poll / exchange (NFC-F) | `B2 4D` LEN payload CRC (JIS X 6319-4 §8; the Polling command for a poll) |
/// | poll / exchange (NFC-V) | Inventory `flags 01 00` + CRC, request + CRC (ISO/IEC 15693-3 §7, §10.3.1) |
/// | deactivate | S(DESELECT) for ISO-DEP, HLTA for NFC-A level 3 |
///
/// Times: each event's frames share its `t`…`t + d` span in order (the transcript holds no air time); the field
/// goes on before the first frame and off after the last.
extension AirTrace {
    /// FSD that the RATS and ATTRIB written here announce (FSDI 8: ISO/IEC 14443-4 §5.2.2).
    static let announcedFSD = 256
    /// FSC for each FSCI (ISO/IEC 14443-4 §5.2.3 and Amendment 2).
    static let frameSizes = [16, 24, 32, 40, 48, 64, 96, 128, 256, 512, 1024, 2048, 4096]

    package init(transcript: RFTranscript) throws(Problem) {
        var w = Lowering()
        for (i, e) in transcript.events.enumerated() { try w.lower(e, index: i) }
        w.finish()
        self.init(frames: w.frames, protocols: w.protocols)
        fillAirTime()
    }
}

private struct Lowering {
    var frames: [AirFrame] = []
    var protocols: Set<AirProtocol> = []
    var fieldOn = false
    var lastTime: UInt64 = 0
    /// The target that is activated, and how.
    var active: RFTarget?
    var isoDEP = false
    var blockNumber: UInt8 = 0
    var cipher: Crypto1?
    var authentications = 0
    var previousWasPoll = false

    // The frames of one event, timed when the event ends.
    var pending: [AirFrame] = []

    mutating func lower(_ e: RFTranscript.Event, index: Int) throws(AirTrace.Problem) {
        pending = []
        let wasPoll = previousWasPoll
        previousWasPoll = false
        switch e.operation {
        case .poll(let request, let targets, _):
            previousWasPoll = true
            poll(request, targets)
        case .activate(_, let iso, let result):
            cipher = nil
            switch result {
            case .success(let t): try activate(t, isoDEP: iso, afterPoll: wasPoll, index: index)
            case .failure:
                // The target did not answer its wake-up: the reader's request alone.
                reader([0x52], lastBits: 7)
                active = nil
            }
        case .authenticate(let a, let error): try authenticate(a, failed: error != nil, index: index)
        case .exchange(let command, let result):
            // S(WTX) requests the card sent (the recorder's air frames carry their bytes: ISO/IEC 14443-4 §7.3).
            let wtx = e.air.filter { $0.label == "S(WTX)" && !$0.bytes.isEmpty }.map(\.bytes)
            try exchange(command, result, index: index, wtx: wtx)
        case .deactivate: deactivate()
        }
        place(pending, at: e.time * 1_000, span: e.duration * 1_000)
    }

    mutating func finish() {
        if fieldOn { frames.append(AirFrame(.fieldOff, time: lastTime)) }
    }

    /// Spreads an event's frames over its span, in order; the field goes on before the first.
    mutating func place(_ list: [AirFrame], at start: UInt64, span: UInt64) {
        guard !list.isEmpty else { return }
        let t0 = max(start, lastTime)
        if !fieldOn {
            frames.append(AirFrame(.fieldOn, time: t0))
            fieldOn = true
        }
        for (i, var f) in list.enumerated() {
            f.time = t0 + span * UInt64(i) / UInt64(list.count)
            frames.append(f)
        }
        lastTime = frames.last!.time
    }

    mutating func reader(_ bytes: [UInt8], parity: [UInt8]? = nil, lastBits: Int? = nil) {
        pending.append(AirFrame(.reader, time: 0, bytes: bytes, parity: parity, lastBits: lastBits))
    }

    mutating func tag(_ bytes: [UInt8], parity: [UInt8]? = nil, lastBits: Int? = nil) {
        pending.append(AirFrame(.tag, time: 0, bytes: bytes, parity: parity, lastBits: lastBits))
    }

    static func crcA(_ b: [UInt8]) -> [UInt8] { CRC.appendingCRCA(b) }
    static func crcB(_ b: [UInt8]) -> [UInt8] {
        let c = CRC.crcB(b)
        return b + [UInt8(c & 0xFF), UInt8(c >> 8)]
    }
    static func felica(_ payload: [UInt8]) -> [UInt8] {
        let body = [UInt8(truncatingIfNeeded: payload.count + 1)] + payload
        let c = CRC.felica(body)
        return [0xB2, 0x4D] + body + [UInt8(c >> 8), UInt8(c & 0xFF)]
    }

    // MARK: polls and activation

    mutating func poll(_ request: RFPollRequest, _ targets: [RFTarget]) {
        for tech in [RFTechnology.nfcA, .nfcB, .nfcF, .nfcV] where request.technologies.contains(tech) {
            let found = targets.filter { $0.technology == tech }
            // A technology nothing answered is left out: a trace holds the protocols of its tags.
            guard let t = found.first else { continue }
            protocols.insert(AirProtocol(tech))
            switch t.activation {
            case .nfcA(let a):
                reader([request.nfcA?.wakeUp == false ? 0x26 : 0x52], lastBits: 7)
                tag(Self.atqa(a))
            case .nfcB(let b):
                let r = request.nfcB ?? RFPollRequest.NFCB()
                reader(Self.crcB([0x05, r.afi, r.wakeUp ? 0x08 : 0x00]))
                tag(Self.crcB(b.atqb))
            case .nfcF(let f):
                let r = request.nfcF ?? RFPollRequest.NFCF()
                reader(
                    Self.felica([
                        0x00, UInt8(r.systemCode >> 8), UInt8(r.systemCode & 0xFF), r.requestCode, r.timeSlots,
                    ]))
                tag(Self.felica([0x01] + f.idm + f.pmm + (f.requestData ?? [])))
            case .nfcV(let v):
                let r = request.nfcV ?? RFPollRequest.NFCV()
                // Inventory (ISO/IEC 15693-3 §10.3.1): high data rate, inventory, 1 or 16 slots, AFI when given.
                var flags: UInt8 = 0x06 | (r.slots == 1 ? 0x20 : 0)
                if r.afi != nil { flags |= 0x10 }
                reader(Self.crcB([flags, 0x01] + (r.afi.map { [$0] } ?? []) + [0x00]))
                tag(Self.crcB([0x00, v.dsfid] + v.uid.reversed()))
            }
        }
    }

    static func atqa(_ a: NFCAActivation) -> [UInt8] {
        let q = a.sensRes ?? (a.type1 != nil ? 0x0C00 : 0x0044)
        return [UInt8(q & 0xFF), UInt8(q >> 8)]
    }

    mutating func activate(_ t: RFTarget, isoDEP iso: Bool, afterPoll: Bool, index: Int) throws(AirTrace.Problem) {
        protocols.insert(AirProtocol(t.technology))
        active = t
        isoDEP = false
        blockNumber = 0
        switch t.activation {
        case .nfcA(let a):
            if !afterPoll {
                reader([0x52], lastBits: 7)
                tag(Self.atqa(a))
            }
            if let t1 = a.type1 {
                // RID (NFC Forum Digital §8.6.2): answer HR0 HR1 UID0…UID3, CRC_B.
                reader(Self.crcB([0x78, 0, 0, 0, 0, 0, 0]))
                tag(Self.crcB([t1.hr0, t1.hr1] + a.uid.prefix(4)))
                return
            }
            let levels: [[UInt8]]
            switch a.uid.count {
            case 4: levels = [a.uid]
            case 7: levels = [[0x88] + a.uid[0..<3], Array(a.uid[3..<7])]
            case 10: levels = [[0x88] + a.uid[0..<3], [0x88] + a.uid[3..<6], Array(a.uid[6..<10])]
            default:
                throw AirTrace.Problem(
                    "events[\(index)]: an NFC-A UID has 4, 7 or 10 bytes, not \(a.uid.count): no anticollision "
                        + "can carry it")
            }
            for (level, cl) in levels.enumerated() {
                let sel = [UInt8(0x93), 0x95, 0x97][level]
                let uidBytes = cl + [cl.reduce(0, ^)]
                reader([sel, 0x20])
                tag(uidBytes)
                reader(Self.crcA([sel, 0x70] + uidBytes))
                let last = level == levels.count - 1
                let sak = last ? (a.selRes ?? (a.ats != nil ? 0x20 : 0x00)) : 0x04
                tag(Self.crcA([sak]))
            }
            if iso, let ats = a.ats {
                reader(Self.crcA([0xE0, 0x80]))
                tag(Self.crcA(ats))
                isoDEP = true
            }
        case .nfcB(let b):
            if !afterPoll {
                reader(Self.crcB([0x05, 0x00, 0x08]))
                tag(Self.crcB(b.atqb))
            }
            if iso {
                // ATTRIB (ISO/IEC 14443-3 §7.10): PUPI, param 1 (default TR0/TR1, SOF/EOF), param 2 (106 kbit/s,
                // FSDI 8), param 3 (ISO/IEC 14443-4), param 4 (CID 0).
                reader(Self.crcB([0x1D] + b.pupi + [0x00, 0x08, 0x01, 0x00]))
                tag(Self.crcB(b.attribResponse ?? [0x00]))
                isoDEP = true
            }
        case .nfcF, .nfcV:
            // Nothing goes on the air: the poll's answer is all a card of these technologies needs.
            break
        }
    }

    // MARK: MIFARE Classic

    mutating func authenticate(_ a: RFAuthentication, failed: Bool, index: Int) throws(AirTrace.Problem) {
        guard case .mifareClassic(let block, let keyType, let key) = a, key.count == 6 else {
            throw AirTrace.Problem("events[\(index)]: a MIFARE Classic key has 6 bytes")
        }
        guard let uid = active?.nfcA?.uid else {
            throw AirTrace.Problem("events[\(index)]: an authentication with no NFC-A tag activated")
        }
        authentications += 1
        let uidWord = UInt32(mifareBytes: Array(uid.suffix(4)))
        // Deterministic nonces: a card's generator output (MifareNonce), and a counter for the reader's.
        let nT = MifareNonce.fromGenerator(seed: UInt16(truncatingIfNeeded: 0x1D3F &* authentications &+ Int(block)))
        let nR = UInt32(truncatingIfNeeded: 0x4E52_0000 | authentications).mifareBytes
        let command = Self.crcA([keyType.rawValue, block])
        var fresh = Crypto1(key: key)
        if var outer = cipher {
            let f = outer.encrypt(command)
            reader(f.bytes, parity: f.parity)
            let n = fresh.encryptNestedNonce(nT, uid: uidWord)
            tag(n.bytes, parity: n.parity)
        } else {
            reader(command)
            tag(nT.mifareBytes)
            fresh.shift(word: uidWord ^ nT)
        }
        let r = fresh.encryptReaderNonce(nR)
        let aR = fresh.encrypt(MifareNonce.successor(nT, 64).mifareBytes)
        reader(r.bytes + aR.bytes, parity: r.parity + aR.parity)
        if failed {
            cipher = nil
            return
        }
        let aT = fresh.encrypt(MifareNonce.successor(nT, 96).mifareBytes)
        tag(aT.bytes, parity: aT.parity)
        cipher = fresh
    }

    // MARK: exchanges

    mutating func exchange(
        _ command: [UInt8], _ result: Result<RFResponse, RFError>, index: Int, wtx: [[UInt8]] = []
    ) throws(AirTrace.Problem) {
        guard let t = active else {
            throw AirTrace.Problem("events[\(index)]: a frame was exchanged with no tag activated")
        }
        let answer = try? result.get()
        if isoDEP {
            isoDEPExchange(command, answer, technology: t.technology, wtx: wtx)
            return
        }
        switch t.activation {
        case .nfcA(let a) where a.type1 != nil:
            reader(Self.crcB(command))
            if case .frame(let b) = answer { tag(Self.crcB(b)) }
        case .nfcA:
            if var c = cipher {
                let f = c.encrypt(Self.crcA(command))
                reader(f.bytes, parity: f.parity)
                switch answer {
                case .frame(let b):
                    let g = c.encrypt(Self.crcA(b))
                    tag(g.bytes, parity: g.parity)
                    cipher = c
                case .ack:
                    tag([c.encrypt(nibble: 0x0A)], lastBits: 4)
                    cipher = c
                case .nak(let n):
                    tag([c.encrypt(nibble: n)], lastBits: 4)
                    cipher = nil
                case nil: cipher = nil
                }
                return
            }
            reader(Self.crcA(command))
            switch answer {
            case .frame(let b): tag(Self.crcA(b))
            case .ack: tag([0x0A], lastBits: 4)
            case .nak(let n): tag([n & 0x0F], lastBits: 4)
            case nil: break
            }
        case .nfcB:
            reader(Self.crcB(command))
            if case .frame(let b) = answer { tag(Self.crcB(b)) }
        case .nfcF:
            reader(Self.felica(command))
            if case .frame(let b) = answer { tag(Self.felica(b)) }
        case .nfcV:
            reader(Self.crcB(command))
            if case .frame(let b) = answer { tag(Self.crcB(b)) }
        }
    }

    /// FSC of the activated ISO-DEP card (its ATS T0 or ATQB protocol info), 32 when it says none.
    var fsc: Int {
        var fsci = 2
        if let ats = active?.nfcA?.ats, ats.count >= 2, ats[0] >= 2 { fsci = Int(ats[1] & 0x0F) }
        if let p = active?.nfcB?.protocolInfo, p.count >= 2 { fsci = Int(p[1] >> 4) }
        return AirTrace.frameSizes[min(fsci, AirTrace.frameSizes.count - 1)]
    }

    /// One ISO-DEP exchange as blocks (ISO/IEC 14443-4 §7.5): I-blocks without CID or NAD, chained to the card's
    /// FSC (answered by R(ACK) each) and, for the answer, to the FSD announced here (the reader's R(ACK) each).
    mutating func isoDEPExchange(
        _ command: [UInt8], _ answer: RFResponse?, technology: RFTechnology, wtx: [[UInt8]] = []
    ) {
        let typeB = technology == .nfcB
        let crc: ([UInt8]) -> [UInt8] = { typeB ? Self.crcB($0) : Self.crcA($0) }
        let commandPieces = Self.pieces(command, max: fsc - 3)
        for (i, piece) in commandPieces.enumerated() {
            let chained = i < commandPieces.count - 1
            reader(crc([0x02 | (chained ? 0x10 : 0) | blockNumber] + piece))
            if chained {
                tag(crc([0xA2 | blockNumber]))
                blockNumber ^= 1
            }
        }
        guard case .frame(let response) = answer else { return }
        // Each S(WTX) request and the reader's response, which repeats it (ISO/IEC 14443-4 §7.3).
        for request in wtx {
            tag(request)
            reader(request)
        }
        let answerPieces = Self.pieces(response, max: AirTrace.announcedFSD - 3)
        for (i, piece) in answerPieces.enumerated() {
            let chained = i < answerPieces.count - 1
            tag(crc([0x02 | (chained ? 0x10 : 0) | blockNumber] + piece))
            blockNumber ^= 1
            if chained { reader(crc([0xA2 | blockNumber])) }
        }
    }

    static func pieces(_ b: [UInt8], max: Int) -> [[UInt8]] {
        guard !b.isEmpty else { return [[]] }
        return stride(from: 0, to: b.count, by: max).map { Array(b[$0..<min($0 + max, b.count)]) }
    }

    mutating func deactivate() {
        guard let t = active else { return }
        if isoDEP {
            let typeB = t.technology == .nfcB
            let crc: ([UInt8]) -> [UInt8] = { typeB ? Self.crcB($0) : Self.crcA($0) }
            reader(crc([0xC2]))
            tag(crc([0xC2]))
        } else if t.technology == .nfcA, t.nfcA?.type1 == nil {
            if var c = cipher {
                let f = c.encrypt(Self.crcA([0x50, 0x00]))
                reader(f.bytes, parity: f.parity)
            } else {
                reader(Self.crcA([0x50, 0x00]))
            }
        }
        active = nil
        isoDEP = false
        cipher = nil
    }
}
