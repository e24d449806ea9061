internal import OpenNFCBytes
internal import OpenNFCCrypto
internal import OpenNFCRF
internal import OpenNFCSimulation

/// The card side of ISO-DEP blocks (ISO/IEC 14443-4 §7) that a host sends itself through InCommunicateThru
/// (nfcpy does): the virtual field carries whole payloads, so the chip's model unpacks the blocks.
struct CardBlockState {
    /// True once RATS (or ATTRIB) made the selected target an ISO-DEP card.
    var isoDEP = false
    /// The reader's frame size (FSD) from RATS, bytes of a block including PCB and CRC.
    var fsd = 256
    var command: [UInt8] = []
    var answer: [UInt8] = []
}

/// InCommunicateThru (UM0701-02 §7.3.9): the data goes out as the CIU registers frame it.
///
/// | Register | Bits | Effect here |
/// |---|---|---|
/// | TxMode `6302` | 7 TxCRCEn; 1–0 framing (00 A, 10 FeliCa, 11 B) | CRC off: the host's last two bytes must be a right CRC_A (else the card ignores the frame: timeout); FeliCa always has its CRC added and checked by the chip |
/// | RxMode `6303` | 7 RxCRCEn | off: the answer keeps its CRC (none on nonces, ACK/NAK and anticollision answers) |
/// | ManualRCV `630D` | 4 ParityDisable | on: the data is the bit stream `d0…d7 p` per byte, LSB first; the answer comes back the same way (Crypto1 on the host, as mfoc does) |
/// | BitFraming `633D` | 2–0 TxLastBits | 7 with one byte: REQA `26` / WUPA `52` as a short frame |
/// | Control `633C` | 2–0 RxLastBits | set after each answer: the valid bits of its last byte (0 = 8) |
///
/// No data at all is a receive-only transceive: nothing answers (status `01`).
extension VirtualPN532 {
    func inCommunicateThru(_ data: [UInt8]) -> [UInt8] {
        let txMode = register(0x6302)
        let rxCRC = register(0x6303) & 0x80 != 0
        let txCRC = txMode & 0x80 != 0
        let parityOff = register(0x630D) & 0x10 != 0
        let txLastBits = Int(register(0x633D) & 0x07)
        setRxLastBits(0)
        guard !data.isEmpty else { return [0x01] }
        switchFieldOn()
        let framing = txMode & 0x03
        if framing == 0x00 && txLastBits == 7 && data.count == 1 && (data[0] == 0x26 || data[0] == 0x52) {
            return shortFrame(wakeUp: data[0] == 0x52)
        }
        if framing == 0x00, let t = anticollision, [0x93, 0x95, 0x97].contains(data[0]) {
            return anticollide(data, t, txCRC: txCRC, rxCRC: rxCRC)
        }
        guard let target = activeTarget else { return [0x01] }
        do throws(RFError) {
            switch (framing, target.target.technology) {
            case (0x02, .nfcF):
                guard data.count >= 2, Int(data[0]) == data.count else { return [0x01] }
                guard case .frame(let a) = try reader.exchange(Array(data.dropFirst())) else { return [0x01] }
                // The CIU always generates and checks the CRC at 212 and 424 kbit/s, whatever TxCRCEn/RxCRCEn say
                // (PN512 datasheet §9.2.3.3, TxModeReg): the answer comes without it.
                return [0x00, UInt8(a.count + 1)] + a
            case (0x00, .nfcA) where target.brTy == 0x00:
                if parityOff { return try airFrame(data, bits: txLastBits) }
                var frame = data
                if !txCRC {
                    guard frame.count >= 3, Self.hasCRCA(frame) else { return [0x01] }
                    frame.removeLast(2)
                }
                if blocks.isoDEP || target.target.ats != nil {
                    return try isoDEPBlock(frame, crc: !rxCRC, crcA: true)
                }
                return try level3(frame, rxCRC: rxCRC)
            case (0x03, .nfcB):
                var frame = data
                if !txCRC {
                    guard frame.count >= 3, Self.hasCRCB(frame) else { return [0x01] }
                    frame.removeLast(2)
                }
                return try isoDEPBlock(frame, crc: !rxCRC, crcA: false)
            default:
                return [0x01]  // a framing this target does not hear
            }
        } catch {
            lastError = Self.status(for: error)
            return [lastError]
        }
    }

