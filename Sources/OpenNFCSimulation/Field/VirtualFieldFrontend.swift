internal import OpenNFCBytes
package import OpenNFCCrypto
package import OpenNFCRF

/// An ``RFFrontend`` over a ``VirtualField``: what the reader procedures, the simulated Core NFC sessions and the
/// CLI's `sim:` device talk to.
///
/// | Capability | Behaviour |
/// |---|---|
/// | Poll | every technology of the request it supports, with its parameters; WUPA/WUPB by default (halted tags are found again), REQA/REQB when ``pollsWithWakeUp`` is false |
/// | Level-3 frames | frames without CRC; ACK/NAK nibbles as ``RFResponse/ack`` / ``RFResponse/nak(_:)`` |
/// | ISO-DEP | each exchange carries one whole payload (APDU or DESFire native command); block framing, chaining and WTX are abstracted, so no block-level errors occur |
/// | Size limits | ``RFCapabilities/maxCommandSize`` / ``RFCapabilities/maxResponseSize`` enforced: `frameTooLong` naming the limit ("answer of 540 bytes exceeds the frontend's 258-byte limit"), never a timeout; ``RFCapabilities/unlimited`` applies none |
/// | No raw frames | with `rawFrames == false`, exchanges with level-3 NFC-A targets throw `unsupported`; NFC-F and NFC-V exchanges need the `felica` / `nfcV` frame modes |
/// | Errors | `notActivated`, `linkLost` (tag left), `timeout` (tag silent), injected `transmission`/`timeout` |
/// | MIFARE Classic authentication | ``authenticate(_:)`` runs the three-pass Crypto1 authentication (nested when already authenticated) when ``RFCapabilities/mifareClassicAuthentication`` is true; afterwards every exchange is enciphered here, CRC_A and parity bits included, and travels through ``VirtualField/exchange(air:)`` |
package final class VirtualFieldFrontend: RFFrontend {
    /// The field this frontend's antenna covers.
    package let field: VirtualField
    /// Sizes and technologies this frontend enforces (see ``RFCapabilities/simulatedIPhone``).
    package var capabilities: RFCapabilities
    /// Poll with WUPA (true, the default: halted tags answer) or REQA (false).
    package var pollsWithWakeUp = true
    /// The activated target and the reader's Crypto1 state, in one stored value: the exchange, activation and
    /// release, on every frame, read and write both with one dynamic exclusivity check each.
    private var link = Link()
    private struct Link {
        var active: RFTarget?
        /// The reader's Crypto1 state once a MIFARE Classic authentication succeeded (cleared by activation and
        /// release).
        var cipher: Crypto1?
    }
    private var active: RFTarget? {
        get { link.active }
        set { link.active = newValue }
    }
    private var cipher: Crypto1? {
        get { link.cipher }
        set { link.cipher = newValue }
    }
    /// Where the reader nonce nR comes from; inject a ``SeededRandomSource`` for reproducible transcripts.
    package var random: any RandomSource = SystemRandomSource()

    package init(field: VirtualField, capabilities: RFCapabilities = .simulatedIPhone) {
        self.field = field
        self.capabilities = capabilities
    }

    /// The tags in the field that answer the request, for the technologies this frontend supports (WUPA/WUPB, or
    /// REQA/REQB when ``pollsWithWakeUp`` is false).
    package func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] {
        var r = request.restricted(to: capabilities.technologies)
        if !pollsWithWakeUp {
            r.nfcA?.wakeUp = false
            r.nfcB?.wakeUp = false
        }
        return field.poll(r)
    }

    /// Selects the target in the field; `unsupported` for a technology this frontend lacks.
    package func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget {
        guard capabilities.technologies.includes(target.technology) else {
            throw RFError(.unsupported, "this frontend does not speak \(target.technology.rawValue)")
        }
        link = Link()
        let t = try field.activate(target.handle, isoDEP: isoDEP)
        link.active = t
        return t
    }

    /// Sends one frame or ISO-DEP payload, enforcing the size limits and `rawFrames`.
    package func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        let link = link
        guard let target = link.active, field.activeHandle == target.handle else {
            self.link.active = nil
            throw RFError(.notActivated, "no tag is activated")
        }
        // Read once: each read of the stored property is a dynamic exclusivity check and a copy of its sets.
        let capabilities = capabilities
        let technology = target.technology
        if !capabilities.rawFrames && technology == .nfcA && !target.isISODEP {
            throw RFError(.unsupported, "this frontend cannot send raw frames to a level-3 tag")
        }
        if technology == .nfcF && !capabilities.frameModes.contains(.felica) {
            throw RFError(.unsupported, "this frontend cannot carry FeliCa frames")
        }
        if technology == .nfcV && !capabilities.frameModes.contains(.nfcV) {
            throw RFError(.unsupported, "this frontend cannot carry ISO 15693 requests")
        }
        if command.count > capabilities.maxCommandSize {
            throw RFError(
                .frameTooLong,
                "command of \(command.count) bytes exceeds the frontend's \(capabilities.maxCommandSize)-byte limit")
        }
        let response: RFResponse
        do {
            response = try link.cipher == nil ? field.exchange(command) : encipheredExchange(command)
        } catch {
            if error.code == .linkLost || error.code == .notActivated { self.link = Link() }
            throw error
        }
        if case .frame(let bytes) = response, bytes.count > capabilities.maxResponseSize {
            throw RFError(
                .frameTooLong,
                "answer of \(bytes.count) bytes exceeds the frontend's \(capabilities.maxResponseSize)-byte limit")
        }
        // A raw RATS turns a level-3 activation into ISO-DEP.
        if !target.isISODEP, command.count == 2, command[0] == 0xE0, case .frame(let ats) = response {
            active?.ats = ats
        }
        return response
    }

    /// HLTA / DESELECT of the active target.
    package func deactivate() {
        if link.active != nil { field.halt() }
        link = Link()
    }

    // MARK: MIFARE Classic (Crypto1)

    /// The three-pass authentication of MIFARE Classic (NXP MF1S50yyX §10.1; the cipher as docs/SECURITY.md
    /// describes it): `60`/`61` and the block (enciphered when a sector is already authenticated: a nested
    /// authentication), the card's nT (enciphered when nested), the reader's {nR}{aR} with aR = suc⁶⁴(nT), the card's
    /// {aT} checked against suc⁹⁶(nT). A wrong key shows as no answer or an enciphered NAK: `protocolViolation`
    /// naming the block and key, and the card must be activated again.
    package func authenticate(_ authentication: RFAuthentication) throws(RFError) {
        guard case .mifareClassic(let block, let keyType, let key) = authentication else {
            throw RFError(.unsupported, "this frontend cannot perform \(authentication) itself")
        }
        guard capabilities.mifareClassicAuthentication else {
            throw RFError(.unsupported, "this frontend cannot perform MIFARE Classic authentication")
        }
        guard key.count == 6 else {
            throw RFError(.protocolViolation, "a MIFARE Classic key has 6 bytes, not \(key.count)")
        }
        guard let target = active, field.activeHandle == target.handle, let a = target.nfcA, !target.isISODEP else {
            throw RFError(.notActivated, "no MIFARE Classic tag is activated")
        }
        let uid = UInt32(mifareBytes: Array(a.uid.suffix(4)))
        let what = "authentication of block \(block) with key \(keyType == .a ? "A" : "B")"
        var reader = Crypto1(key: key)
        let nT: UInt32
        do throws(RFError) {
            if var outer = cipher {
                // Nested: the command goes out under the old key; nT comes back under the new one.
                let f = outer.encrypt(CRC.appendingCRCA([keyType.rawValue, block]))
                guard case .frame(let enc) = try field.exchange(air: NFCAAirFrame(bytes: f.bytes, parity: f.parity)),
                    enc.bytes.count == 4
                else { throw RFError(.protocolViolation, "\(what): the card did not answer a 4-byte nonce") }
                let nested = reader.decryptNestedNonce(Crypto1Frame(bytes: enc.bytes, parity: enc.parity), uid: uid)
                guard nested.parityOK else {
                    throw RFError(.protocolViolation, "\(what): the nested nonce's parity bits are wrong")
                }
                nT = nested.nonce
            } else {
                guard case .frame(let n) = try field.exchange([keyType.rawValue, block]), n.count == 4 else {
                    throw RFError(.protocolViolation, "\(what): the card did not answer a 4-byte nonce")
                }
                nT = UInt32(mifareBytes: n)
                reader.shift(word: uid ^ nT)
            }
            cipher = nil
            let nR = reader.encryptReaderNonce(random.bytes(4))
            let aR = reader.encrypt(MifareNonce.successor(nT, 64).mifareBytes)
            let answer = try field.exchange(
                air: NFCAAirFrame(bytes: nR.bytes + aR.bytes, parity: nR.parity + aR.parity))
            guard case .frame(let enc) = answer, enc.bytes.count == 4 else {
                throw RFError(.protocolViolation, "\(what) failed: the card refused {nR}{aR} (wrong key)")
            }
            let aT = reader.decrypt(Crypto1Frame(bytes: enc.bytes, parity: enc.parity))
            guard aT.parityOK, UInt32(mifareBytes: aT.bytes) == MifareNonce.successor(nT, 96) else {
                throw RFError(.protocolViolation, "\(what) failed: the card's answer aT is wrong")
            }
            cipher = reader
        } catch {
            cipher = nil
            if error.code == .linkLost || error.code == .notActivated { active = nil }
            if error.code == .timeout {
                throw RFError(.protocolViolation, "\(what) failed: the card did not answer (wrong key)")
            }
            throw error
        }
    }

    /// One exchange under Crypto1: CRC_A appended and enciphered with the parity bits; the answer deciphered, its
    /// parity and CRC checked; 4-bit answers deciphered to ACK or NAK (a NAK ends the authentication).
    private func encipheredExchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        guard var c = cipher else { return try field.exchange(command) }
        let f = c.encrypt(CRC.appendingCRCA(command))
        cipher = c
        let answer = try field.exchange(air: NFCAAirFrame(bytes: f.bytes, parity: f.parity))
        switch answer {
        case .nibble(let v):
            let n = c.decrypt(nibble: v)
            if n == 0x0A {
                cipher = c
                return .ack
            }
            cipher = nil
            return .nak(n)
        case .frame(let enc):
            let plain = c.decrypt(Crypto1Frame(bytes: enc.bytes, parity: enc.parity))
            cipher = c
            let b = plain.bytes
            guard plain.parityOK, b.count >= 3,
                CRC.crcA(b.dropLast(2)) == UInt16(b[b.count - 2]) | UInt16(b[b.count - 1]) << 8
            else {
                cipher = nil
                throw RFError(.transmission, "an enciphered answer failed its parity or CRC_A check")
            }
            return .frame(Array(b.dropLast(2)))
        case .silence:
            throw RFError(.timeout, "no answer")
        }
    }
}

