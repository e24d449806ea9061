package import OpenNFCCrypto

/// A virtual eMRTD chip (ICAO Doc 9303): a passport booklet (TD3) or an ID card (TD1) on NFC-A or NFC-B, an
/// ISO-DEP card holding the LDS 1.7 files of Part 10 and running the access and authentication protocols of
/// Part 11. Every key it holds is a TEST key generated for the document.
///
/// | Feature | Supported | Notes |
/// |---|---|---|
/// | Files | MF: EF.CardAccess `011C`, EF.ATR/INFO `2F01`; eMRTD application `A0000002471001`: EF.COM, DG1, DG2, DG11, DG12, DG14, DG15, EF.SOD | identifiers resolve against the current DF; `3F00` always reaches the MF |
/// | SELECT, READ BINARY | the shared ``ISO7816Engine``: P1 `00`/`02`/`04`/`08`…, even INS with offsets and SFI, odd INS `B1`, short and extended Le | the answer is capped to what fits the reader's Le once protected |
/// | Access control | MF files readable by anyone; application files after BAC or PACE, else `69 82` | Part 11 §4.2 |
/// | BAC | GET CHALLENGE, EXTERNAL AUTHENTICATE (Part 11 §4.3); no retry counter: a wrong MRZ is `63 00`, the next right one works | PACE-only chips answer `6A 88` |
/// | PACE | MSE:Set AT, four GENERAL AUTHENTICATE steps, ECDH Generic Mapping on the curves of parameters 8–18, 3DES or AES-128/192/256, MRZ or CAN (Part 11 §4.4) | no DH, no Integrated Mapping, no CAM |
/// | Secure messaging | 3DES and AES, SSC rules, MAC checked on every command; a plain command ends it; `69 87`/`69 88` end it and drop the keys (Part 11 §9.8) | |
/// | Chip Authentication | MSE:Set KAT (3DES), MSE:Set AT + GENERAL AUTHENTICATE (AES), then new keys with SSC 0 (Part 11 §6.2) | ECDH only |
/// | Active Authentication | INTERNAL AUTHENTICATE: RSA with ISO/IEC 9796-2 scheme 1 (SHA-1), or plain ECDSA with SHA-256 (Part 11 §6.1) | |
/// | Not emulated | Terminal Authentication (EAC), EF.CardSecurity, DG3/DG4, PIN/PUK | `6D 00` / `69 85` |
public final class EMRTDTag: VirtualTag {
    /// `passport` or `id-card`.
    public var chip: String { document.kind.rawValue }
    public var activation: VirtualActivation

    /// The personalised document (files, secrets, TEST keys, faults).
    package let document: EMRTDDocument

    var tree: EMRTDFileTree
    var engine: ISO7816Engine
    /// The running secure messaging session, if any.
    var channel: EMRTDSecureChannel?
    /// Installed after the current answer is wrapped (Chip Authentication's new keys, TR-03110-3 §F.5).
    var nextChannel: EMRTDSecureChannel?
    /// RND.IC of the last plain GET CHALLENGE, waiting for BAC's EXTERNAL AUTHENTICATE.
    var challenge: [UInt8]?
    /// PACE in progress.
    var pace: PACEState?
    /// The Chip Authentication protocol chosen by MSE:Set AT.
    var chipAuthenticationCipher: SMCipherName?
    let random: any RandomSource

    /// Fixed values in place of the chip's random numbers, so that tests reproduce the worked examples of Doc 9303
    /// Part 11 (Appendix D: RND.IC and K.IC). Not reachable from tag files or the CLI.
    package struct TestHooks: Sendable {
        package var challenge: [UInt8]?
        package var keyIC: [UInt8]?
        package var paceNonce: [UInt8]?
        package var paceMappingKey: [UInt8]?
        package var paceEphemeralKey: [UInt8]?
        package init() {}
    }
    package var testHooks = TestHooks()

    /// The largest response data field the chip sends (EF.ATR/INFO's maximum Le, ISO/IEC 7816-4 §8.2.1.1).
    package static let bufferSize = 4096

    /// The default activation: NFC-B for passports (many booklets are Type B), NFC-A for ID cards; `uid` is the
    /// 4-byte random UID or PUPI.
    package static func defaultActivation(kind: EMRTDDocument.Kind, uid: [UInt8], typeB: Bool? = nil)
        throws(ISODEPCardError) -> VirtualActivation
    {
        if typeB ?? (kind == .passport) { return try Type4Tag.typeBActivation(pupi: uid) }
        return VirtualActivation(uid: uid, sensRes: 0x0004, selRes: 0x20, ats: [0x05, 0x78, 0x80, 0x70, 0x02])
    }

    /// The chip of `document`, answering with `activation`; its random numbers come from `random`.
    package init(
        document: EMRTDDocument, activation: VirtualActivation, random: any RandomSource = SystemRandomSource()
    ) {
        self.document = document
        self.activation = activation
        self.random = random
        self.tree = EMRTDFileTree(files: document.files)
        self.engine = ISO7816Engine(
            limits: .init(mle: Self.bufferSize, mlc: Self.bufferSize, extendedLength: true))
    }

