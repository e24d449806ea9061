internal import OpenNFCBytes
package import OpenNFCCrypto
internal import OpenNFCRF

/// A byte-accurate MIFARE Plus EV1 or EV2 (2K or 4K, 7-byte UID or 4-byte NUID), written from the card side of
/// NXP's public MIFARE Plus EV1/EV2 descriptions (MF1P(H)x1y1, MF1P(H)x2y1 short data sheets; AN10833 type
/// identification; ISO/IEC 14443-3/-4). One chip in three security levels:
///
/// | Level | Activation | Commands |
/// |---|---|---|
/// | SL0 (as NXP ships it) | SAK `20`, ATS: ISO-DEP | GetVersion, Read_Sig, WritePerso `A8`, CommitPerso `AA` |
/// | SL1 | SAK `08` (2K) / `18` (4K), no ATS here | MIFARE Classic — the ``MifareClassicTag`` model, Crypto1 and all, by composition — plus the AES authentication with the SL1 card authentication key `9004` and the level 3 switch key `9003` at ISO/IEC 14443-3 |
/// | SL3 | SAK `20`, ATS | AES authentication, Read `30`–`37` and Write `A0`–`A3` in plain, MACed and encrypted modes, ResetAuth `78`, GetVersion, Read_Sig |
///
/// | Command | Frame | Answer |
/// |---|---|---|
/// | GetVersion `60`, `AF`, `AF` | native, or ISO-wrapped `90 60 00 00 00` | `AF` + 7 hardware bytes, `AF` + 7 software bytes (vendor `04`, type `02`, subtype `01`, major `11` EV1 / `22` EV2, minor `00`, storage `16`/`18`, protocol `05`), `90` + UID ‖ batch (5) ‖ week ‖ year |
/// | Read_Sig `3C 00` | any level | `90` + 56-byte ECDSA secp224r1 signature `r ‖ s` over the raw UID |
/// | WritePerso `A8 BNr(LE) data` | SL0; 1–15 blocks of 16 bytes at consecutive addresses | `90`; block 0 or an address the chip does not have `09`; bad length `0C` |
/// | CommitPerso `AA [SL]` | SL0; `01` → SL1 (also a bare `AA`), `03` → SL3, from the next activation | `90`; keys `9000`, `9001`, `9003` (and `9004` for SL1) not personalised `0B` [?]; another level `0C` |
/// | AuthenticateFirst `70 KeyNr(LE) LenCap PCDcap2` | LenCap 0–6 | `90` + E(K, RndB) (AES-CBC, zero IV) |
/// | AuthenticateNonFirst `76 KeyNr(LE)` | after a first authentication | `90` + E(K, RndB) (IV from TI and the counters, `MIFAREPlusTag+SL3.swift`) |
/// | AuthenticateContinue `72 E(RndA ‖ RndB<<<1)` | 32 bytes | first: `90` + E(TI ‖ RndA<<<1 ‖ PICCcap2 ‖ PCDcap2); following: `90` + E(RndA<<<1); wrong RndB `06` |
/// | Read `30`–`37 BNr(LE) Ext [MAC]` | SL3, in the authenticated sector | `90` + data (encrypted for `30`, `31`, `34`, `35`) + MAC for odd codes |
/// | Write `A0`–`A3 BNr(LE) data MAC` | SL3; data blocks, trailers, sector keys and card keys (keys only encrypted) | `90` (+ MAC for `A1`, `A3`) |
/// | ResetAuth `78` | SL3 | `90` |
///
/// Errors (status byte): `06` authentication error or access refused, `07` counter overflow, `08` wrong MAC,
/// `09` invalid block, `0B` command not allowed in this state, `0C` length/format error. At ISO/IEC 14443-3 (SL1)
/// an error is the 4-bit NAK 4. ISO/IEC 7816-4 wrapping (`90 CMD 00 00 [Lc data] 00`) answers `data ‖ 91 ‖ status`
/// [?: SW1 `91` as MIFARE DESFire].
///
/// | Feature | Behaviour |
/// |---|---|
/// | Security levels | SL0 → SL1 or SL3 with CommitPerso; SL1 → SL3 by an AES authentication with key `9003`; the new level takes effect at the next activation; no way back |
/// | Secure messaging | EV0 mode (the one both generations start in): session keys from RndA and RndB, CMAC truncated to its odd bytes, read counter and write counter, TI |
/// | Access conditions (SL3) | the MIFARE Classic access bits of the trailer with AES key A / key B; trailer byte 5 = encrypted-only bits per group (high nibble, low nibble its inverse; another value: plain allowed) |
/// | Card keys | writes of `9000`–`9007`, `A0xx`, `B000` need the card master key `9000`; `9001`, `B001`–`B003` the card configuration key `9001`; keys are write-only |
/// | Tearing | WritePerso and Write program whole blocks: a tear keeps the blocks whose 16 bytes had arrived; a key or a level switch is written whole or not at all |
/// | 2K in SL1 | the Classic model's 4K layout with sectors 32–39 locked away (their keys unknown): an authentication there fails after {nR}{aR} instead of at `60`/`61` |
/// | Not simulated | RATS in SL1 (the real chip answers it despite its SAK), Value commands `B0`–`B9`/`C2`, Proximity Check, virtual card selection, EV1 secure messaging (EV2 PCDcap2 `01`), Transaction MAC, sector-wise SL switching (`7A`), the SL2 of Plus X, the `B000` limit on unMACed commands |
package final class MIFAREPlusTag: VirtualAirFrameTag {
    /// Why a tag could not be built.
    package struct FactoryError: Error, Hashable, Sendable, CustomStringConvertible {
        package var reason: String
        package init(_ reason: String) { self.reason = reason }
        package var description: String { reason }
    }

    package let model: MIFAREPlusModel
    package let uid: [UInt8]
    /// The security level in force (0, 1 or 3).
    package internal(set) var securityLevel: UInt8
    /// The level CommitPerso or a `9003` authentication chose, in force from the next activation.
    var nextLevel: UInt8
    /// Data blocks: the MIFARE Classic model holds them (it runs SL1); sized as a Classic 4K for both sizes.
    package let classic: MifareClassicTag
    /// AES keys by address; every address of ``MIFAREPlusModel/keyAddresses`` is present.
    package internal(set) var keys: [UInt16: [UInt8]]
    /// Keys a dump could not learn: no authentication with them succeeds.
    package var unknownKeys: Set<UInt16> = []
    /// Configuration blocks `B000`–`B003`.
    package internal(set) var configuration: [UInt16: [UInt8]]
    /// Addresses written by WritePerso in SL0 (CommitPerso checks the card keys among them).
    package internal(set) var personalised: Set<UInt16> = []
    /// Read_Sig's answer: ECDSA secp224r1 `r ‖ s` over the UID.
    package internal(set) var signature: [UInt8]
    /// GetVersion's production part after the UID: batch number (5), calendar week, year (BCD).
    package internal(set) var production: [UInt8]
    /// Where RndB and TI come from; inject a ``SeededRandomSource`` for reproducible transcripts.
    package var random: any RandomSource = SystemRandomSource() {
        didSet { classic.random = random }
    }

    /// A pending authentication (after `70`/`76`, before `72`).
    struct PendingAuthentication {
        var keyAddress: UInt16
        var key: [UInt8]
        var rndB: [UInt8]
        var first: Bool
        var pcdCapabilities: [UInt8]
    }

    /// An SL3 session (EV0 secure messaging).
    struct Session {
        var keyAddress: UInt16
        var key: [UInt8]
        var kEnc: [UInt8]
        var kMac: [UInt8]
        var ti: [UInt8]
        var readCounter: UInt16
        var writeCounter: UInt16
    }

    var pending: PendingAuthentication?
    var session: Session?
    /// GetVersion's next part (1 or 2) while `AF` frames follow.
    private var versionPart = 0

    /// The test key this simulator signs UIDs with (secp224r1; not NXP's — no virtual chip can carry NXP's
    /// signature). Readers verify virtual chips with ``signaturePublicKey``.
    static let signaturePrivateKey: [UInt8] = MIFAREPlusTag.hex(
        "7E7AA33598069A0C7C42B226E430A7DF0C9688242F9A05D994F94D5C")
    /// The public point of ``signaturePrivateKey`` (uncompressed).
    package static let signaturePublicKey: [UInt8] = MIFAREPlusTag.hex(
        "04B9C50E29C783BEE7433CE7958EA870E08E4BC51D612D2441320838A21CFDFB4C84DD067413DEFFA271E313830094E80F8A7D8CC3992A94B3"
    )

    /// A chip as NXP ships it: SL0, every key and data block as given (default: data zero, trailers in the MIFARE
    /// Classic transport configuration, AES keys `FF`×16, configuration blocks zero), the signature computed with
    /// the simulator's test key.
    package init(model: MIFAREPlusModel, uid: [UInt8], securityLevel: UInt8 = 0) throws(FactoryError) {
        guard uid.count == model.uidLength else {
            throw FactoryError("a \(model.chip) has a \(model.uidLength)-byte UID, not \(uid.count) bytes")
        }
        guard [0, 1, 3].contains(securityLevel) else {
            throw FactoryError("security level \(securityLevel): a MIFARE Plus EV1/EV2 has levels 0, 1 and 3")
        }
        self.model = model
        self.uid = uid
        self.securityLevel = securityLevel
        self.nextLevel = securityLevel
        let c: MifareClassicTag
        do throws(MifareClassicTag.FactoryError) {
            c = try MifareClassicTag(model: .classic4K, uid: [0, 0, 0, 0])
        } catch {
            throw FactoryError(error.reason)
        }
        classic = c
        keys = Dictionary(uniqueKeysWithValues: model.keyAddresses.map { ($0, [UInt8](repeating: 0xFF, count: 16)) })
        configuration = Dictionary(
            uniqueKeysWithValues: MIFAREPlusModel.configurationAddresses.map { ($0, [UInt8](repeating: 0, count: 16)) })
        signature = []
        production = [0x5A, 0x50, 0x4C, 0x55, 0x53, 0x12, 0x26]
        classic.memory.replaceSubrange(0..<16, with: Self.manufacturerBlock(model: model, uid: uid))
        configureClassic()
        signature = (try? Self.sign(uid)) ?? [UInt8](repeating: 0, count: 56)
    }

    /// Block 0: the UID, (BCC for a 4-byte UID), the SL1 SAK and ATQA, manufacturer data (MIFARE Plus EV1 §8.6.1).
    static func manufacturerBlock(model: MIFAREPlusModel, uid: [UInt8]) -> [UInt8] {
        let head = model.uidLength == 4 ? uid + [uid.reduce(0, ^)] : uid
        let atqa = model.atqa
        let tail = head + [model.sak(level: 1), UInt8(atqa & 0xFF), UInt8(atqa >> 8)]
        let maker: [UInt8] = [0x02, 0x01, model.generation.majorVersion, 0x00, 0x02, 0x20, 0x00, 0x00]
        return tail + maker.prefix(16 - tail.count)
    }

    /// The Classic model speaks Crypto1 with the UID's last four bytes (ISO/IEC 14443-3 cascade level 2 for a
    /// 7-byte UID, as readers take them); a 2K keeps sectors 32–39 out of reach.
    func configureClassic() {
        classic.authenticationUID = Array(uid.suffix(4))
        if !model.is4K {
            for s in 32..<40 {
                classic.unknownKeys.insert(.init(sector: s, isKeyB: false))
                classic.unknownKeys.insert(.init(sector: s, isKeyB: true))
            }
        }
        classic.reset()
    }

    /// Power-up: ``reset()``, and the SL1 Classic's nonce generator starts again.
    package func powerOn() {
        reset()
        classic.powerOn()
    }

    /// ECDSA secp224r1 over the raw UID with the test key, through libcrypto.
    package static func sign(_ uid: [UInt8]) throws(CryptoError) -> [UInt8] {
        try ECDSA(.secp224r1).sign(uid, privateKey: signaturePrivateKey)
    }

    package var chip: String { model.chip }

    /// A key or block address as the datasheet writes it (`4000`, `9003`).
    package static func addressText(_ address: UInt16) -> String {
        Hex.encode([UInt8(address >> 8), UInt8(address & 0xFF)])
    }

    static func hex(_ text: String) -> [UInt8] { (try? Hex.decode(text)) ?? [] }

    package var activation: VirtualActivation {
        VirtualActivation(
            uid: uid, sensRes: model.atqa, selRes: model.sak(level: securityLevel),
            ats: securityLevel == 1 ? nil : Self.ats)
    }

    /// TL 12, T0 `75` (FSCI 5: 64-byte frames; TA, TB, TC follow), TA `77`, TB `80`, TC `02` (CID supported),
    /// historical bytes `C1 05 2F 2F 00 35 C7` (AN10833: MIFARE Plus).
    static let ats: [UInt8] = [0x0C, 0x75, 0x77, 0x80, 0x02, 0xC1, 0x05, 0x2F, 0x2F, 0x00, 0x35, 0xC7]

    /// Data block `n` as stored.
    package func block(_ n: Int) -> [UInt8] { classic.block(n) }

    /// Stores a data block as is (tag files).
    package func setBlock(_ n: Int, _ bytes: [UInt8]) throws(FactoryError) {
        guard (0..<model.blockCount).contains(n), bytes.count == 16 else {
            throw FactoryError("block \(n): a \(model.chip) has blocks 0–\(model.blockCount - 1) of 16 bytes")
        }
        classic.memory.replaceSubrange(n * 16..<n * 16 + 16, with: bytes)
    }

    /// Stores an AES key or a configuration block by address (tag files, tests).
    package func setKey(_ address: UInt16, _ value: [UInt8]) throws(FactoryError) {
        guard value.count == 16 else {
            throw FactoryError("\(Self.addressText(address)) needs 16 bytes, not \(value.count)")
        }
        if keys[address] != nil {
            keys[address] = value
            unknownKeys.remove(address)
        } else if configuration[address] != nil {
            configuration[address] = value
        } else {
            throw FactoryError("a \(model.chip) has no key or configuration block \(Self.addressText(address))")
        }
    }

    /// Sets what tag files keep besides memory and keys.
    package func restoreState(signature: [UInt8]?, production: [UInt8]?, personalised: Set<UInt16>) {
        if let signature { self.signature = signature }
        if let production { self.production = production }
        self.personalised = personalised
    }

    package func reset() {
        securityLevel = nextLevel
        pending = nil
        session = nil
        versionPart = 0
        classic.reset()
    }

    // MARK: Frames

    package func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        guard let command = frame.first else { return .silence }
        if securityLevel == 1 {
            // ISO/IEC 14443-3: the AES authentication with 9003/9004 and Read_Sig beside MIFARE Classic's
            // commands; multi-byte answers keep their status byte, errors are NAK 4.
            if versionPart == 0, [0x70, 0x72, 0x3C].contains(command), !classic.isMuted,
                !(command == 0x70 && frame.count == 2)
            {
                let (status, data) = native(frame, tearAfter: tearAfter)
                if tearAfter != nil { return .silence }
                return status == 0x90 ? .data([status] + data) : .nak(0x04)
            }
            return classic.receive(frame, tearAfter: tearAfter)
        }
        let answer: [UInt8]
        if command == 0x90 {
            guard let wrapped = try? ISO7816Command(decoding: frame), !wrapped.isExtended, wrapped.p1 == 0,
                wrapped.p2 == 0
            else { return tearAfter == nil ? .data([0x67, 0x00]) : .silence }
            let (status, data) = native([wrapped.ins] + wrapped.data, tearAfter: tearAfter)
            answer = data + [0x91, status]
        } else {
            let (status, data) = native(frame, tearAfter: tearAfter)
            answer = [status] + data
        }
        return tearAfter == nil ? .data(answer) : .silence
    }

    package func receive(air frame: NFCAAirFrame, tearAfter: Int?) -> NFCAAirAnswer {
        guard securityLevel == 1 else { return .silence }
        return classic.receive(air: frame, tearAfter: tearAfter)
    }

    /// One native command: the status byte and the data that follows it.
    func native(_ frame: [UInt8], tearAfter: Int?) -> (UInt8, [UInt8]) {
        let command = frame[0]
        if command == 0xAF, versionPart > 0 { return versionFrame() }
        versionPart = 0
        switch command {
        case 0x60:
            guard frame.count == 1, securityLevel != 1 else { return (Status.length, []) }
            versionPart = 1
            return (0xAF, versionHardware)
        case 0x3C:
            guard frame == [0x3C, 0x00] || frame == [0x3C] else { return (Status.length, []) }
            return (Status.ok, signature)
        case 0xA8:
            return writePerso(frame, tearAfter: tearAfter)
        case 0xAA:
            return commitPerso(frame, tearAfter: tearAfter)
        case 0x70, 0x76, 0x72, 0x78:
            return authenticationCommand(frame, tearAfter: tearAfter)
        case 0x30...0x37:
            return read(frame)
        case 0xA0...0xA3:
            return write(frame, tearAfter: tearAfter)
        default:
            return (Status.notAllowed, [])
        }
    }

    /// Status bytes (MIFARE Plus EV1 datasheet, error codes).
    enum Status {
        static let ok: UInt8 = 0x90
        static let authentication: UInt8 = 0x06
        static let overflow: UInt8 = 0x07
        static let mac: UInt8 = 0x08
        static let block: UInt8 = 0x09
        static let notAllowed: UInt8 = 0x0B
        static let length: UInt8 = 0x0C
        static let failure: UInt8 = 0x0F
    }

    // MARK: GetVersion

    var versionHardware: [UInt8] {
        [0x04, 0x02, 0x01, model.generation.majorVersion, 0x00, model.storageByte, 0x05]
    }

    private func versionFrame() -> (UInt8, [UInt8]) {
        if versionPart == 1 {
            versionPart = 2
            return (0xAF, versionHardware)
        }
        versionPart = 0
        return (Status.ok, uid + production)
    }

    // MARK: Level 0

    /// Whether `address` is a block WritePerso may write: data blocks but block 0, keys, configuration blocks.
    func isPersonalisable(_ address: UInt16) -> Bool {
        if address < UInt16(model.blockCount) { return address != 0 }
        return keys[address] != nil || configuration[address] != nil
    }

    private func writePerso(_ frame: [UInt8], tearAfter: Int?) -> (UInt8, [UInt8]) {
        guard securityLevel == 0 else { return (Status.notAllowed, []) }
        let data = frame.dropFirst(3)
        guard frame.count >= 3 + 16, data.count % 16 == 0, data.count / 16 <= 15 else { return (Status.length, []) }
        let first = UInt16(frame[1]) | UInt16(frame[2]) << 8
        let count = data.count / 16
        let addresses = (0..<count).map { first &+ UInt16($0) }
        guard addresses.allSatisfy(isPersonalisable) else { return (Status.block, []) }
        for (i, address) in addresses.enumerated() {
            // Each block is programmed once its 16 bytes arrived (tearing: whole blocks only).
            if let t = tearAfter, t < (i + 1) * 16 { break }
            let bytes = Array(data.dropFirst(i * 16).prefix(16))
            if address < UInt16(model.blockCount) {
                classic.memory.replaceSubrange(Int(address) * 16..<Int(address) * 16 + 16, with: bytes)
            } else {
                try? setKey(address, bytes)
            }
            personalised.insert(address)
        }
        return (Status.ok, [])
    }

    private func commitPerso(_ frame: [UInt8], tearAfter: Int?) -> (UInt8, [UInt8]) {
        guard securityLevel == 0 else { return (Status.notAllowed, []) }
        guard frame.count <= 2 else { return (Status.length, []) }
        let level = frame.count == 2 ? frame[1] : 1
        guard level == 1 || level == 3 else { return (Status.length, []) }
        var needed: Set<UInt16> = [0x9000, 0x9001, 0x9003]
        if level == 1 { needed.insert(0x9004) }
        guard needed.isSubset(of: personalised) else { return (Status.notAllowed, []) }
        if tearAfter.map({ $0 >= 1 }) ?? true {
            nextLevel = level
            personalised = []
        }
        return (Status.ok, [])
    }
}

/// In SL1 the chip answers as a MIFARE Classic (its ``MIFAREPlusTag/classic`` model: Crypto1, READ, WRITE, the value
/// commands; MIFARE Plus EV1 datasheet, security level 1) over the blocks its size has: 128 for a 2K, 256 for a 4K.
extension MIFAREPlusTag: MifareClassicCompatible {
    package var classicBlockCount: Int? { securityLevel == 1 ? model.blockCount : nil }
}
