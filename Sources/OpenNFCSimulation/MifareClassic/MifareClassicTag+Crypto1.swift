internal import OpenNFCBytes
internal import OpenNFCCrypto
internal import OpenNFCRF

/// Authentication and the enciphered link (MF1S50yyX §8.3, Crypto1 as docs/SECURITY.md describes it).
extension MifareClassicTag {
    /// Loads the cipher with the sector's key and draws nT; nil for a block outside the chip.
    func startAuthentication(keyType: UInt8, block: Int) -> UInt32? {
        guard block < model.blockCount else { return nil }
        let sector = MifareClassicModel.sector(ofBlock: block)
        let nT = drawNonce()
        var c = Crypto1(key: key(keyType, sector: sector))
        c.shift(word: uidWord ^ nT)
        cipher = c
        awaiting = (
            nT,
            Session(
                sector: sector, keyType: keyType, keyUsable: keyUsable(keyType, sector: sector),
                keyKnown: !unknownKeys.contains(KeySlot(sector: sector, isKeyB: keyType == 0x61)))
        )
        session = nil
        pending = nil
        return nT
    }

    // MARK: Nonces

    /// One bit period on the air: 128/fc, about 9.44 µs (ISO/IEC 14443-2 §8.1, 106 kbit/s).
    /// A byte takes 9 of them with its parity bit (ISO/IEC 14443-3 §6.2.3.1).
    static func bitsOnAir(bytes: Int) -> Int { 9 * bytes }

    /// The frame delay time between the reader's last bit and the card's first: 1236/fc after a last bit 1
    /// (ISO/IEC 14443-3 §6.2.1.1), rounded up to whole bit periods.
    static let frameDelayBits = 10

    /// Time passes on the air: the nonce generator runs on, one step per bit period (MF1S50yyX §8.3; the 16-bit
    /// LFSR of "Dismantling MIFARE Classic", ESORICS 2008, §3.3, clocked since power-up). Every frame the card
    /// hears, whether it answers or not, and every answer it sends count their bit periods plus the frame delay,
    /// so two authentications separated by the same frames are separated by the same number of steps — the
    /// "nonce distance" the nested attack measures and relies on (docs/SECURITY.md, "Nonces").
    func elapse(bits: Int) {
        if let g = generator { generator = MifareNonce.successor(g, bits) }
    }

    /// nT: the generator's output now. The first one after power-up is drawn from ``random`` (where a real card's
    /// generator stands depends on when the reader's first AUTH comes); from then on the generator only runs.
    func drawNonce() -> UInt32 {
        if let g = generator { return g }
        let seed = random.bytes(2)
        let g = MifareNonce.fromGenerator(seed: UInt16(seed[0]) | UInt16(seed[1]) << 8)
        generator = g
        return g
    }

    /// False for key B where the trailer makes key B readable (MF1S50yyX §8.7.2).
    func keyUsable(_ keyType: UInt8, sector: Int) -> Bool {
        guard keyType == 0x61, let c = conditions(sector: sector) else { return true }
        return !MifareClassicAccessRules.keyBReadable(c[3])
    }

    // MARK: Frames with parity bits

    package func receive(air frame: NFCAAirFrame, tearAfter: Int?) -> NFCAAirAnswer {
        // A plain frame is counted by receive(_:); an enciphered one carries its CRC_A inside.
        guard cipher != nil else { return airAnswer(frame, tearAfter: tearAfter) }
        elapse(bits: Self.bitsOnAir(bytes: frame.bytes.count) + Self.frameDelayBits)
        let answer = airAnswer(frame, tearAfter: tearAfter)
        switch answer {
        case .frame(let f): elapse(bits: Self.bitsOnAir(bytes: f.bytes.count))
        case .nibble: elapse(bits: 4)
        case .silence: break
        }
        return answer
    }

