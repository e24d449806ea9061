internal import OpenNFCBytes
internal import OpenNFCRF
internal import OpenNFCSimulation

/// InDataExchange (UM0701-02 §7.3.8): the chip frames the data for the selected target's protocol itself.
///
/// | Target | The host sends | The chip does |
/// |---|---|---|
/// | MIFARE Classic | `60`/`61` block key(6) UID(last 4) | the three-pass authentication with its own Crypto1 (``VirtualFieldFrontend``); later frames enciphered; failure `14` and the card halts |
/// | MIFARE Classic / Ultralight | `A0` block data(16) | WRITE in two frames, each acknowledged |
/// | MIFARE Classic | `C0`/`C1`/`C2` block value(4) | the value operation in two frames (no answer to the second is success) |
/// | other level-3 NFC-A | the frame | CRC_A added and checked; ACK → status `00` alone, NAK → `14` |
/// | Type 1 (Jewel) | `cmd [ADD] [DATA]` | the UID appended (NFC Forum T1T §5), RID's padding, the address echo removed |
/// | FeliCa | `LEN cmd …` | the frame without LEN to the card; its answer with LEN |
/// | ISO-DEP (A or B) | the INF (APDU, DESFire command); `Tg` bit 6 (MI) chains the host's data | I-blocks, chaining and WTX on the air; an answer above 262 bytes comes back in parts with status bit 6 (MI), the host asking for more with `Tg` alone |
extension VirtualPN532 {
    func inDataExchange(_ p: [UInt8]) -> [UInt8]? {
        guard let first = p.first else { return nil }
        let tg = Int(first & 0x3F)
        let more = first & 0x40 != 0
        guard listed.indices.contains(tg - 1) else { return [0x41, 0x27] }
        guard let target = activeTarget, selected == tg - 1 else { return fail(0x01) }
        let data = chainedCommand + p.dropFirst()
        if more {
            guard data.count <= 4096 else { return fail(0x0E) }
            chainedCommand = data
            return [0x41, 0x00]
        }
        chainedCommand = []
        if data.isEmpty && !chainedAnswer.isEmpty { return nextAnswerPart() }
        chainedAnswer = []
        do throws(RFError) {
            switch target.brTy {
            case 0x04: return try type1(data, target.target)
            case 0x01, 0x02:
                guard data.count >= 2, Int(data[0]) == data.count else { return fail(0x10) }
                guard case .frame(let answer) = try reader.exchange(Array(data.dropFirst())) else { return fail(0x0B) }
                return ok([UInt8(answer.count + 1)] + answer)
            default:
                if target.target.isISODEP {
                    guard case .frame(let answer) = try reader.exchange(data) else { return fail(0x0B) }
                    chainedAnswer = answer
                    return nextAnswerPart()
                }
                return try level3(data, target.target)
            }
        } catch {
            return fail(Self.status(for: error))
        }
    }

    private func ok(_ data: [UInt8]) -> [UInt8] {
        lastError = 0
        return [0x41, 0x00] + data
    }

    func fail(_ status: UInt8) -> [UInt8] {
        lastError = status
        return [0x41, status]
    }

    private func nextAnswerPart() -> [UInt8] {
        let part = Array(chainedAnswer.prefix(Self.maxDataIn))
        chainedAnswer.removeFirst(part.count)
        lastError = 0
        return [0x41, chainedAnswer.isEmpty ? 0x00 : 0x40] + part
    }

    private func level3(_ data: [UInt8], _ target: RFTarget) throws(RFError) -> [UInt8] {
        guard let command = data.first else { return fail(0x10) }
        switch (command, data.count) {
        case (0x60, 12), (0x61, 12):
            // The chip authenticates with the UID the host gives (its last 4 bytes): another UID fails like a
            // wrong key would (MF1S50yyX §10.1: the UID enters the cipher's initial state).
            guard Array(data[8..<12]) == Array(target.identifier.suffix(4)) else { return fail(0x14) }
            do {
                try reader.authenticate(
                    .mifareClassic(block: data[1], keyType: command == 0x60 ? .a : .b, key: Array(data[2..<8])))
                return ok([])
            } catch {
                return fail(error.code == .protocolViolation || error.code == .timeout ? 0x14 : Self.status(for: error))
            }
        case (0x60, _), (0x61, _):
            return fail(0x10)
        case (0xA0, 18):
            guard try reader.exchange(Array(data[0..<2])) == .ack else { return fail(0x14) }
            guard try reader.exchange(Array(data[2...])) == .ack else { return fail(0x14) }
            return ok([])
        case (0xC0, 6), (0xC1, 6), (0xC2, 6):
            guard try reader.exchange(Array(data[0..<2])) == .ack else { return fail(0x14) }
            do {
                let second = try reader.exchange(Array(data[2...]))
                if case .nak = second { return fail(0x14) }
            } catch {
                // MF1S50yyX §10.5: the card does not answer the value; a timeout is the success.
                guard error.code == .timeout else { throw error }
            }
            return ok([])
        default:
            switch try reader.exchange(data) {
            case .frame(let answer): return ok(answer)
            case .ack: return ok([])
            case .nak: return fail(0x14)
            }
        }
    }

    /// Type 1 (NFC Forum T1T §5.2): the chip appends UID0–3 and pads as each command needs.
    private func type1(_ body: [UInt8], _ target: RFTarget) throws(RFError) -> [UInt8] {
        let uid = Array(target.identifier.prefix(4))
        let frame: [UInt8]
        switch (body.first, body.count) {
        case (0x78?, 7), (0x00?, 7): frame = body
        case (0x78?, 1), (0x00?, 1): frame = [body[0], 0x00, 0x00] + uid
        case (0x01?, 2): frame = body + [0x00] + uid
        case (0x53?, 3), (0x1A?, 3): frame = body + uid
        case (0x10?, 2), (0x02?, 2): frame = body + [UInt8](repeating: 0, count: 8) + uid
        case (0x54?, 10), (0x1B?, 10): frame = body + uid
        default: return fail(0x10)
        }
        guard case .frame(let answer) = try reader.exchange(frame), !answer.isEmpty else { return fail(0x01) }
        // RID and RALL answer HR0 HR1 first; the others begin with the address echo, which the chip drops.
        let keepsAll = body[0] == 0x78 || body[0] == 0x00
        return ok(keepsAll ? answer : Array(answer.dropFirst()))
    }
}
