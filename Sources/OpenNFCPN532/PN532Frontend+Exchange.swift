internal import OpenNFCBytes
package import OpenNFCRF

extension PN532Frontend {
    package func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        guard let h = selected, let k = known[h] else { throw RFError(.notActivated, "no tag is activated") }
        guard !command.isEmpty else { throw RFError(.protocolViolation, "an empty frame") }
        fresh = false
        switch k.brTy {
        case 0x01, 0x02:
            guard command.count < 255 else {
                throw RFError(.frameTooLong, "a FeliCa frame holds at most 254 bytes, not \(command.count)")
            }
            let a = try statusCall(0x40, [0x01, UInt8(command.count + 1)] + command)
            guard let len = a.first, Int(len) == a.count else {
                throw RFError(.protocolViolation, "the FeliCa answer's LEN does not count its \(a.count) bytes")
            }
            return .frame(Array(a.dropFirst()))
        case 0x04:
            return try type1(command)
        default:
            if k.target.technology == .nfcB || k.target.ats != nil { return .frame(try isoDEP(command)) }
            if authenticated || (k.target.selRes ?? 0) & 0x08 != 0 { return try classic(command) }
            return try level3(command)
        }
    }

    /// ISO-DEP through InDataExchange: data above 262 bytes chained with MI (`Tg` bit 6), answer parts with MI
    /// collected by asking again with `Tg` alone.
    private func isoDEP(_ command: [UInt8]) throws(RFError) -> [UInt8] {
        var rest = ArraySlice(command)
        var a: [UInt8]
        repeat {
            let part = rest.prefix(262)
            rest = rest.dropFirst(part.count)
            a = try call(0x40, [rest.isEmpty ? 0x01 : 0x41] + part)
            guard let s = a.first, s & 0x3F == 0 else { throw Self.rf(PN532Error(.status(a.first ?? 0x01), "")) }
        } while !rest.isEmpty
        var answer = Array(a.dropFirst())
        var more = a[0] & 0x40 != 0
        var rounds = 0
        while more {
            rounds += 1
            guard rounds < 64 else { throw RFError(.protocolViolation, "an answer chained over 64 frames") }
            let next = try call(0x40, [0x01])
            guard let s = next.first, s & 0x3F == 0 else { throw Self.rf(PN532Error(.status(next.first ?? 1), "")) }
            answer += next.dropFirst()
            more = s & 0x40 != 0
        }
        return answer
    }

    /// MIFARE Classic: InDataExchange, the chip enciphering after ``authenticate(_:)``. An empty answer is the
    /// chip's ACK; status `14` is its NAK.
    private func classic(_ command: [UInt8]) throws(RFError) -> RFResponse {
        let a = try call(0x40, [0x01] + command)
        guard let s = a.first else { throw RFError(.protocolViolation, "InDataExchange answered nothing") }
        if s & 0x3F == 0x14 {
            authenticated = false
            haltedSinceReset = true
            return .nak(0x04)
        }
        guard s & 0x3F == 0 else { throw Self.rf(PN532Error(.status(s), "")) }
        return a.count == 1 ? .ack : .frame(Array(a.dropFirst()))
    }

    /// Level-3 NFC-A: InCommunicateThru, the chip adding CRC_A, RxCRC off so 4-bit answers arrive as they are
    /// (nibble in one byte) and full answers with their CRC_A, checked here.
    private func level3(_ command: [UInt8]) throws(RFError) -> RFResponse {
        if rxMode != 0x00 {
            _ = try call(0x08, [0x63, 0x02, 0x80, 0x63, 0x03, 0x00])
            rxMode = 0x00
        }
        let a = try statusCall(0x42, command)
        if a.count == 1 { return a[0] & 0x0F == 0x0A ? .ack : .nak(a[0] & 0x0F) }
        guard a.count >= 3, CRC.crcA(a.dropLast(2)) == UInt16(a[a.count - 2]) | UInt16(a[a.count - 1]) << 8 else {
            throw RFError(.transmission, "the answer \(a.hexString) fails its CRC_A check")
        }
        return .frame(Array(a.dropLast(2)))
    }

    /// Type 1 through InDataExchange: the chip appends UID0–3 and pads; the procedures' frames carry them, so they
    /// are taken off here, and the address echo the chip drops is put back (NFC Forum T1T §5).
    private func type1(_ frame: [UInt8]) throws(RFError) -> RFResponse {
        let body: [UInt8]
        var echo: [UInt8] = []
        switch (frame[0], frame.count) {
        case (0x78, 7), (0x00, 7): body = [frame[0]]
        case (0x01, 7): body = Array(frame[0..<2]); echo = [frame[1]]
        case (0x53, 7), (0x1A, 7): body = Array(frame[0..<3]); echo = [frame[1]]
        case (0x10, 14), (0x02, 14): body = Array(frame[0..<2]); echo = [frame[1]]
        case (0x54, 14), (0x1B, 14): body = Array(frame[0..<10]); echo = [frame[1]]
        default:
            throw RFError(.unsupported, "the PN532 cannot send the Type 1 frame \(frame.hexString)")
        }
        let a = try statusCall(0x40, [0x01] + body)
        return .frame(echo + a)
    }

    package func authenticate(_ authentication: RFAuthentication) throws(RFError) {
        guard case .mifareClassic(let block, let keyType, let key) = authentication else {
            throw RFError(.unsupported, "the PN532 cannot perform \(authentication) itself")
        }
        guard key.count == 6 else {
            throw RFError(.protocolViolation, "a MIFARE Classic key has 6 bytes, not \(key.count)")
        }
        guard let h = selected, let k = known[h], k.brTy == 0x00 else {
            throw RFError(.notActivated, "no MIFARE Classic tag is activated")
        }
        fresh = false
        let what = "authentication of block \(block) with key \(keyType == .a ? "A" : "B")"
        let a = try call(0x40, [0x01, keyType.rawValue, block] + key + k.target.identifier.suffix(4))
        guard let s = a.first else { throw RFError(.protocolViolation, "\(what): no status") }
        if s & 0x3F == 0x14 {
            authenticated = false
            haltedSinceReset = true
            selected = nil
            throw RFError(.protocolViolation, "\(what) failed (PN532 status 14: wrong key)")
        }
        guard s & 0x3F == 0 else { throw Self.rf(PN532Error(.status(s), "\(what)")) }
        authenticated = true
    }
}
