internal import OpenNFCBytes
internal import OpenNFCCrypto
internal import OpenNFCRF

/// The exchanges of a capture read back as a reader's session (docs/TRACES.md, "Reading a capture back"): NFC-A
/// level 3 and MIFARE Classic (authentication and deciphering), NFC-B and ISO 15693 plain frames, FeliCa, and ISO-DEP
/// blocks reassembled across chaining.
extension TraceReader {
    // MARK: level 3 and MIFARE Classic

    mutating func level3(_ f: AirFrame, _ t: RFTarget) {
        let b = f.bytes
        if b == [0x50, 0x00, 0x57, 0xCD] {
            labels[i] = "HLTA"
            emit(.deactivate, at: i)
            mode = .idle
            i += 1
            return
        }
        if b.count == 4, b[0] == 0x60 || b[0] == 0x61, Self.crcAOK(b), let nT = frame(i + 1, .tag), nT.bytes.count == 4
        {
            authenticate(keyType: b[0], block: b[1], nTFrame: nT, outer: nil, t)
            return
        }
        plainExchange(f, crcB: false)
    }

    mutating func authenticate(keyType: UInt8, block: UInt8, nTFrame: AirFrame, outer: Crypto1?, _ t: RFTarget) {
        let k = i
        let name = "AUTH-\(keyType == 0x60 ? "A" : "B") block \(block)"
        labels[i] = outer == nil ? name : "\(name) (nested, enciphered)"
        labels[i + 1] = outer == nil ? "nT" : "{nT}"
        if outer != nil { enciphered.formUnion([i, i + 1]) }
        i += 2
        let uid = UInt32(mifareBytes: Array((t.nfcA?.uid ?? []).suffix(4)))
        guard let readerFrame = frame(i, .reader), readerFrame.bytes.count == 8 else {
            problem(k, "\(name): the reader did not answer the card's nonce")
            mode = .opaque
            return
        }
        labels[i] = "{nR}{aR}"
        enciphered.insert(i)
        let aTFrame = frame(i + 1, .tag)
        if aTFrame?.bytes.count == 4 { enciphered.insert(i + 1) }
        i += 1
        for key in keys {
            var c = Crypto1(key: key)
            let nT: UInt32
            if outer != nil {
                let n = c.decryptNestedNonce(
                    Crypto1Frame(bytes: nTFrame.bytes, parity: nTFrame.parityBits), uid: uid)
                nT = n.nonce
            } else {
                nT = UInt32(mifareBytes: nTFrame.bytes)
                c.shift(word: uid ^ nT)
            }
            let p = readerFrame.parityBits
            _ = c.decryptReaderNonce(Crypto1Frame(bytes: Array(readerFrame.bytes[0..<4]), parity: Array(p[0..<4])))
            let aR = c.decrypt(Crypto1Frame(bytes: Array(readerFrame.bytes[4..<8]), parity: Array(p[4..<8])))
            guard UInt32(mifareBytes: aR.bytes) == MifareNonce.successor(nT, 64) else { continue }
            let keyT: RFAuthentication.MiFareKeyType = keyType == 0x60 ? .a : .b
            let auth = RFAuthentication.mifareClassic(block: block, keyType: keyT, key: key)
            if let aT = aTFrame, aT.bytes.count == 4 {
                labels[i] = "{aT}"
                i += 1
                _ = c.decrypt(Crypto1Frame(bytes: aT.bytes, parity: aT.parityBits))
                emit(.authenticate(auth, nil), at: k)
                mode = .enciphered(t, c)
            } else {
                emit(.authenticate(auth, RFError(.protocolViolation, "\(name) failed: the card did not answer")), at: k)
                mode = .level3(t)
            }
            return
        }
        problem(
            k,
            "\(name): \(keys.isEmpty ? "no key was given" : "none of the \(keys.count) keys given deciphers it") "
                + "(--key); the frames after it stay enciphered")
        mode = .opaque
    }