extension RFCapabilities {
    /// No reader-side limit at all: every frame reaches the chip and every answer comes back whole (a FAST_READ of a
    /// whole NTAG216 answers 924 bytes). What `opennfc tag send` talks to the chip through, so that it shows what
    /// the datasheet says rather than what one reader carries.
    package static let unlimited = RFCapabilities(
        maxCommandSize: Int.max, maxResponseSize: Int.max, rawFrames: true, technologies: [.nfcA, .nfcB, .nfcF, .nfcV],
        mifareClassicAuthentication: true)

    /// An iPhone-like frontend (Core NFC): all four technologies, raw frames through `sendMiFareCommand`.
    ///
    /// Sizes: 261-byte commands (the largest short APDU: header 4, Lc 1, 255 data bytes, Le 1) and 258-byte answers
    /// (256 data bytes and SW1 SW2). Apple does not document the limit for raw frames; 256 + 2 also matches the
    /// FSD of 256 that iPhones announce in RATS, and bounds FAST_READ to 64 pages per frame.
    package static let simulatedIPhone = RFCapabilities(
        maxCommandSize: 261, maxResponseSize: 258, rawFrames: true, technologies: [.nfcA, .nfcB, .nfcF, .nfcV])

    /// An ACR122U-like frontend (PN532 behind a CCID reader): NFC-A, NFC-B and NFC-F, no ISO 15693; raw frames via
    /// InCommunicateThru.
    ///
    /// Sizes: 252 bytes each way. A PN532 normal information frame carries at most 255 bytes after its length
    /// byte: TFI, command code and target number (InDataExchange) or status byte (the answer) leave 252.
    package static let simulatedACR122U = RFCapabilities(
        maxCommandSize: 252, maxResponseSize: 252, rawFrames: true, technologies: [.nfcA, .nfcB, .nfcF],
        mifareClassicAuthentication: true)
}

extension VirtualFieldFrontend: AirReporting {
    /// The S(WTX) requests of the field's last exchange (``VirtualField/lastExchangeAir``).
    package var lastWaitingTimeExtensions: [UInt8] {
        field.lastWaitingTimeExtensions
    }
}