    func setRxLastBits(_ bits: Int) {
        registers[0x633C] = (register(0x633C) & 0xF8) | UInt8(bits & 0x07)
    }

    static func hasCRCA(_ f: [UInt8]) -> Bool {
        CRC.crcA(f.dropLast(2)) == UInt16(f[f.count - 2]) | UInt16(f[f.count - 1]) << 8
    }

    static func hasCRCB(_ f: [UInt8]) -> Bool {
        CRC.crcB(f.dropLast(2)) == UInt16(f[f.count - 2]) | UInt16(f[f.count - 1]) << 8
    }

    private func level3(_ frame: [UInt8], rxCRC: Bool) throws(RFError) -> [UInt8] {
        let answer = try reader.exchange(frame)
        switch answer {
        case .ack:
            setRxLastBits(4)
            return [0x00, 0x0A]
        case .nak(let n):
            setRxLastBits(4)
            return [0x00, n & 0x0F]
        case .frame(let a):
            if frame.count == 2 && frame[0] == 0xE0 {
                // RATS answered: the target is an ISO-DEP card from now on; FSDI gives the reader's frame size.
                blocks = CardBlockState()
                blocks.isoDEP = true
                blocks.fsd = Self.frameSize(frame[1] >> 4)
            }
            // A MIFARE Classic nonce (the answer to AUTH) carries no CRC on the air.
            let nonce = (frame.first == 0x60 || frame.first == 0x61) && a.count == 4
            return [0x00] + (rxCRC || nonce ? a : CRC.appendingCRCA(a))
        }
    }

    /// FSDI/FSCI → frame size (ISO/IEC 14443-4 §5.2.3).
    static func frameSize(_ index: UInt8) -> Int {
        let sizes = [16, 24, 32, 40, 48, 64, 96, 128, 256]
        return Int(index) < sizes.count ? sizes[Int(index)] : 256
    }

    /// A frame with parity disabled: the host's bit stream, each byte's 8 bits LSB first and then its parity bit,
    /// goes on the air as it is; the answer comes back packed the same way with RxLastBits.
    private func airFrame(_ data: [UInt8], bits lastBits: Int) throws(RFError) -> [UInt8] {
        let totalBits = (data.count - 1) * 8 + (lastBits == 0 ? 8 : lastBits)
        let n = totalBits / 9
        guard n > 0 else { return [0x01] }
        var bytes: [UInt8] = []
        var parity: [UInt8] = []
        func bit(_ i: Int) -> UInt8 { (data[i / 8] >> UInt8(i % 8)) & 1 }
        for k in 0..<n {
            var b: UInt8 = 0
            for j in 0..<8 { b |= bit(k * 9 + j) << UInt8(j) }
            bytes.append(b)
            parity.append(bit(k * 9 + 8))
        }
        switch try field.exchange(air: NFCAAirFrame(bytes: bytes, parity: parity)) {
        case .nibble(let v):
            setRxLastBits(4)
            return [0x00, v & 0x0F]
        case .frame(let f):
            var out: [UInt8] = []
            var count = 0
            func push(_ b: UInt8) {
                if count % 8 == 0 { out.append(0) }
                out[out.count - 1] |= (b & 1) << UInt8(count % 8)
                count += 1
            }
            for (b, p) in zip(f.bytes, f.parity) {
                for j in 0..<8 { push(b >> UInt8(j)) }
                push(p)
            }
            setRxLastBits(count % 8)
            return [0x00] + out
        case .silence:
            return [0x01]
        }
    }

    // MARK: Short frames and anticollision (ISO/IEC 14443-3 §6.3–6.4)

    /// REQA / WUPA: the ATQA of the first tag that answers, least significant byte first as on the air.
    private func shortFrame(wakeUp: Bool) -> [UInt8] {
        let found = field.poll(RFPollRequest(nfcA: .init(wakeUp: wakeUp))).first { $0.nfcA?.type1 == nil }
        anticollision = found
        guard let a = found?.nfcA else {
            registers[0x6339] = wakeUp ? 0x52 : 0x26
            return [0x01]
        }
        let q = a.sensRes ?? 0
        return [0x00, UInt8(q & 0xFF), UInt8(q >> 8)]
    }