    mutating func decipher(_ f: AirFrame, _ t: RFTarget, _ cipher: Crypto1) {
        enciphered.insert(i)
        if frame(i + 1, .tag) != nil { enciphered.insert(i + 1) }
        var c = cipher
        let plain = c.decrypt(Crypto1Frame(bytes: f.bytes, parity: f.parityBits))
        let b = plain.bytes
        let ok = plain.parityOK && Self.crcAOK(b)
        if ok, b.count == 4, b[0] == 0x60 || b[0] == 0x61, let nT = frame(i + 1, .tag), nT.bytes.count == 4 {
            authenticate(keyType: b[0], block: b[1], nTFrame: nT, outer: c, t)
            return
        }
        if ok, Array(b.prefix(2)) == [0x50, 0x00] {
            labels[i] = "HLTA (enciphered)"
            emit(.deactivate, at: i)
            mode = .idle
            i += 1
            return
        }
        let command = ok ? Array(b.dropLast(2)) : b
        labels[i] = "enciphered; plain \(b.hexString)\(ok ? "" : " (parity or CRC_A wrong)")"
        let k = i
        i += 1
        var result: Result<RFResponse, RFError>
        var answerAt: Int?
        if let a = frame(i, .tag) {
            answerAt = i
            if a.bytes.count == 1, a.lastBits == 4 || a.bytes[0] <= 0x0F {
                let n = c.decrypt(nibble: a.bytes[0])
                labels[i] = n == 0x0A ? "ACK (enciphered)" : "NAK \(n) (enciphered)"
                result = .success(n == 0x0A ? .ack : .nak(n))
                if n != 0x0A {
                    mode = .level3(t)
                    i += 1
                    record(command, result, k, answerAt)
                    return
                }
            } else {
                let p = c.decrypt(Crypto1Frame(bytes: a.bytes, parity: a.parityBits))
                let good = p.parityOK && Self.crcAOK(p.bytes)
                labels[i] = "enciphered; plain \(p.bytes.hexString)\(good ? "" : " (parity or CRC_A wrong)")"
                result =
                    good
                    ? .success(.frame(Array(p.bytes.dropLast(2))))
                    : .failure(RFError(.transmission, "an enciphered answer failed its parity or CRC_A check"))
            }
            i += 1
        } else {
            result = .failure(RFError(.timeout, "no answer"))
        }
        mode = .enciphered(t, c)
        record(command, result, k, answerAt)
    }

    mutating func record(_ command: [UInt8], _ result: Result<RFResponse, RFError>, _ k: Int, _ answerAt: Int?) {
        exchangeFrames[events.count] = (k, answerAt)
        emit(.exchange(command, result), at: k)
    }

    /// A frame with its CRC (CRC_A for NFC-A level 3, CRC_B for Type 1, NFC-B and ISO 15693) and its answer.
    mutating func plainExchange(_ f: AirFrame, crcB: Bool) {
        let ok = crcB ? Self.crcBOK(f.bytes) : Self.crcAOK(f.bytes)
        let command = ok ? Array(f.bytes.dropLast(2)) : f.bytes
        labels[i] = ok ? "frame + CRC" : "frame, CRC wrong"
        if !ok { problem(i, "the reader's frame \(f.bytes.hexString) has a wrong CRC") }
        let k = i
        i += 1
        guard let a = frame(i, .tag) else {
            record(command, .failure(RFError(.timeout, "no answer")), k, nil)
            return
        }
        let answerAt = i
        i += 1
        if !crcB, a.bytes.count == 1, a.lastBits == 4 || a.bytes[0] <= 0x0F {
            labels[answerAt] = a.bytes[0] == 0x0A ? "ACK" : "NAK"
            record(command, .success(a.bytes[0] == 0x0A ? .ack : .nak(a.bytes[0])), k, answerAt)
            return
        }
        let good = crcB ? Self.crcBOK(a.bytes) : Self.crcAOK(a.bytes)
        labels[answerAt] = good ? "answer + CRC" : "answer, CRC wrong"
        record(
            command,
            good
                ? .success(.frame(Array(a.bytes.dropLast(2))))
                : .failure(RFError(.transmission, "the answer's CRC is wrong")), k, answerAt)
    }

    mutating func felicaExchange(_ f: AirFrame) {
        let k = i
        i += 1
        guard let command = Self.felicaPayload(f.bytes) else {
            labels[k] = "not a FeliCa frame (sync, LEN or CRC wrong)"
            problem(k, "\(f.bytes.hexString) is not a FeliCa frame")
            if frame(i, .tag) != nil { i += 1 }
            return
        }
        labels[k] = "FeliCa frame"
        guard let a = frame(i, .tag) else {
            record(command, .failure(RFError(.timeout, "no answer")), k, nil)
            return
        }
        let answerAt = i
        i += 1
        if let p = Self.felicaPayload(a.bytes) {
            labels[answerAt] = "FeliCa frame"
            record(command, .success(.frame(p)), k, answerAt)
        } else {
            labels[answerAt] = "not a FeliCa frame"
            record(command, .failure(RFError(.transmission, "the answer is no FeliCa frame")), k, answerAt)
        }
    }

