internal import OpenNFCBytes
internal import OpenNFCRF
internal import OpenNFCSimulation

/// A virtual MIFARE Classic behind the reader `opennfc emulate` plays: the PC/SC Part 3 pseudo-APDUs with the ACS
/// value-block extensions, answered by running Crypto1 with the chip as a reader's frontend does (the simulated
/// field's ``VirtualFieldFrontend``, enciphered frames, parity and CRC included). Any chip that answers as a Classic
/// now (``MifareClassicCompatible``: a MIFARE Classic, another chip in a Classic-compatible mode) is served alike,
/// over the blocks it has.
///
/// | Command (CLA `FF`) | Answer |
/// |---|---|
/// | ATR | `… 03 00 01 …` (1K), `00 02` (4K), `00 26` (Mini), from `VPCDCard+ATR.swift` |
/// | `82 00 P2 06 key` LOAD KEYS | the key kept under key number P2 (any of 00–FF: ACS slots 00/01 and Identiv key types 60/61 alike) → `90 00`; P1 ≠ 00 (non-volatile) `69 87`; Lc ≠ 6 `69 89` |
/// | `86 00 00 05 01 00 BB KT N` GENERAL AUTHENTICATE, `88 00 BB KT N` (legacy ACS) | the card re-activated and three-pass authenticated for block BB with key type KT (`60`/`61`) and the key under N → `90 00`; wrong key `63 00`; no key under N `69 88`; KT not 60/61 `69 86`; BB outside the card `6A 82` |
/// | `B0 00 BB Le` READ BINARY | READ of BB, BB+1, … (Le a multiple of 16) + `90 00`; refused `63 00` |
/// | `D6 00 BB 10 data` UPDATE BINARY | WRITE of BB → `90 00`; refused `63 00`; Lc ≠ 16 `67 00` |
/// | `D7 00 BB 05 OP value` VALUE BLOCK OPERATION | OP `00` store (WRITE of the value format, address BB), `01` increment, `02` decrement (then TRANSFER to BB); value 4 bytes, MSB first → `90 00`; refused `63 00` |
/// | `D7 00 BB 02 03 TT` RESTORE VALUE BLOCK | RESTORE of BB, TRANSFER to TT → `90 00`; refused `63 00` |
/// | `B1 00 BB 04` READ VALUE BLOCK | the value, 4 bytes MSB first + `90 00`; not in value format or refused `63 00` |
///
/// A refused command leaves the chip mute and unauthenticated, as on a real reader: the next GENERAL AUTHENTICATE
/// starts over. A torn command (`tearAfter`) is not delivered to the chip at all and gets no answer.
final class MifareClassicLink {
    let field = VirtualField(clock: VirtualClock())
    let frontend: VirtualFieldFrontend
    let handle: Int
    /// LOAD KEYS' volatile memory, by key number.
    var keys: [UInt8: [UInt8]] = [:]

    init(tag: any MifareClassicCompatible) {
        handle = field.place(tag)
        frontend = VirtualFieldFrontend(field: field, capabilities: .unlimited)
    }

    /// Selects the chip afresh (WUPA, anticollision) and authenticates.
    func authenticate(block: UInt8, keyType: RFAuthentication.MiFareKeyType, key: [UInt8]) -> Bool {
        frontend.deactivate()
        guard let t = frontend.field.poll([.nfcA]).first(where: { $0.handle == handle }),
            (try? frontend.activate(t, isoDEP: false)) != nil
        else { return false }
        return (try? frontend.authenticate(.mifareClassic(block: block, keyType: keyType, key: key))) != nil
    }

    func exchange(_ frame: [UInt8]) -> RFResponse? {
        do {
            return try frontend.exchange(frame)
        } catch {
            // A timeout is how a value operation's second part succeeds (MF1S50yyX §10.5).
            return error.code == .timeout ? nil : .nak(4)
        }
    }
}

extension VPCDCard {
    private static let ok: [UInt8] = [0x90, 0x00]
    private static let refused: [UInt8] = [0x63, 0x00]