    /// `93/95/97 20` → the cascade level's UID part with its BCC; `93/95/97 70 part BCC` → SAK (with the cascade
    /// bit while the UID goes on); the last level selects the tag in the field.
    private func anticollide(_ data: [UInt8], _ t: RFTarget, txCRC: Bool, rxCRC: Bool) -> [UInt8] {
        let uid = t.identifier
        let level = data[0] == 0x93 ? 0 : data[0] == 0x95 ? 1 : 2
        let levels = uid.count == 4 ? 1 : uid.count == 7 ? 2 : 3
        guard level < levels, data.count >= 2 else { return [0x01] }
        let part: [UInt8]
        switch (levels, level) {
        case (1, _): part = uid
        case (2, 0): part = [0x88] + uid[0..<3]
        case (2, _): part = Array(uid[3..<7])
        case (3, 0): part = [0x88] + uid[0..<3]
        case (3, 1): part = [0x88] + uid[3..<6]
        default: part = Array(uid[6..<10])
        }
        let bcc = part.reduce(0, ^)
        if data[1] == 0x20 { return [0x00] + part + [bcc] }
        var frame = data
        if !txCRC {
            guard frame.count == 9, Self.hasCRCA(frame) else { return [0x01] }
            frame.removeLast(2)
        }
        guard frame.count == 7, frame[1] == 0x70, Array(frame[2..<6]) == part, frame[6] == bcc else { return [0x01] }
        let last = level == levels - 1
        var sak = (t.selRes ?? 0)
        if !last {
            sak = 0x04
        } else {
            anticollision = nil
            guard let activated = try? reader.activate(t, isoDEP: false) else { return [0x01] }
            listed = [ListedTarget(target: activated, brTy: 0x00)]
            selected = 0
            blocks = CardBlockState()
        }
        return [0x00] + (rxCRC ? [sak] : CRC.appendingCRCA([sak]))
    }

    // MARK: ISO-DEP blocks (ISO/IEC 14443-4 §7.1)

    /// One block from the host → the card's block: I-blocks carry the payload (chained with R(ACK)s), R(NAK)
    /// gets R(ACK) (the presence check), S(DESELECT) is answered and the card halts.
    private func isoDEPBlock(_ block: [UInt8], crc: Bool, crcA: Bool) throws(RFError) -> [UInt8] {
        guard let pcb = block.first else { return [0x01] }
        func answer(_ b: [UInt8]) -> [UInt8] {
            guard crc else { return [0x00] + b }
            if crcA { return [0x00] + CRC.appendingCRCA(b) }
            let c = CRC.crcB(b)
            return [0x00] + b + [UInt8(c & 0xFF), UInt8(c >> 8)]
        }
        let number = pcb & 0x01
        switch pcb & 0xC0 {
        case 0x00:  // I-block
            var header = 1
            if pcb & 0x08 != 0 { header += 1 }  // CID
            if pcb & 0x04 != 0 { header += 1 }  // NAD
            guard block.count >= header else { return [0x01] }
            blocks.command += block[header...]
            if pcb & 0x10 != 0 { return answer([0xA2 | number]) }
            let command = blocks.command
            blocks.command = []
            guard case .frame(let a) = try reader.exchange(command) else { return [0x0B] }
            blocks.answer = a
            return answer(nextBlock(number))
        case 0x80:  // R-block
            if pcb & 0x10 == 0 && !blocks.answer.isEmpty { return answer(nextBlock(number)) }
            return answer([0xA2 | number])
        default:  // S-block
            if pcb & 0x30 == 0x00 {
                reader.deactivate()
                selected = nil
                blocks = CardBlockState()
                return answer([0xC2])
            }
            return [0x01]
        }
    }

    private func nextBlock(_ number: UInt8) -> [UInt8] {
        let room = max(blocks.fsd - 3, 1)
        let part = Array(blocks.answer.prefix(room))
        blocks.answer.removeFirst(part.count)
        return [(blocks.answer.isEmpty ? 0x02 : 0x12) | number] + part
    }
}