    private func airAnswer(_ frame: NFCAAirFrame, tearAfter: Int?) -> NFCAAirAnswer {
        guard !isMuted, !frame.bytes.isEmpty else { return .silence }
        guard var c = cipher else {
            // Not enciphered: the frame's CRC is the field's business; hand the plain bytes on.
            switch receive(frame.bytes, tearAfter: tearAfter) {
            case .data(let d): return .frame(NFCAAirFrame(bytes: d, parity: d.map(Crypto1Frame.oddParity)))
            case .ack: return .nibble(0x0A)
            case .nak(let n): return .nibble(n)
            case .silence: return .silence
            }
        }
        if let (nT, pendingSession) = awaiting {
            awaiting = nil
            guard frame.bytes.count == 8, frame.parity.count == 8 else { return airMute() }
            let nR = c.decryptReaderNonce(
                Crypto1Frame(bytes: Array(frame.bytes[0..<4]), parity: Array(frame.parity[0..<4])))
            let aR = c.decrypt(Crypto1Frame(bytes: Array(frame.bytes[4..<8]), parity: Array(frame.parity[4..<8])))
            // Garcia et al. 2009 §3: with every parity bit right but a wrong answer the card sends an enciphered
            // NAK 5; with a parity bit wrong it stays silent.
            guard nR.parityOK && aR.parityOK else { return airMute() }
            guard pendingSession.keyKnown, UInt32(mifareBytes: aR.bytes) == MifareNonce.successor(nT, 64) else {
                let nak = c.encrypt(nibble: 0x05)
                reset()
                isMuted = true
                return .nibble(nak)
            }
            let aT = c.encrypt(MifareNonce.successor(nT, 96).mifareBytes)
            cipher = c
            session = pendingSession
            return .frame(NFCAAirFrame(bytes: aT.bytes, parity: aT.parity))
        }
        let plain = c.decrypt(Crypto1Frame(bytes: frame.bytes, parity: frame.parity))
        cipher = c
        guard plain.parityOK, plain.bytes.count >= 3,
            CRC.crcA(plain.bytes.dropLast(2)) == UInt16(plain.bytes[plain.bytes.count - 2])
                | UInt16(plain.bytes[plain.bytes.count - 1]) << 8
        else { return nak(5) }
        return command(Array(plain.bytes.dropLast(2)), tearAfter: tearAfter)
    }

    func airMute() -> NFCAAirAnswer {
        reset()
        isMuted = true
        return .silence
    }

    func ack() -> NFCAAirAnswer {
        guard var c = cipher else { return .silence }
        let v = c.encrypt(nibble: 0x0A)
        cipher = c
        return .nibble(v)
    }

    func nak(_ code: UInt8) -> NFCAAirAnswer {
        guard var c = cipher else { return .silence }
        let v = c.encrypt(nibble: code)
        reset()
        isMuted = true
        return .nibble(v)
    }

    func data(_ bytes: [UInt8]) -> NFCAAirAnswer {
        guard var c = cipher else { return .silence }
        let f = c.encrypt(CRC.appendingCRCA(bytes))
        cipher = c
        return .frame(NFCAAirFrame(bytes: f.bytes, parity: f.parity))
    }

    /// One deciphered command of an authenticated session (CRC stripped).
    func command(_ cmd: [UInt8], tearAfter: Int?) -> NFCAAirAnswer {
        guard let s = session else { return airMute() }
        if let p = pending {
            pending = nil
            switch p {
            case .write(let block): return write(block, cmd, session: s, tearAfter: tearAfter)
            case .value(let command, let block): return valueOperand(command, block, cmd)
            }
        }
        guard cmd.count == 2 else { return cmd.isEmpty ? airMute() : nak(4) }
        let block = Int(cmd[1])
        switch cmd[0] {
        case 0x60, 0x61:
            // Nested authentication: nT goes out enciphered with the new key (Garcia et al. 2009 §2.2).
            guard block < model.blockCount else { return nak(4) }
            let sector = MifareClassicModel.sector(ofBlock: block)
            let nT = drawNonce()
            var c = Crypto1(key: key(cmd[0], sector: sector))
            let f = c.encryptNestedNonce(nT, uid: uidWord)
            cipher = c
            awaiting = (nT, Session(sector: sector, keyType: cmd[0], keyUsable: keyUsable(cmd[0], sector: sector)))
            session = nil
            transferBuffer = nil
            return .frame(NFCAAirFrame(bytes: f.bytes, parity: f.parity))
        case 0x50 where cmd[1] == 0x00:
            return airMute()
        case 0x30:
            guard let bytes = read(block, session: s) else { return nak(4) }
            return data(bytes)
        case 0xA0:
            guard mayWrite(block, session: s) else { return nak(4) }
            pending = .write(block)
            return ack()
        case 0xC0, 0xC1, 0xC2:
            guard let rules = dataRules(block, session: s), let (_, _) = valueBlock(block) else { return nak(4) }
            let allowed = cmd[0] == 0xC1 ? rules.increment : rules.decrement
            guard allowed.grants(s.keyType) else { return nak(4) }
            pending = .value(command: cmd[0], block: block)
            return ack()
        case 0xB0:
            guard let buffer = transferBuffer, let rules = dataRules(block, session: s),
                rules.decrement.grants(s.keyType)
            else { return nak(4) }
            if tearAfter.map({ $0 >= 16 }) ?? true {
                memory.replaceSubrange(
                    block * 16..<block * 16 + 16, with: Self.valueBlock(buffer.value, address: buffer.address))
            }
            return ack()
        default:
            return nak(4)
        }
    }
}
