internal import OpenNFCBytes
package import OpenNFCCrypto

/// A command APDU (ISO/IEC 7816-4 §5.1) before secure messaging: header, data, expected length (nil: no Le;
/// 256 or 65 536 stand for the `00` / `00 00` "maximum" forms).
package struct CommandAPDU: Sendable, Hashable {
    package var cla: UInt8
    package var ins: UInt8
    package var p1: UInt8
    package var p2: UInt8
    package var data: [UInt8]
    package var le: Int?

    package init(cla: UInt8 = 0x00, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], le: Int? = nil) {
        (self.cla, self.ins, self.p1, self.p2, self.data, self.le) = (cla, ins, p1, p2, data, le)
    }

    /// The plain encoding: short form when data ≤ 255 bytes and Le ≤ 256, extended form otherwise.
    package var bytes: [UInt8] {
        var out = [cla, ins, p1, p2]
        let extended = data.count > 255 || (le ?? 0) > 256
        if !data.isEmpty {
            out += extended ? [0x00, UInt8(data.count >> 8), UInt8(data.count & 0xFF)] : [UInt8(data.count)]
            out += data
        }
        if let le {
            if extended {
                if data.isEmpty { out.append(0x00) }
                out += [UInt8(le >> 8 & 0xFF), UInt8(le & 0xFF)]
            } else {
                out.append(UInt8(le & 0xFF))
            }
        }
        return out
    }
}

/// An answer: the data and the status word (after secure messaging was removed).
package struct ResponseAPDUData: Sendable, Hashable {
    package var data: [UInt8]
    package var sw: UInt16
    package var isSuccess: Bool { sw == 0x9000 }
}