    /// The answer to a Classic pseudo-APDU, or nil for one the general table answers (`FF CA`).
    func respondMifareClassic(_ apdu: [UInt8], _ chip: any MifareClassicCompatible, blocks: Int, tearAfter: Int?)
        -> [UInt8]??
    {
        let (ins, p1, p2) = (apdu[1], apdu[2], apdu[3])
        let handled: Set<UInt8> = [0x82, 0x86, 0x88, 0xB0, 0xD6, 0xD7, 0xB1]
        guard handled.contains(ins) else { return nil }
        if tearAfter != nil { return .some(nil) }
        let link = classicLink ?? MifareClassicLink(tag: chip)
        classicLink = link
        let body = Array(apdu.dropFirst(5))
        let lc = apdu.count > 4 ? Int(apdu[4]) : 0
        switch ins {
        case 0x82:
            guard p1 == 0x00 else { return [0x69, 0x87] }
            guard lc == 6, body.count == 6 else { return [0x69, 0x89] }
            link.keys[p2] = body
            return Self.ok
        case 0x86, 0x88:
            let fields: [UInt8]
            if ins == 0x86 {
                guard lc == 5, body.count == 5, body[0] == 0x01 else { return [0x67, 0x00] }
                fields = Array(body[2..<5])
            } else {
                guard apdu.count == 6 else { return [0x67, 0x00] }
                fields = [p2, apdu[4], apdu[5]]
            }
            let (block, kt, number) = (fields[0], fields[1], fields[2])
            guard Int(block) < blocks else { return [0x6A, 0x82] }
            guard let keyType = RFAuthentication.MiFareKeyType(rawValue: kt) else { return [0x69, 0x86] }
            guard let key = link.keys[number] else { return [0x69, 0x88] }
            return link.authenticate(block: block, keyType: keyType, key: key) ? Self.ok : Self.refused
        case 0xB0:
            guard p1 == 0x00, apdu.count == 5 else { return [0x67, 0x00] }
            let length = apdu[4] == 0 ? 256 : Int(apdu[4])
            guard length % 16 == 0 else { return [0x6C, 0x10] }
            var out: [UInt8] = []
            for i in 0..<length / 16 {
                let b = Int(p2) + i
                guard b < blocks, case .frame(let d)? = link.exchange([0x30, UInt8(b)]), d.count == 16
                else { return Self.refused }
                out += d
            }
            return out + Self.ok
        case 0xD6:
            guard p1 == 0x00, lc == 16, body.count == 16 else { return [0x67, 0x00] }
            return write(link, p2, body) ? Self.ok : Self.refused
        case 0xB1:
            guard p1 == 0x00, case .frame(let d)? = link.exchange([0x30, p2]), d.count == 16,
                let value = Self.value(d)
            else { return Self.refused }
            let u = UInt32(bitPattern: value)
            return [UInt8(u >> 24), UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)] + Self.ok
        default:  // D7
            guard p1 == 0x00 else { return [0x6B, 0x00] }
            if lc == 2, body.count == 2, body[0] == 0x03 {
                return valueOperation(link, 0xC2, p2, 0, transferTo: body[1]) ? Self.ok : Self.refused
            }
            guard lc == 5, body.count == 5 else { return [0x67, 0x00] }
            let v = Int32(
                bitPattern: UInt32(body[1]) << 24 | UInt32(body[2]) << 16 | UInt32(body[3]) << 8 | UInt32(body[4]))
            switch body[0] {
            case 0x00: return write(link, p2, MifareClassicTag.valueBlock(v, address: p2)) ? Self.ok : Self.refused
            case 0x01: return valueOperation(link, 0xC1, p2, v, transferTo: p2) ? Self.ok : Self.refused
            case 0x02: return valueOperation(link, 0xC0, p2, v, transferTo: p2) ? Self.ok : Self.refused
            default: return [0x6A, 0x81]
            }
        }
    }

    private func write(_ link: MifareClassicLink, _ block: UInt8, _ data: [UInt8]) -> Bool {
        guard link.exchange([0xA0, block]) == .ack else { return false }
        return link.exchange(data) == .ack
    }

    /// INCREMENT/DECREMENT/RESTORE of `block` (the operand least significant byte first), then TRANSFER.
    private func valueOperation(
        _ link: MifareClassicLink, _ code: UInt8, _ block: UInt8, _ operand: Int32, transferTo target: UInt8
    ) -> Bool {
        guard link.exchange([code, block]) == .ack else { return false }
        let u = UInt32(bitPattern: operand)
        // The chip accepts the operand silently; a NAK refuses it.
        if let answer = link.exchange((0..<4).map { UInt8(truncatingIfNeeded: u >> UInt32(8 * $0)) }) {
            guard answer == .ack else { return false }
        }
        return link.exchange([0xB0, target]) == .ack
    }

    /// The value of a block in value format (MF1S50yyX §8.6.2.1), or nil.
    static func value(_ b: [UInt8]) -> Int32? {
        for i in 0..<4 where b[4 + i] != ~b[i] || b[8 + i] != b[i] { return nil }
        guard b[13] == ~b[12], b[14] == b[12], b[15] == ~b[12] else { return nil }
        return Int32(bitPattern: UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24)
    }
}
