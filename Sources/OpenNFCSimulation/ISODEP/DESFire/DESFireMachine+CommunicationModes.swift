internal import OpenNFCBytes
internal import OpenNFCCrypto

// MARK: Communication modes of file commands

extension DESFireMachine {
    /// Commands whose input carries its own protection (they move the EV1 IV themselves, not by a command CMAC).
    static let protectedInput: Set<UInt8> = [0xC4, 0x54, 0x3D, 0x3B, 0x0C, 0xDC, 0x1C, 0x5C, 0x5F]

    /// The bytes a command's data part of `length` bytes takes on the wire in `mode`: plain; MACed + 8 (EV1 CMAC)
    /// or + 4 (legacy MAC); enciphered data ‖ CRC32 (EV1) or ‖ CRC16 (legacy), padded to whole blocks.
    func protectedLength(_ length: Int, mode: UInt8) -> Int {
        guard let s = session else { return length }
        let n = s.algorithm.blockLength
        switch mode {
        case 0x01: return length + (s.legacy ? 4 : 8)
        case 0x03: return (length + (s.legacy ? 2 : 4) + n - 1) / n * n
        default: return length
        }
    }

    /// A command's data part as it arrived (`wire`) unwrapped: `header` is code ‖ parameters before the data.
    /// EV1: plain moves the IV by CMAC(header ‖ data); MACed checks the 8-byte CMAC over header ‖ data; enciphered
    /// deciphers with the IV and checks CRC32(header ‖ data) and the zero padding. Legacy (MF3ICD40 heritage): MACed
    /// checks the 4-byte MAC over the data; enciphered undoes the reader's send-mode chaining and checks CRC16
    /// (ISO/IEC 14443-3 CRC_A) over the data. Nil: integrity error.
    mutating func unprotectCommand(header: [UInt8], wire: [UInt8], length: Int, mode: UInt8) -> [UInt8]? {
        guard let s = session, wire.count == protectedLength(length, mode: mode) else {
            return wire.count == length ? wire : nil
        }
        let data = Array(wire.prefix(length))
        switch (mode, s.legacy) {
        case (0x01, false):
            guard let t = try? s.mac.tag(header + data, iv: s.iv), Array(t.prefix(8)) == Array(wire.suffix(8)) else {
                return nil
            }
            session?.iv = t
            return data
        case (0x03, false):
            guard let plain = decipherCommand(wire), plain.count >= length + 4,
                Array(plain[length..<length + 4]) == DESFireCRC32.bytes(header + plain.prefix(length)),
                plain[(length + 4)...].allSatisfy({ $0 == 0 })
            else { return nil }
            return Array(plain.prefix(length))
        case (0x01, true):
            guard legacyMAC(data) == Array(wire.suffix(4)) else { return nil }
            return data
        case (0x03, true):
            guard let plain = legacyDecipher(wire), plain.count >= length + 2,
                Array(plain[length..<length + 2]) == Self.crc16(plain.prefix(length)),
                plain[(length + 2)...].allSatisfy({ $0 == 0 })
            else { return nil }
            return Array(plain.prefix(length))
        default:
            if !s.legacy { macCommand(header + data) }
            return data
        }
    }

    /// An answer's data protected as `mode` says: EV1 enciphered (``encipherResponse(_:)``; no CMAC then); EV1
    /// plain and MACed get their CMAC from the generic answer path; legacy MACed data ‖ MAC(data); legacy
    /// enciphered E-CBC(data ‖ CRC16(data) ‖ padding) from a zero IV. Nil: the cipher failed.
    mutating func protectResponse(_ data: [UInt8], mode: UInt8) -> [UInt8]? {
        guard let s = session else { return data }
        switch (mode, s.legacy) {
        case (0x03, false):
            responseSecured = true
            return encipherResponse(data)
        case (0x01, true):
            return data + legacyMAC(data)
        case (0x03, true):
            var plain = data + Self.crc16(data)
            while plain.count % 8 != 0 { plain.append(0) }
            return try? s.cipher.encryptCBC(plain, iv: [UInt8](repeating: 0, count: 8))
        default:
            return data
        }
    }

    /// Legacy MAC: the first 4 bytes of the last block of E-CBC(data zero-padded to whole blocks) from a zero IV
    /// (a MAC never chains across commands in a legacy session).
    func legacyMAC(_ data: [UInt8]) -> [UInt8] {
        guard let s = session else { return [] }
        var plain = data
        while plain.isEmpty || plain.count % 8 != 0 { plain.append(0) }
        guard let c = try? s.cipher.encryptCBC(plain, iv: [UInt8](repeating: 0, count: 8)) else { return [] }
        return Array(c.suffix(8).prefix(4))
    }

    /// Undoes the legacy send mode: the reader sent Y_i = D(X_i ⊕ Y_i−1) (Y_0 = 0), so X_i = E(Y_i) ⊕ Y_i−1.
    func legacyDecipher(_ wire: [UInt8]) -> [UInt8]? {
        guard let s = session, !wire.isEmpty, wire.count % 8 == 0 else { return nil }
        var previous = [UInt8](repeating: 0, count: 8)
        var out: [UInt8] = []
        for i in stride(from: 0, to: wire.count, by: 8) {
            let y = Array(wire[i..<i + 8])
            guard let e = try? s.cipher.encryptECB(y) else { return nil }
            out += zip(e, previous).map { $0 ^ $1 }
            previous = y
        }
        return out
    }

    /// The legacy CRC16: ISO/IEC 14443-3 CRC_A, least significant byte first.
    static func crc16<C: Collection>(_ data: C) -> [UInt8] where C.Element == UInt8 {
        let c = CRC.crcA(data)
        return [UInt8(c & 0xFF), UInt8(c >> 8)]
    }
}