/// ICAO Doc 9303 Part 11 §9.8 secure messaging (BSI TR-03110-3 Appendix F): commands protected with DO'87' (DO'85'
/// for odd instructions), DO'97', DO'8E'; answers checked through DO'99' and DO'8E' on every response. 3DES: 8-byte
/// SSC, CBC with a zero IV, the retail MAC; AES: 16-byte SSC, CBC with IV = E(KSenc, SSC), the first 8 bytes of
/// AES-CMAC. Padding (ISO/IEC 9797-1 method 2) is always added before encrypting and before the MAC (TR-03110-3
/// §F.3.3). The SSC is incremented before each command and before each response is checked (Part 11 §9.8.6.3).
package struct SecureMessaging: Sendable {
    package let cipher: CipherAlgorithm
    package let encryptionKey: [UInt8]
    package let macKey: [UInt8]
    /// The send sequence counter as it stands.
    package private(set) var ssc: [UInt8]
    private let enc: BlockCipher
    private let retail: RetailMAC?
    private let cmac: CMAC?

    /// Session keys from BAC, PACE or Chip Authentication; `ssc` is 8 bytes (3DES) or 16 (AES).
    package init(cipher: CipherAlgorithm, encryptionKey: [UInt8], macKey: [UInt8], ssc: [UInt8]) throws(PassportError) {
        guard cipher == .tdes2 || cipher.isAES, ssc.count == cipher.blockLength else {
            throw PassportError(.unsupported, "secure messaging with \(cipher.rawValue) and a \(ssc.count)-byte SSC")
        }
        self.cipher = cipher
        self.encryptionKey = encryptionKey
        self.macKey = macKey
        self.ssc = ssc
        do {
            enc = try BlockCipher(cipher, key: encryptionKey)
            retail = cipher == .tdes2 ? try RetailMAC(key: macKey) : nil
            cmac = cipher.isAES ? try CMAC(cipher, key: macKey) : nil
        } catch { throw PassportError(.unsupported, "secure messaging keys: \(error)") }
    }

    /// The largest Le whose protected short answer (DO'87' + DO'99' + DO'8E' + SW) still fits in 256 bytes:
    /// 231 for 3DES, 223 for AES.
    package var maxShortLe: Int { maxLe(responseData: 256) }

    /// The largest Le whose protected answer has at most `limit` bytes of response data: DO'87' (tag, length of 1–3
    /// bytes, the padding indicator, the padded cryptogram — padding always adds 1 to n bytes) + DO'99' (4) + DO'8E'
    /// (10). 256 gives 231 (3DES) and 223 (AES); a 4096-byte buffer (EF.ATR/INFO) 4071 and 4063.
    package func maxLe(responseData limit: Int) -> Int {
        var blocks = max(0, limit / n)
        while blocks > 0 {
            let body = 1 + blocks * n
            let lengthBytes = body < 0x80 ? 1 : body <= 0xFF ? 2 : body <= 0xFFFF ? 3 : 4
            if 1 + lengthBytes + body + 14 <= limit { return min(blocks * n - 1, 65536) }
            blocks -= 1
        }
        return 0
    }

    private var n: Int { cipher.blockLength }

    private static func increment(_ counter: inout [UInt8]) {
        var i = counter.count - 1
        while i >= 0 {
            counter[i] &+= 1
            if counter[i] != 0 { break }
            i -= 1
        }
    }

    private func iv() throws(CryptoError) -> [UInt8] {
        cipher.isAES ? try enc.encryptECB(ssc) : [UInt8](repeating: 0, count: 8)
    }

    /// The 8-byte MAC of `data` (padded here).
    package func mac(_ data: [UInt8]) throws(PassportError) -> [UInt8] {
        do {
            let padded = Padding.method2(data, blockLength: n)
            if let retail { return try retail.tag(padded: padded) }
            return Array(try cmac!.tag(padded).prefix(8))
        } catch { throw PassportError(.secureMessaging, "MAC computation failed: \(error)") }
    }

    /// The protected form of `command` (CLA with bits `0C` set), advancing the SSC.
    package mutating func wrap(_ command: CommandAPDU) throws(PassportError) -> [UInt8] {
        Self.increment(&ssc)
        let header = [command.cla | 0x0C, command.ins, command.p1, command.p2]
        var dos: [UInt8] = []
        do {
            if !command.data.isEmpty {
                let encrypted = try enc.encryptCBC(Padding.method2(command.data, blockLength: n), iv: try iv())
                dos += command.ins & 1 == 1 ? DER.tlv(0x85, encrypted) : DER.tlv(0x87, [0x01] + encrypted)
            }
        } catch { throw PassportError(.secureMessaging, "encryption failed: \(error)") }
        let extended = (command.le ?? 0) > maxShortLe
        if let le = command.le {
            dos += extended ? [0x97, 0x02, UInt8(le >> 8 & 0xFF), UInt8(le & 0xFF)] : [0x97, 0x01, UInt8(le & 0xFF)]
        }
        let cc = try mac(ssc + Padding.method2(header, blockLength: n) + dos)
        let body = dos + [0x8E, 0x08] + cc
        var out = header
        if extended || body.count > 255 {
            out += [0x00, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body + [0x00, 0x00]
        } else {
            out += [UInt8(body.count)] + body + [0x00]
        }
        return out
    }

    /// Checks and decrypts a protected answer (data ‖ SW), advancing the SSC. A plain answer, a missing DO'99' or
    /// DO'8E', or a wrong MAC is a ``PassportError/Code/secureMessaging`` error: the session is over.
    package mutating func unwrap(_ response: [UInt8], command name: String) throws(PassportError) -> ResponseAPDUData {
        Self.increment(&ssc)
        guard response.count >= 2 else {
            throw PassportError(.secureMessaging, "\(name) answered \(response.count) byte(s), no status word")
        }
        let sw = UInt16(response[response.count - 2]) << 8 | UInt16(response[response.count - 1])
        let body = Array(response.dropLast(2))
        guard !body.isEmpty else {
            throw PassportError(
                .secureMessaging,
                "\(name) was answered without secure messaging: the chip ended the session", statusWord: sw)
        }
        guard body.count >= 10, body[body.count - 10] == 0x8E, body[body.count - 9] == 0x08 else {
            throw PassportError(.secureMessaging, "\(name)'s answer does not end with DO'8E' (the MAC)", statusWord: sw)
        }
        let covered = Array(body.dropLast(10))
        let objects: [DataObject]
        do { objects = try DataObject.decodeAll(covered) } catch {
            throw PassportError(.secureMessaging, "\(name)'s protected answer is malformed: \(error)")
        }
        guard let status = objects.first(where: { $0.tag == 0x99 }), status.value.count == 2 else {
            throw PassportError(.secureMessaging, "\(name)'s answer has no DO'99' (the protected status word)")
        }
        guard try mac(ssc + covered) == Array(body.suffix(8)) else {
            throw PassportError(.secureMessaging, "\(name)'s answer has a wrong MAC (SSC \(Hex.encode(ssc)))")
        }
        var data: [UInt8] = []
        if let dob = objects.first(where: { $0.tag == 0x87 || $0.tag == 0x85 }) {
            var cipherText = dob.value
            if dob.tag == 0x87 {
                guard cipherText.first == 0x01 else {
                    throw PassportError(.secureMessaging, "\(name)'s DO'87' lacks the padding indicator 01")
                }
                cipherText.removeFirst()
            }
            do {
                let plain = try enc.decryptCBC(cipherText, iv: try iv())
                guard let unpadded = Padding.removeMethod2(plain, blockLength: n) else {
                    throw PassportError(.secureMessaging, "\(name)'s decrypted data has no 80 00… padding")
                }
                data = unpadded
            } catch let e as PassportError {
                throw e
            } catch {
                throw PassportError(.secureMessaging, "\(name)'s DO'\(dob.tag == 0x87 ? "87" : "85")': \(error)")
            }
        }
        return ResponseAPDUData(data: data, sw: UInt16(status.value[0]) << 8 | UInt16(status.value[1]))
    }
}
