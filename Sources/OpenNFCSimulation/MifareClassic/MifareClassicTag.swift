internal import OpenNFCBytes
package import OpenNFCCrypto
internal import OpenNFCRF

/// A byte-accurate MIFARE Classic Mini, 1K or 4K, written from the card side of the NXP datasheets (MF1S50yyX,
/// MF1S70yyX, MF1ICS20 §8–§10) and the public description of Crypto1 (docs/SECURITY.md). Plain frames arrive through
/// ``receive(_:tearAfter:)`` without CRC; once the link is enciphered, frames arrive with their parity bits and
/// their CRC_A inside through ``receive(air:tearAfter:)`` (the chip deciphers, checks parity and CRC itself).
///
/// | Command | Bytes | Answer |
/// |---|---|---|
/// | AUTH with key A / key B | `60 BB` / `61 BB` (plain, or enciphered for a nested authentication) | nT (4 bytes, the 16-bit nonce generator's output, clocked per bit period on the air since power-up; enciphered with the new key when nested) |
/// | reader answer | {nR} {aR} (8 bytes, enciphered, parity enciphered) | {aT}; wrong aR with right parity: the enciphered NAK 5; wrong parity: silence |
/// | READ | `30 BB` | 16 bytes + CRC_A, enciphered; key A reads as zeros, key B and the access bits as zeros where not readable |
/// | WRITE | `A0 BB`, then 16 bytes | ACK, ACK; a trailer write changes only the parts the access bits allow |
/// | DECREMENT / INCREMENT / RESTORE | `C0 BB` / `C1 BB` / `C2 BB`, then a 4-byte operand | ACK, then no answer (the value waits in the transfer buffer) |
/// | TRANSFER | `B0 BB` | ACK: the transfer buffer written as a value block to BB |
/// | HALT | `50 00` | none; plain HLTA is the field's, an enciphered one is the chip's |
/// | gen1a backdoor | `40` (a 7-bit frame, carried as that byte), then `43` | ACK, ACK; READ and WRITE then work plain on every block, block 0 included, without keys or access checks |
///
/// Errors (MF1S50yyX §9.3 Table 9, 4-bit NAK): `4` invalid operation (access refused, a block outside the
/// authenticated sector, a malformed value block, an empty transfer buffer), `5` CRC or parity error; after a NAK the
/// chip drops its authentication and stays silent until re-activated. Other frames get no answer.
///
/// | Feature | Behaviour |
/// |---|---|
/// | Access conditions | the full Tables 7 and 8 per group (4K big sectors: groups of five blocks); key B readable in the trailer means key B authenticates but every later access is refused; inverted copies wrong: the sector is blocked |
/// | Value blocks | value, ¬value, value (4 bytes LE, signed), addr ¬addr addr ¬addr; checked by DECREMENT, INCREMENT, RESTORE; an overflow of the signed 32-bit value is NAK 4 |
/// | Block 0 | manufacturer block: UID, BCC, SAK, ATQA; read-only except on gen2/CUID (a normal WRITE) and gen1a (the backdoor) |
/// | Tearing | a block is programmed only once its whole frame (and CRC) has arrived: a tear leaves the old block or the new one, never a mix |
/// | UID | 4 bytes (the NUID/7-byte variants are not simulated): Crypto1 takes it as the 32-bit uid |
/// | Not simulated | the personalisation options of EV1 (SAK/UID modes), the originality signature, timing of EEPROM programming, the 7-bit-frame level of the gen1a backdoor |
package final class MifareClassicTag: VirtualAirFrameTag {
    /// Why a tag could not be built.
    package struct FactoryError: Error, Hashable, Sendable, CustomStringConvertible {
        package var reason: String
        package init(_ reason: String) { self.reason = reason }
        package var description: String { reason }
    }

    /// The "magic" clones people copy Classic cards to.
    package enum Magic: String, Sendable, Hashable, CaseIterable {
        /// A genuine chip: block 0 is read-only.
        case none
        /// Gen1a ("UID changeable"): the `40`/`43` backdoor opens every block without keys.
        case gen1a
        /// Gen2 / CUID: block 0 is written with a normal authenticated WRITE.
        case gen2
    }

    /// One key of one sector.
    package struct KeySlot: Hashable, Sendable, Comparable {
        package var sector: Int
        package var isKeyB: Bool
        package init(sector: Int, isKeyB: Bool) {
            self.sector = sector
            self.isKeyB = isKeyB
        }
        package static func < (a: KeySlot, b: KeySlot) -> Bool {
            (a.sector, a.isKeyB ? 1 : 0) < (b.sector, b.isKeyB ? 1 : 0)
        }
    }

    package let model: MifareClassicModel
    package let magic: Magic
    /// Keys a dump could not learn (the reader found neither the key nor a way to read it): the trailer holds zeros
    /// there, tag files mark them unknown (`??`), and no authentication with them succeeds, since no reader knows
    /// them; `opennfc restore` keeps the card's own key there (docs/TAG-FILES.md). A trailer WRITE that may change
    /// the key makes it known again.
    package var unknownKeys: Set<KeySlot> = []
    /// Every block, 16 bytes each, trailers with their keys as stored.
    package internal(set) var memory: [UInt8]
    /// Where the nonce generator stands at the first authentication after power-up (the unknown time the reader
    /// took to get there); inject a ``SeededRandomSource`` for reproducible transcripts.
    package var random: any RandomSource = SystemRandomSource()
    /// The nonce generator's current 32-bit output (``MifareNonce``), advanced one step per bit period on the air
    /// (MifareClassicTag+Crypto1.swift, "Nonces"); nil between power-up and the first authentication.
    package internal(set) var generator: UInt32?

    enum Pending: Equatable {
        case write(Int)
        case value(command: UInt8, block: Int)
    }

    struct Session {
        var sector: Int
        var keyType: UInt8
        /// False when key B authenticated but is readable in the trailer: every access is refused.
        var keyUsable: Bool
        /// False for a key the dump did not learn (``unknownKeys``): the authentication fails.
        var keyKnown = true
    }

    /// Volatile state: the cipher once an authentication started, the session once it finished.
    var cipher: Crypto1?
    var awaiting: (nT: UInt32, session: Session)?
    var session: Session?
    var pending: Pending?
    /// The transfer buffer: a value and the address byte of its source block.
    var transferBuffer: (value: Int32, address: UInt8)?
    var backdoor = 0
    package internal(set) var isMuted = false

    /// A chip with this memory image (`model.blockCount × 16` bytes).
    package init(model: MifareClassicModel, memory: [UInt8], magic: Magic = .none) throws(FactoryError) {
        guard memory.count == model.blockCount * 16 else {
            throw FactoryError("a \(model.rawValue) has \(model.blockCount * 16) bytes, not \(memory.count)")
        }
        self.model = model
        self.memory = memory
        self.magic = magic
    }

    /// A factory-fresh chip: block 0 with `uid` (4 bytes), BCC, SAK and ATQA; every trailer
    /// `FF FF FF FF FF FF | FF 07 80 | 69 | FF FF FF FF FF FF` (transport configuration); data blocks zero.
    package convenience init(model: MifareClassicModel, uid: [UInt8], magic: Magic = .none) throws(FactoryError) {
        guard uid.count == 4 else { throw FactoryError("a MIFARE Classic UID has 4 bytes here, not \(uid.count)") }
        var m = [UInt8](repeating: 0, count: model.blockCount * 16)
        let atqa = model.atqa
        let block0 =
            uid + [uid.reduce(0, ^), model.sak, UInt8(atqa & 0xFF), UInt8(atqa >> 8)]
            + [0x62, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69]
        m.replaceSubrange(0..<16, with: block0)
        for s in 0..<model.sectorCount {
            let t = MifareClassicModel.trailerBlock(ofSector: s) * 16
            m.replaceSubrange(t..<t + 16, with: Self.transportTrailer)
        }
        try self.init(model: model, memory: m, magic: magic)
    }

    /// `FF FF FF FF FF FF FF 07 80 69 FF FF FF FF FF FF`.
    package static let transportTrailer: [UInt8] =
        [UInt8](repeating: 0xFF, count: 6) + [0xFF, 0x07, 0x80, 0x69] + [UInt8](repeating: 0xFF, count: 6)

    package var chip: String { model.rawValue }

    /// The 4-byte UID of block 0.
    package var uid: [UInt8] { Array(memory[0..<4]) }

    package var activation: VirtualActivation {
        VirtualActivation(uid: uid, sensRes: model.atqa, selRes: model.sak)
    }

    /// Block `n` as stored (keys included).
    package func block(_ n: Int) -> [UInt8] { Array(memory[n * 16..<n * 16 + 16]) }

    /// Stores a block as is, trailers and block 0 included (tag files, the factory).
    package func setBlock(_ n: Int, _ bytes: [UInt8]) throws(FactoryError) {
        guard (0..<model.blockCount).contains(n) else {
            throw FactoryError("block \(n) is outside a \(model.rawValue) (0–\(model.blockCount - 1))")
        }
        guard bytes.count == 16 else { throw FactoryError("block \(n) needs 16 bytes, not \(bytes.count)") }
        memory.replaceSubrange(n * 16..<n * 16 + 16, with: bytes)
        if MifareClassicModel.isTrailer(n) { markKnown(sector: MifareClassicModel.sector(ofBlock: n)) }
    }

    /// Both keys of `sector` are as the trailer holds them.
    func markKnown(sector: Int) {
        unknownKeys.remove(KeySlot(sector: sector, isKeyB: false))
        unknownKeys.remove(KeySlot(sector: sector, isKeyB: true))
    }

    /// Whether the key is known (not one a dump could not learn).
    package func isKnown(_ keyType: UInt8, sector: Int) -> Bool {
        !unknownKeys.contains(KeySlot(sector: sector, isKeyB: keyType == 0x61))
    }

    /// Key A (`0x60`) or key B (`0x61`) of a sector as stored in its trailer.
    package func key(_ keyType: UInt8, sector: Int) -> [UInt8] {
        let t = MifareClassicModel.trailerBlock(ofSector: sector) * 16
        return keyType == 0x60 ? Array(memory[t..<t + 6]) : Array(memory[t + 10..<t + 16])
    }

    package func reset() {
        cipher = nil
        awaiting = nil
        session = nil
        pending = nil
        transferBuffer = nil
        backdoor = 0
        isMuted = false
        sessionUID = authenticationUID ?? uid
    }

    /// Power-up clears what ``reset()`` clears and restarts the nonce generator.
    package func powerOn() {
        reset()
        generator = nil
    }

    /// The four UID bytes Crypto1 takes when they are not block 0's first four: the last four of a 7-byte UID, as
    /// readers take them (a MIFARE Plus in SL1 runs this model with its double-size UID); nil: block 0's.
    package var authenticationUID: [UInt8]?

    /// The UID the reader selected: Crypto1 keeps using it until the next activation, even after a gen2 WRITE of
    /// block 0 (the new UID answers anticollision from then on).
    var sessionUID: [UInt8]?
    var uidWord: UInt32 { UInt32(mifareBytes: sessionUID ?? authenticationUID ?? uid) }

    // MARK: Plain frames

    package func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        // On the air the frame carries its CRC_A (two more bytes) unless it is a one-byte short frame.
        elapse(bits: Self.bitsOnAir(bytes: frame.count + (frame.count >= 2 ? 2 : 0)) + Self.frameDelayBits)
        let answer = plainAnswer(frame, tearAfter: tearAfter)
        switch answer {
        // A nonce has no CRC_A; the other data answers (the backdoor's READ) have one.
        case .data(let d): elapse(bits: Self.bitsOnAir(bytes: d.count == 4 ? 4 : d.count + 2))
        case .ack, .nak: elapse(bits: 4)
        case .silence: break
        }
        return answer
    }

    private func plainAnswer(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        guard !isMuted, !frame.isEmpty else { return .silence }
        // An enciphered link only understands enciphered frames: a plain one fails its CRC check.
        if cipher != nil { return mute(.silence) }
        if backdoor == 2 { return backdoorCommand(frame, tearAfter: tearAfter) }
        switch (frame[0], frame.count) {
        case (0x60, 2), (0x61, 2):
            guard let nT = startAuthentication(keyType: frame[0], block: Int(frame[1])) else { return mute(.nak(4)) }
            return .data(nT.mifareBytes)
        case (0x40, 1) where magic == .gen1a:
            backdoor = 1
            return .ack
        case (0x43, 1) where magic == .gen1a && backdoor == 1:
            backdoor = 2
            return .ack
        case (0x30, 2), (0xA0, 2), (0xC0, 2), (0xC1, 2), (0xC2, 2), (0xB0, 2):
            // Memory operations need an authenticated sector (MF1S50yyX §9.1, Figure 11).
            return mute(.nak(4))
        default:
            return mute(.silence)
        }
    }

    private func mute(_ answer: VirtualAnswer) -> VirtualAnswer {
        reset()
        isMuted = true
        return answer
    }

    /// Gen1a after `40`/`43`: READ and WRITE of any block, plain and unchecked.
    private func backdoorCommand(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        if case .write(let block) = pending {
            pending = nil
            guard frame.count == 16 else { return mute(.nak(4)) }
            if tearAfter.map({ $0 >= 16 }) ?? true {
                memory.replaceSubrange(block * 16..<block * 16 + 16, with: frame)
                if MifareClassicModel.isTrailer(block) { markKnown(sector: MifareClassicModel.sector(ofBlock: block)) }
            }
            return .ack
        }
        guard frame.count == 2 else { return frame == [0x50, 0x00] ? mute(.silence) : .silence }
        let block = Int(frame[1])
        guard block < model.blockCount else { return mute(.nak(4)) }
        switch frame[0] {
        case 0x30: return .data(self.block(block))
        case 0xA0:
            pending = .write(block)
            return .ack
        default: return .silence
        }
    }
}