    // MARK: ISO-DEP

    /// INF of an I-block without CRC (CID and NAD skipped when the PCB says they are there).
    static func inf(_ b: [UInt8]) -> [UInt8] {
        var start = 1
        if b[0] & 0x08 != 0 { start += 1 }
        if b[0] & 0x04 != 0 { start += 1 }
        return b.count - 2 > start ? Array(b[start..<(b.count - 2)]) : []
    }

    mutating func isoDEP(_ f: AirFrame, _ t: RFTarget) {
        let typeB = t.technology == .nfcB
        let crcOK: ([UInt8]) -> Bool = { typeB ? Self.crcBOK($0) : Self.crcAOK($0) }
        let b = f.bytes
        guard crcOK(b) else {
            labels[i] = "block, CRC wrong"
            problem(i, "the reader's block \(b.hexString) has a wrong CRC")
            i += 1
            return
        }
        let pcb = b[0]
        if pcb & 0xF7 == 0xC2 {
            labels[i] = "S(DESELECT)"
            i += 1
            if let a = frame(i, .tag), a.bytes.first.map({ $0 & 0xF7 == 0xC2 }) == true {
                labels[i] = "S(DESELECT)"
                i += 1
            }
            emit(.deactivate, at: i - 1)
            mode = .idle
            return
        }
        guard pcb & 0xE2 == 0x02 else {
            labels[i] = pcb & 0xC0 == 0x80 ? "R-block \(pcb & 1)" : "S-block"
            i += 1
            return
        }
        // The command: I-blocks, chained ones answered by R(ACK).
        var command: [UInt8] = []
        var current = f
        while true {
            let chained = current.bytes[0] & 0x10 != 0
            labels[i] = "I-block \(current.bytes[0] & 1)\(chained ? ", chained" : "")"
            command += Self.inf(current.bytes)
            i += 1
            guard chained else { break }
            guard let ack = frame(i, .tag), crcOK(ack.bytes), ack.bytes[0] & 0xF6 == 0xA2 else {
                problem(i, "a chained I-block is not answered by R(ACK)")
                record(command, .failure(RFError(.protocolViolation, "chaining broken")), i - 1, nil)
                return
            }
            labels[i] = "R(ACK) \(ack.bytes[0] & 1)"
            i += 1
            guard let next = frame(i, .reader), crcOK(next.bytes), next.bytes[0] & 0xE2 == 0x02 else {
                problem(i, "the reader stopped in the middle of a chain")
                record(command, .failure(RFError(.protocolViolation, "chaining broken")), i - 1, nil)
                return
            }
            current = next
        }
        let last = i - 1
        // The answer: I-blocks (chained ones acknowledged by the reader), S(WTX) requests answered.
        var answer: [UInt8] = []
        var answerAt: Int?
        while let a = frame(i, .tag) {
            guard crcOK(a.bytes) else {
                labels[i] = "block, CRC wrong"
                answerAt = i
                i += 1
                record(command, .failure(RFError(.transmission, "the card's block has a wrong CRC")), last, answerAt)
                return
            }
            let p = a.bytes[0]
            if p & 0xF7 == 0xF2 {
                labels[i] = "S(WTX)"
                i += 1
                if let r = frame(i, .reader), r.bytes.first.map({ $0 & 0xF7 == 0xF2 }) == true {
                    labels[i] = "S(WTX) answer"
                    i += 1
                }
                continue
            }
            guard p & 0xE2 == 0x02 else {
                labels[i] = "unexpected block"
                i += 1
                break
            }
            let chained = p & 0x10 != 0
            labels[i] = "I-block \(p & 1)\(chained ? ", chained" : "")"
            answer += Self.inf(a.bytes)
            answerAt = i
            i += 1
            guard chained else {
                record(command, .success(.frame(answer)), last, answerAt)
                return
            }
            guard let ack = frame(i, .reader), crcOK(ack.bytes), ack.bytes[0] & 0xF6 == 0xA2 else { break }
            labels[i] = "R(ACK) \(ack.bytes[0] & 1)"
            i += 1
        }
        record(command, .failure(RFError(.timeout, "no answer")), last, answerAt)
    }
}
