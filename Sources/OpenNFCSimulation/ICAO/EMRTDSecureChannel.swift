/// Card-side secure messaging of an eMRTD (ICAO Doc 9303 Part 11 §9.8; BSI TR-03110-3 Appendix F): unwrapping a
/// protected command, wrapping the answer, counting with the send sequence counter.
///
/// | Step | Rule |
/// |---|---|
/// | Command | SSC + 1; DOs in order `87` (even INS: `01` ‖ ciphertext) or `85` (odd INS: ciphertext), `97` (Le), `8E` (MAC); the MAC covers pad(SSC ‖ pad(CLA INS P1 P2) ‖ DO'87'/'85' ‖ DO'97') |
/// | Response | SSC + 1; `87`/`85` when there is data, `99` (SW1 SW2), `8E` over pad(SSC ‖ DO'87'/'85' ‖ DO'99') |
/// | 3DES | 8-byte SSC, IV zero, ISO/IEC 9797-1 MAC algorithm 3 |
/// | AES | 16-byte SSC, IV = E(KSenc, SSC), CMAC truncated to 8 bytes |
/// | Padding | ISO/IEC 9797-1 method 2, always, even on aligned data |
///
/// A missing `8E` or a command without any SM data object is `69 87`; a wrong MAC, a malformed or misplaced
/// data object, or bad padding is `69 88`. Either way the chip ends secure messaging (TR-03110-3 §F.6).
struct EMRTDSecureChannel: Sendable {
    let cipher: SMCipher
    let encryptionKey: [UInt8]
    let macKey: [UInt8]
    /// The send sequence counter, big-endian, 8 (3DES) or 16 (AES) bytes.
    var ssc: [UInt8]

    /// The status word ending secure messaging.
    enum Failure: Error {
        /// `69 87`: expected SM data objects missing.
        case missingObjects
        /// `69 88`: SM data objects incorrect.
        case incorrectObjects

        var status: ISO7816Status {
            self == .missingObjects ? ISO7816Status(rawValue: 0x6987) : ISO7816Status(rawValue: 0x6988)
        }
    }

    init(cipher: SMCipher, encryptionKey: [UInt8], macKey: [UInt8], ssc: [UInt8]? = nil) {
        self.cipher = cipher
        self.encryptionKey = encryptionKey
        self.macKey = macKey
        self.ssc = ssc ?? [UInt8](repeating: 0, count: cipher.blockLength)
    }

    mutating func increment() {
        var i = ssc.count - 1
        while i >= 0 {
            ssc[i] &+= 1
            if ssc[i] != 0 { break }
            i -= 1
        }
    }

    private func iv() throws(ICAOCryptoError) -> [UInt8] {
        try cipher.isAES ? ICAOCrypto.encryptBlock(cipher, key: encryptionKey, ssc) : [UInt8](repeating: 0, count: 8)
    }

    /// The plain command inside `command` (which has CLA bits `0C` set); the SSC advances once.
    mutating func unwrap(_ command: ISO7816Command) throws(Failure) -> ISO7816Command {
        increment()
        let data = command.data
        var objects: [(tag: UInt16, whole: Range<Int>, value: Range<Int>)] = []
        var at = 0
        while at < data.count {
            guard let e = LDSTLV.element(data, at: at) else { throw .incorrectObjects }
            objects.append((e.tag, at..<e.value.upperBound, e.value))
            at = e.value.upperBound
        }
        guard let last = objects.last, last.tag == 0x8E else {
            throw .missingObjects
        }
        guard last.value.count == 8 else { throw .incorrectObjects }
        var cryptogram: (tag: UInt16, whole: Range<Int>, value: Range<Int>)?
        var le: (whole: Range<Int>, value: Range<Int>)?
        for o in objects.dropLast() {
            switch o.tag {
            case 0x87, 0x85:
                guard cryptogram == nil, le == nil else { throw .incorrectObjects }
                guard (o.tag == 0x85) == (command.ins & 0x01 == 1) else { throw .incorrectObjects }
                cryptogram = o
            case 0x97:
                guard le == nil, o.value.count <= 2 else { throw .incorrectObjects }
                le = (o.whole, o.value)
            default:
                throw .incorrectObjects
            }
        }
        var header = [command.cla, command.ins, command.p1, command.p2]
        header = ICAOCrypto.pad(header, block: cipher.blockLength)
        var input = ssc + header
        if let cryptogram { input += data[cryptogram.whole] }
        if let le { input += data[le.whole] }
        do {
            let mac = try ICAOCrypto.mac(cipher, key: macKey, ICAOCrypto.pad(input, block: cipher.blockLength))
            guard mac.elementsEqual(data[last.value]) else { throw Failure.incorrectObjects }
        } catch {
            throw .incorrectObjects
        }
        var plain: [UInt8] = []
        if let cryptogram {
            var body = Array(data[cryptogram.value])
            if cryptogram.tag == 0x87 {
                guard body.first == 0x01 else { throw .incorrectObjects }
                body.removeFirst()
            }
            guard !body.isEmpty, body.count % cipher.blockLength == 0 else { throw .incorrectObjects }
            do {
                let padded = try ICAOCrypto.decryptCBC(cipher, key: encryptionKey, iv: iv(), body)
                guard let unpadded = ICAOCrypto.unpad(padded, block: cipher.blockLength) else {
                    throw Failure.incorrectObjects
                }
                plain = unpadded
            } catch {
                throw .incorrectObjects
            }
        }
        var ne: Int?
        var extended = plain.count > 255
        if let le {
            let v = data[le.value]
            switch v.count {
            case 1: ne = v.first == 0 ? 256 : Int(v.first ?? 0)
            case 2:
                let n = Int(v[v.startIndex]) << 8 | Int(v[v.startIndex + 1])
                ne = n == 0 ? 65536 : n
                extended = true
            default: ne = nil
            }
        }
        return ISO7816Command(
            cla: command.cla & ~0x0C, ins: command.ins, p1: command.p1, p2: command.p2, data: plain, ne: ne,
            isExtended: extended)
    }

    /// Bytes a protected answer adds around `plainCount` bytes of data: DO'87' (with its indicator byte and
    /// padding), DO'99' and DO'8E'.
    func overhead(plainCount: Int, oddINS: Bool) -> Int {
        let fixed = 4 + 10
        guard plainCount > 0 else { return fixed }
        let b = cipher.blockLength
        let body = (plainCount / b + 1) * b + (oddINS ? 0 : 1)
        return fixed + 1 + LDSTLV.length(body).count + body - plainCount
    }

    /// The protected answer for `response` to a command with INS `ins`; the SSC advances once.
    mutating func wrap(_ response: ISO7816Response, ins: UInt8) throws(ICAOCryptoError) -> ISO7816Response {
        increment()
        var objects: [UInt8] = []
        if !response.data.isEmpty {
            let encrypted = try ICAOCrypto.encryptCBC(
                cipher, key: encryptionKey, iv: iv(), ICAOCrypto.pad(response.data, block: cipher.blockLength))
            objects += ins & 0x01 == 1 ? LDSTLV.encode(0x85, encrypted) : LDSTLV.encode(0x87, [0x01] + encrypted)
        }
        objects += [0x99, 0x02, response.status.sw1, response.status.sw2]
        let mac = try ICAOCrypto.mac(cipher, key: macKey, ICAOCrypto.pad(ssc + objects, block: cipher.blockLength))
        return ISO7816Response(data: objects + [0x8E, 0x08] + mac, status: response.status)
    }
}