    public func reset() {
        endSession()
        pace = nil
        engine.reset(in: tree)
    }

    /// Ends secure messaging and the access it gave (Part 11 §9.8.8, TR-03110-3 §F.6): keys deleted, access rights
    /// reset, a pending challenge or protocol forgotten.
    func endSession() {
        channel = nil
        nextChannel = nil
        challenge = nil
        chipAuthenticationCipher = nil
        tree.accessGranted = false
    }

    /// Starts secure messaging with `channel` and opens the application's files.
    func startSession(_ channel: EMRTDSecureChannel) {
        self.channel = channel
        tree.accessGranted = true
        challenge = nil
        pace = nil
    }

    public func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        let response = respond(frame)
        // The chip left the field while answering: whatever it computed, the reader hears nothing (a tear can fall
        // on any APDU; re-activation resets the session).
        if tearAfter != nil { return .silence }
        return .data(response.encoded)
    }

    /// The answer to one command APDU, protected or plain.
    func respond(_ frame: [UInt8]) -> ISO7816Response {
        let command: ISO7816Command
        do {
            command = try ISO7816Command(decoding: frame)
        } catch {
            endSession()
            return .status(.wrongLength)
        }
        let isProtected = command.cla & 0x80 == 0 && command.cla & 0x0C == 0x0C
        guard isProtected else {
            // TR-03110-3 §F.6: a plain command aborts secure messaging; the command itself is then run as plain.
            if channel != nil { endSession() }
            return dispatch(command, protected: false, limit: Self.bufferSize)
        }
        guard var session = channel else { return .status(ISO7816Status(rawValue: 0x6988)) }
        let plain: ISO7816Command
        do {
            plain = try session.unwrap(command)
        } catch {
            endSession()
            return .status(error.status)
        }
        channel = session
        // The plain answer must fit, once wrapped, in what the reader's Le allows and in the chip's buffer.
        let outer = min(command.ne ?? 0, Self.bufferSize)
        var limit = 0
        let odd = plain.ins & 0x01 == 1
        while limit < outer && limit + 1 + session.overhead(plainCount: limit + 1, oddINS: odd) <= outer {
            limit += 1
        }
        let answer = dispatch(plain, protected: true, limit: limit)
        guard var current = channel else { return answer }  // the command ended the session
        do {
            let wrapped = try current.wrap(answer, ins: plain.ins)
            channel = nextChannel ?? current
            nextChannel = nil
            return wrapped
        } catch {
            endSession()
            return .status(.noPreciseDiagnosis)
        }
    }

    /// Runs one plain command; `limit` is the most response data the chip may send back.
    func dispatch(_ command: ISO7816Command, protected: Bool, limit: Int) -> ISO7816Response {
        switch command.ins {
        case 0x84: return getChallenge(command, protected: protected)
        case 0x82: return protected ? .status(ISO7816Status(rawValue: 0x6985)) : externalAuthenticate(command)
        case 0x22: return protected ? manageSecurityEnvironmentCA(command) : manageSecurityEnvironmentPACE(command)
        case 0x86: return protected ? generalAuthenticateCA(command) : generalAuthenticatePACE(command)
        case 0x88: return internalAuthenticate(command, limit: limit)
        case 0xA4, 0xB0, 0xB1: return fileCommand(command, limit: limit)
        default:
            if let refusal = ISO7816Engine.checkClass(command.cla) { return .status(refusal) }
            return .status(.insNotSupported)
        }
    }

    /// SELECT and READ BINARY through the shared engine, READ capped to `limit` bytes. An explicit Le the answer
    /// cannot hold is `6C xx` with the length that fits (ISO/IEC 7816-4 §5.1.3), or `67 00` above 255.
    private func fileCommand(_ command: ISO7816Command, limit: Int) -> ISO7816Response {
        if command.ins != 0xA4, let ne = command.ne, !command.neIsMaximum, ne > limit {
            return .status(limit <= 0xFF && limit > 0 ? ISO7816Status(0x6C, UInt8(limit)) : .wrongLength)
        }
        engine.limits.mle = max(limit, 1)
        let outcome = engine.process(command.encoded, in: &tree, tearAfter: nil)
        return outcome.response ?? .status(.noPreciseDiagnosis)
    }

    /// GET CHALLENGE (ISO/IEC 7816-4 §11.5.3): 8 random bytes; a plain one is RND.IC for BAC.
    private func getChallenge(_ command: ISO7816Command, protected: Bool) -> ISO7816Response {
        guard command.p1 == 0, command.p2 == 0 else { return .status(.incorrectP1P2) }
        guard command.data.isEmpty, command.ne == 8 else { return .status(.wrongLength) }
        let rnd = testHooks.challenge ?? random.bytes(8)
        if !protected { challenge = rnd }
        return ISO7816Response(data: rnd)
    }
}
