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
/// | AUTH with key A / key B | `60 BB` / `61 BB` (plain, or enciphered for a nested authentication) | nT (4 bytes, from the 16-bit nonce generator; enciphered with the new key when nested) |
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
    /// Where nT comes from; inject a ``SeededRandomSource`` for reproducible transcripts.
    package var random: any RandomSource = SystemRandomSource()

    private enum Pending: Equatable {
        case write(Int)
        case value(command: UInt8, block: Int)
    }

    private struct Session {
        var sector: Int
        var keyType: UInt8
        /// False when key B authenticated but is readable in the trailer: every access is refused.
        var keyUsable: Bool
        /// False for a key the dump did not learn (``unknownKeys``): the authentication fails.
        var keyKnown = true
    }

    /// Volatile state: the cipher once an authentication started, the session once it finished.
    private var cipher: Crypto1?
    private var awaiting: (nT: UInt32, session: Session)?
    private var session: Session?
    private var pending: Pending?
    /// The transfer buffer: a value and the address byte of its source block.
    private var transferBuffer: (value: Int32, address: UInt8)?
    private var backdoor = 0
    package private(set) var isMuted = false

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

    /// The four UID bytes Crypto1 takes when they are not block 0's first four: the last four of a 7-byte UID, as
    /// readers take them (a MIFARE Plus in SL1 runs this model with its double-size UID); nil: block 0's.
    package var authenticationUID: [UInt8]?

    /// The UID the reader selected: Crypto1 keeps using it until the next activation, even after a gen2 WRITE of
    /// block 0 (the new UID answers anticollision from then on).
    private var sessionUID: [UInt8]?
    private var uidWord: UInt32 { UInt32(mifareBytes: sessionUID ?? authenticationUID ?? uid) }

    // MARK: Plain frames

    package func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
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

    /// Loads the cipher with the sector's key and draws nT; nil for a block outside the chip.
    private func startAuthentication(keyType: UInt8, block: Int) -> UInt32? {
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

    /// nT from the 16-bit generator, its first 16 bits on the air drawn from ``random`` (first byte first).
    private func drawNonce() -> UInt32 {
        let seed = random.bytes(2)
        return MifareNonce.fromGenerator(seed: UInt16(seed[0]) | UInt16(seed[1]) << 8)
    }

    /// False for key B where the trailer makes key B readable (MF1S50yyX §8.7.2).
    private func keyUsable(_ keyType: UInt8, sector: Int) -> Bool {
        guard keyType == 0x61, let c = conditions(sector: sector) else { return true }
        return !MifareClassicAccessRules.keyBReadable(c[3])
    }

    // MARK: Frames with parity bits

    package func receive(air frame: NFCAAirFrame, tearAfter: Int?) -> NFCAAirAnswer {
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

    private func airMute() -> NFCAAirAnswer {
        reset()
        isMuted = true
        return .silence
    }

    private func ack() -> NFCAAirAnswer {
        guard var c = cipher else { return .silence }
        let v = c.encrypt(nibble: 0x0A)
        cipher = c
        return .nibble(v)
    }

    private func nak(_ code: UInt8) -> NFCAAirAnswer {
        guard var c = cipher else { return .silence }
        let v = c.encrypt(nibble: code)
        reset()
        isMuted = true
        return .nibble(v)
    }

    private func data(_ bytes: [UInt8]) -> NFCAAirAnswer {
        guard var c = cipher else { return .silence }
        let f = c.encrypt(CRC.appendingCRCA(bytes))
        cipher = c
        return .frame(NFCAAirFrame(bytes: f.bytes, parity: f.parity))
    }

    /// One deciphered command of an authenticated session (CRC stripped).
    private func command(_ cmd: [UInt8], tearAfter: Int?) -> NFCAAirAnswer {
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

    // MARK: Access conditions

    private func conditions(sector: Int) -> [UInt8]? {
        let t = MifareClassicModel.trailerBlock(ofSector: sector) * 16
        return MifareClassicAccessRules.conditions(memory[t..<t + 16])
    }

    /// The rules of a data block the session may address, or nil (another sector, a trailer, a blocked sector,
    /// an unusable key).
    private func dataRules(_ block: Int, session s: Session) -> (
        read: MifareClassicAccessRules.Keys, write: MifareClassicAccessRules.Keys,
        increment: MifareClassicAccessRules.Keys, decrement: MifareClassicAccessRules.Keys
    )? {
        guard block < model.blockCount, s.keyUsable, MifareClassicModel.sector(ofBlock: block) == s.sector,
            !MifareClassicModel.isTrailer(block), let c = conditions(sector: s.sector)
        else { return nil }
        return MifareClassicAccessRules.data[Int(c[MifareClassicModel.accessGroup(ofBlock: block)])]
    }

    private func trailerRules(_ block: Int, session s: Session) -> (
        keyAWrite: MifareClassicAccessRules.Keys, accessRead: MifareClassicAccessRules.Keys,
        accessWrite: MifareClassicAccessRules.Keys, keyBRead: MifareClassicAccessRules.Keys,
        keyBWrite: MifareClassicAccessRules.Keys
    )? {
        guard block < model.blockCount, s.keyUsable, MifareClassicModel.sector(ofBlock: block) == s.sector,
            MifareClassicModel.isTrailer(block), let c = conditions(sector: s.sector)
        else { return nil }
        return MifareClassicAccessRules.trailer[Int(c[3])]
    }

    private func read(_ block: Int, session s: Session) -> [UInt8]? {
        if let r = trailerRules(block, session: s) {
            var b = self.block(block)
            for i in 0..<6 { b[i] = 0 }
            if !r.accessRead.grants(s.keyType) { for i in 6..<10 { b[i] = 0 } }
            if !r.keyBRead.grants(s.keyType) { for i in 10..<16 { b[i] = 0 } }
            return b
        }
        guard let r = dataRules(block, session: s), r.read.grants(s.keyType) else { return nil }
        return self.block(block)
    }

    private func mayWrite(_ block: Int, session s: Session) -> Bool {
        if block == 0 && magic != .gen2 { return false }
        if let r = trailerRules(block, session: s) {
            return r.keyAWrite.grants(s.keyType) || r.accessWrite.grants(s.keyType) || r.keyBWrite.grants(s.keyType)
        }
        return dataRules(block, session: s)?.write.grants(s.keyType) ?? false
    }

    private func write(_ block: Int, _ bytes: [UInt8], session s: Session, tearAfter: Int?) -> NFCAAirAnswer {
        guard bytes.count == 16 else { return nak(4) }
        var new = bytes
        if let r = trailerRules(block, session: s) {
            let old = self.block(block)
            if !r.keyAWrite.grants(s.keyType) { new.replaceSubrange(0..<6, with: old[0..<6]) }
            if !r.accessWrite.grants(s.keyType) { new.replaceSubrange(6..<10, with: old[6..<10]) }
            if !r.keyBWrite.grants(s.keyType) { new.replaceSubrange(10..<16, with: old[10..<16]) }
            if tearAfter.map({ $0 >= 16 }) ?? true {
                if r.keyAWrite.grants(s.keyType) { unknownKeys.remove(KeySlot(sector: s.sector, isKeyB: false)) }
                if r.keyBWrite.grants(s.keyType) { unknownKeys.remove(KeySlot(sector: s.sector, isKeyB: true)) }
            }
        }
        // The block is programmed once the whole frame and its CRC arrived: a tear before that leaves it as it was.
        if tearAfter.map({ $0 >= 16 }) ?? true { memory.replaceSubrange(block * 16..<block * 16 + 16, with: new) }
        return ack()
    }

    // MARK: Value blocks

    /// The value and address byte of a block in value-block format, or nil.
    private func valueBlock(_ block: Int) -> (Int32, UInt8)? {
        let b = self.block(block)
        let v = Array(b[0..<4])
        guard Array(b[8..<12]) == v, Array(b[4..<8]) == v.map({ ~$0 }), b[12] == b[14], b[13] == b[15],
            b[13] == ~b[12]
        else { return nil }
        return (Int32(bitPattern: UInt32(v[0]) | UInt32(v[1]) << 8 | UInt32(v[2]) << 16 | UInt32(v[3]) << 24), b[12])
    }

    /// A value block: value, ¬value, value (LE), addr, ¬addr, addr, ¬addr (MF1S50yyX §8.6.2.1).
    package static func valueBlock(_ value: Int32, address: UInt8) -> [UInt8] {
        let u = UInt32(bitPattern: value)
        let v = (0..<4).map { UInt8(truncatingIfNeeded: u >> UInt32(8 * $0)) }
        return v + v.map { ~$0 } + v + [address, ~address, address, ~address]
    }

    /// The second part of DECREMENT, INCREMENT, RESTORE: the operand (4 bytes LE); no answer on success.
    private func valueOperand(_ command: UInt8, _ block: Int, _ operand: [UInt8]) -> NFCAAirAnswer {
        guard operand.count == 4, let (value, address) = valueBlock(block) else { return nak(4) }
        let delta = Int32(
            bitPattern: UInt32(operand[0]) | UInt32(operand[1]) << 8 | UInt32(operand[2]) << 16
                | UInt32(operand[3]) << 24)
        let result: (Int32, Bool)
        switch command {
        case 0xC1: result = value.addingReportingOverflow(delta)
        case 0xC0: result = value.subtractingReportingOverflow(delta)
        default: result = (value, false)
        }
        guard !result.1 else { return nak(4) }
        transferBuffer = (result.0, address)
        return .silence
    }
}
