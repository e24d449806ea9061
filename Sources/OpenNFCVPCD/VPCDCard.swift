internal import OpenNFCBytes
package import OpenNFCSimulation

/// A ``VirtualTag`` presented as the card a contactless PC/SC reader would report: the reader's side (ATR synthesis,
/// storage-card pseudo-APDUs, PN532 pass-through) is emulated here, the tag's side is the virtual chip itself.
///
/// | Command (CLA `FF` unless noted) | Level-3 tag (Type 2) | ISO-DEP tag (Type 4, DESFire) |
/// |---|---|---|
/// | ATR | PC/SC Part 3 storage card, `3B 8F 80 01 80 4F 0C A0 00 00 03 06 03 NN NN 00 00 00 00 TCK` (§9.2) | `3B 8N 80 01 <ATS historical bytes> TCK` (§9.3) |
/// | `CA 00 00 Le` GET DATA UID | UID + `90 00` (`6C XX` when Le is short) | same |
/// | `CA 01 00 Le` GET DATA historical bytes | `6A 81` (no ATS) | ATS historical bytes + `90 00` |
/// | `B0 00 PP Le` READ BINARY | READs from page PP, Le bytes (1–256) + `90 00`; `63 00` when the tag refuses | `6A 81` |
/// | `D6 00 PP Lc data` UPDATE BINARY | one WRITE per 4 bytes; `90 00`, `63 00` when refused, `67 00` when Lc is not a multiple of 4 | `6A 81` |
/// | `00 00 00 Lc D4 42 <frame>` InCommunicateThru | the tag's answer as `D5 43 00 <data> 90 00`; ACK/NAK as one byte (`0A`, `0n`); silence `D5 43 01 90 00` | same, frame = an ISO-DEP payload |
/// | `00 00 00 Lc D4 40 01 <frame>` InDataExchange | as above with `D5 41` | same |
/// | `00 00 00 Lc D4 4A 01 00` InListPassiveTarget | re-activates the tag; `D5 4B 01 01 <SENS_RES> <SEL_RES> <len> <UID> 90 00` | same (with ATS) |
/// | `00 00 00 Lc <frame>` direct transmit without PN53x framing (ACR1252U form: first byte not `D4`) | the tag's answer + `90 00`; ACK/NAK as one byte (`0A`, `0n`) + `90 00`; silence `63 00` | `63 00` |
/// | other `FF` commands | `6A 81` (function not supported) | `6A 81` |
///
/// A FeliCa card (NFC-F, JIS X 6319-4) gets the ATR `… 06 11 00 3B …`, its IDm from `CA 00 00 Le`, `6A 81` for READ
/// and UPDATE BINARY (Part 3 has no FeliCa block mapping), and both ACS pass-through forms:
///
/// | Command (CLA `FF`) | FeliCa card |
/// |---|---|
/// | `00 00 00 Lc D4 4A 01 BrTy 00 SC SC RC TSN` InListPassiveTarget (BrTy `01`/`02`) | the Polling answer as `D5 4B 01 01 LEN 01 IDm PMm [RD] 90 00`; no answer `D5 4B 00 90 00` |
/// | `00 00 00 Lc D4 42 LEN code IDm …` InCommunicateThru | `D5 43 00 LEN <answer> 90 00`; silence `D5 43 01 90 00`; a LEN that does not count the frame `D5 43 27 90 00` |
/// | `00 00 00 Lc LEN code …` direct transmit (ACR1252U form) | `LEN <answer> 90 00`; silence `63 00` |
/// | any other CLA | `6E 00` | passed to the card; its answer returned as is; silence → `6F 00` |
///
/// A refused pseudo-APDU leaves an NXP chip mute; like a reader that re-selects the tag on its next poll, the tag is
/// re-activated (``VirtualTag/reset()``) after a `63 00`, so the next pseudo-APDU works. Pass-through frames get no
/// such help: a tag muted by a raw frame stays mute until the next reset, as on an ACR122U.
///
/// ISO 15693 tags (Type 5): the Part 3 ATR with standard `0B`, `FF CA` (UID LSB first), READ/UPDATE BINARY by block
/// and the PC/SC 2.02 transparent session `FF C2`; the table is in `VPCDCard+ISO15693.swift`.
///
/// MIFARE Classic (and any chip answering as one, ``MifareClassicCompatible``): LOAD KEYS, GENERAL AUTHENTICATE,
/// READ/UPDATE BINARY by block and the ACS value-block commands (`FF D7`/`FF B1`), with Crypto1 run against the chip;
/// the table is in `VPCDCard+MifareClassic.swift`.
///
/// Level-3 NFC-A tags also get the PC/SC 2.02 transparent session (`FF C2`, `VPCDCard+Transparent.swift`). With
/// ``ReaderForms/pcsc`` the emulated reader has no ACS forms at all (`FF 00 00 00 …` answers `6A 81`), as a PC/SC
/// 2.02 reader of another maker: raw frames then reach a Type 2 tag only through the transparent session.
///
/// Not emulated: reader LED and
/// buzzer commands, `SCardControl` escapes (vpcd has no control channel).
package final class VPCDCard {
    /// The vendor forms the emulated reader offers besides PC/SC Part 3 and the 2.02 transparent session.
    package enum ReaderForms: String, Sendable, CaseIterable {
        /// The ACS pass-through forms (ACR122U PN532 `D4 42`/`D4 40`, ACR1252U direct transmit): the default.
        case acs
        /// None: a PC/SC 2.02 reader of another maker (OMNIKEY, Identiv); raw frames only through `FF C2`.
        case pcsc
    }

    package let tag: any VirtualTag
    package let forms: ReaderForms
    /// Power state as the reader last set it.
    package internal(set) var isPowered = false
    /// ISO 15693: whether a PC/SC 2.02 transparent session is open, and the block size the reader learnt.
    var transparentSession = false
    var iso15693BlockSize: Int?
    /// MIFARE Classic: the reader's key memory and its Crypto1 link to the chip (`VPCDCard+MifareClassic.swift`).
    var classicLink: MifareClassicLink?

    package init(tag: any VirtualTag, forms: ReaderForms = .acs) {
        self.tag = tag
        self.forms = forms
    }

    // MARK: Power (vpcd control messages 0x00, 0x01, 0x02)

    package func powerOff() {
        isPowered = false
        transparentSession = false
    }

    package func powerOn() {
        isPowered = true
        tag.powerOn()
    }

    /// Warm reset: the reader re-activates the tag; volatile state (authentication, selected file, mute) is cleared.
    package func reset() {
        isPowered = true
        transparentSession = false
        tag.reset()
    }

    /// ISO-DEP: an NFC-A tag with an ATS (SAK bit 6), or an NFC-B tag whose ATQB announces ISO/IEC 14443-4
    /// (protocol info byte 2, bit 1: a Type B Type 4 card, a passport).
    var isISODEP: Bool {
        if case .nfcB(let b) = tag.activation.air { return b.protocolInfo.count > 1 && b.protocolInfo[1] & 0x01 != 0 }
        return tag.activation.ats != nil || (tag.activation.selRes ?? 0) & 0x20 != 0
    }
    var isFeliCa: Bool { tag.activation.technology == .nfcF }

    // MARK: APDUs

    /// The response APDU for one command APDU, or nil when the tag left the field during the command (a fault with
    /// `tearAfter`): then no answer may be sent and the connection must close.
    package func respond(to apdu: [UInt8], tearAfter: Int? = nil) -> [UInt8]? {
        guard apdu.count >= 4 else { return [0x67, 0x00] }
        guard apdu[0] == 0xFF else {
            guard isISODEP else { return [0x6E, 0x00] }
            switch tag.receive(apdu, tearAfter: tearAfter) {
            case .data(let r) where r.count >= 1:
                return tearAfter == nil ? r : nil
            case .data, .ack, .nak, .silence:
                return tearAfter == nil ? [0x6F, 0x00] : nil
            }
        }
        let (ins, p1, p2) = (apdu[1], apdu[2], apdu[3])
        if isISO15693, let r = respondISO15693(apdu, tearAfter: tearAfter) { return r }
        if ins == 0xC2, p1 == 0x00, isLevel3NFCA { return transparent(p2: p2, apdu: apdu, tearAfter: tearAfter) }
        if ins == 0x00, p1 == 0x00, p2 == 0x00, forms == .pcsc { return [0x6A, 0x81] }
        if let c = tag as? any MifareClassicCompatible, let blocks = c.classicBlockCount,
            let r = respondMifareClassic(apdu, c, blocks: blocks, tearAfter: tearAfter)
        {
            return r
        }
        switch (ins, p1) {
        case (0xCA, 0x00): return getData(apdu, tearAfter != nil) { self.tag.activation.uid }
        case (0xCA, 0x01):
            guard isISODEP else { return [0x6A, 0x81] }
            return getData(apdu, tearAfter != nil) { Self.historicalBytes(ofATS: self.tag.activation.ats ?? []) }
        case (0xB0, _) where isFeliCa, (0xD6, _) where isFeliCa: return [0x6A, 0x81]
        case (0x00, 0x00) where p2 == 0x00 && isFeliCa: return feliCaTransmit(apdu, tearAfter: tearAfter)
        case (0xB0, _) where !isISODEP:
            let r = readBinary(p1: p1, page: p2, apdu: apdu)
            return tearAfter == nil ? r : nil
        case (0xD6, _) where !isISODEP: return updateBinary(p1: p1, page: p2, apdu: apdu, tearAfter: tearAfter)
        case (0x00, 0x00) where p2 == 0x00: return directTransmit(apdu, tearAfter: tearAfter)
        default: return [0x6A, 0x81]
        }
    }

    func getData(_ apdu: [UInt8], _ torn: Bool, _ value: () -> [UInt8]) -> [UInt8]? {
        if torn { return nil }
        let v = value()
        let le = apdu.count >= 5 ? Int(apdu[4]) : 0
        if le != 0 && le < v.count { return [0x6C, UInt8(v.count)] }
        return v + [0x90, 0x00]
    }

    /// The tag refused: answer `63 00` and re-activate it, as a reader re-selects the tag it polls.
    private func refused() -> [UInt8] {
        tag.reset()
        return [0x63, 0x00]
    }

    private func readBinary(p1: UInt8, page: UInt8, apdu: [UInt8]) -> [UInt8] {
        guard p1 == 0x00 else { return [0x6B, 0x00] }
        guard apdu.count == 5 else { return [0x67, 0x00] }
        let length = apdu[4] == 0 ? 256 : Int(apdu[4])
        var out: [UInt8] = []
        var p = Int(page)
        while out.count < length {
            guard p <= 0xFF, case .data(let d) = tag.receive([0x30, UInt8(p)], tearAfter: nil), d.count == 16 else {
                return refused()
            }
            out += d
            p += 4
        }
        return Array(out.prefix(length)) + [0x90, 0x00]
    }

    private func updateBinary(p1: UInt8, page: UInt8, apdu: [UInt8], tearAfter: Int?) -> [UInt8]? {
        guard p1 == 0x00 else { return [0x6B, 0x00] }
        guard apdu.count >= 5, apdu.count == 5 + Int(apdu[4]), apdu[4] > 0, apdu[4] % 4 == 0 else {
            return [0x67, 0x00]
        }
        var budget = tearAfter
        for i in stride(from: 5, to: apdu.count, by: 4) {
            let p = Int(page) + (i - 5) / 4
            guard p <= 0xFF else { return refused() }
            let frame: [UInt8] = [0xA2, UInt8(p)] + apdu[i..<i + 4]
            if let b = budget, b < 4 {
                _ = tag.receive(frame, tearAfter: b)
                return nil
            }
            let answer = tag.receive(frame, tearAfter: nil)
            budget = budget.map { $0 - 4 }
            guard answer == .ack else { return refused() }
        }
        return budget == nil ? [0x90, 0x00] : nil
    }

    // MARK: PN532 pass-through (ACR122U direct transmit)

    private func directTransmit(_ apdu: [UInt8], tearAfter: Int?) -> [UInt8]? {
        guard apdu.count >= 6, apdu.count == 5 + Int(apdu[4]) else { return [0x63, 0x00] }
        guard apdu[5] == 0xD4 else { return plainTransmit(Array(apdu[5...]), tearAfter: tearAfter) }
        guard apdu.count >= 7 else { return [0x63, 0x00] }
        let pn532 = Array(apdu[6...])
        switch pn532[0] {
        case 0x42:  // InCommunicateThru
            return thru(Array(pn532.dropFirst()), reply: 0x43, tearAfter: tearAfter)
        case 0x40 where pn532.count >= 2 && pn532[1] == 0x01 && tag.activation.nfcA?.type1 != nil:
            return type1Exchange(Array(pn532.dropFirst(2)), tearAfter: tearAfter)
        case 0x40 where pn532.count >= 2 && pn532[1] == 0x01:  // InDataExchange, target 1
            return thru(Array(pn532.dropFirst(2)), reply: 0x41, tearAfter: tearAfter)
        case 0x4A:  // InListPassiveTarget
            if tearAfter != nil { return nil }
            tag.reset()
            let a = tag.activation
            let atqa = a.sensRes ?? 0
            // Jewel/Topaz target data: SENS_RES and the 4-byte UID only (ACS ACR122 manuals, `D4 4A 01 04`).
            if a.nfcA?.type1 != nil {
                return [0xD5, 0x4B, 0x01, 0x01, UInt8(atqa >> 8), UInt8(atqa & 0xFF)] + a.uid + [0x90, 0x00]
            }
            var t: [UInt8] = [0xD5, 0x4B, 0x01, 0x01, UInt8(atqa >> 8), UInt8(atqa & 0xFF), a.selRes ?? 0]
            t += [UInt8(a.uid.count)] + a.uid + (a.ats ?? [])
            return t + [0x90, 0x00]
        default:
            return [0xD5, pn532[0] &+ 1, 0x27, 0x90, 0x00]  // command not acceptable in this context
        }
    }

    /// InDataExchange to a Type 1 tag as the PN532 does it: the host sends `CMD ADD [DATA]`, the PN532 adds the padding
    /// and the UID echo, and drops the address echo from the answer (RALL's answer has none). It cannot send RID.
    private func type1Exchange(_ body: [UInt8], tearAfter: Int?) -> [UInt8]? {
        let uid = tag.activation.uid
        let frame: [UInt8]
        switch (body.first, body.count) {
        case (0x00?, 1): frame = [0x00, 0x00, 0x00] + uid
        case (0x01?, 2): frame = body + [0x00] + uid
        case (0x53?, 3), (0x1A?, 3): frame = body + uid
        case (0x10?, 2), (0x02?, 2): frame = body + [UInt8](repeating: 0, count: 8) + uid
        case (0x54?, 10), (0x1B?, 10): frame = body + uid
        default: return [0xD5, 0x41, 0x27, 0x90, 0x00]  // not a command the PN532 sends to a Type 1 tag
        }
        let answer = tag.receive(frame, tearAfter: tearAfter)
        if tearAfter != nil { return nil }
        guard case .data(let d) = answer, !d.isEmpty else { return [0xD5, 0x41, 0x01, 0x90, 0x00] }
        return [0xD5, 0x41, 0x00] + (body[0] == 0x00 ? d : Array(d.dropFirst())) + [0x90, 0x00]
    }

    /// The ACR1252U's direct transmit (ACS ACR1252U API, "Direct Transmit"): the frame goes to a level-3 tag as it is
    /// (the PN512 adds CRC_A), the answer comes back without PN53x framing. No NFC-A command of a level-3 tag starts
    /// with `D4`, so the two ACS forms never overlap. An ISO-DEP card gets `63 00`: the ACR1252U sends APDUs to it.
    private func plainTransmit(_ frame: [UInt8], tearAfter: Int?) -> [UInt8]? {
        guard !isISODEP, tag.activation.nfcA?.type1 == nil else { return [0x63, 0x00] }
        let answer = tag.receive(frame, tearAfter: tearAfter)
        if tearAfter != nil { return nil }
        switch answer {
        case .data(let d) where !d.isEmpty: return d + [0x90, 0x00]
        case .data, .silence: return [0x63, 0x00]
        case .ack: return [0x0A, 0x90, 0x00]
        case .nak(let n): return [n & 0x0F, 0x90, 0x00]
        }
    }

    private func thru(_ frame: [UInt8], reply: UInt8, tearAfter: Int?) -> [UInt8]? {
        guard !frame.isEmpty else { return [0xD5, reply, 0x27, 0x90, 0x00] }
        let answer = tag.receive(frame, tearAfter: tearAfter)
        if tearAfter != nil { return nil }
        switch answer {
        case .data(let d): return [0xD5, reply, 0x00] + d + [0x90, 0x00]
        case .ack: return [0xD5, reply, 0x00, 0x0A, 0x90, 0x00]
        case .nak(let n): return [0xD5, reply, 0x00, n & 0x0F, 0x90, 0x00]
        case .silence: return [0xD5, reply, 0x01, 0x90, 0x00]
        }
    }

    // MARK: FeliCa pass-through (ACR122U PN532 and ACR1252U direct transmit)

    /// FeliCa frames carry their LEN byte on the reader's side (JIS X 6319-4 §8.4.2); the card receives them without.
    private func feliCaTransmit(_ apdu: [UInt8], tearAfter: Int?) -> [UInt8]? {
        guard apdu.count >= 7, apdu.count == 5 + Int(apdu[4]) else { return [0x63, 0x00] }
        let body = Array(apdu[5...])
        func answer(_ frame: [UInt8]) -> [UInt8]?? {
            let a = tag.receive(frame, tearAfter: tearAfter)
            if tearAfter != nil { return .some(nil) }
            guard case .data(let d) = a, !d.isEmpty, d.count < 255 else { return nil }
            return .some([UInt8(d.count + 1)] + d)
        }
        if body[0] == 0xD4 && Int(body[0]) != body.count {
            switch body[1] {
            case 0x4A where body.count == 9 && body[2] == 0x01 && (body[3] == 0x01 || body[3] == 0x02):
                guard let framed = answer(Array(body[4...])) else { return [0xD5, 0x4B, 0x00, 0x90, 0x00] }
                return framed.map { [0xD5, 0x4B, 0x01, 0x01] + $0 + [0x90, 0x00] }
            case 0x42 where body.count >= 4 && Int(body[2]) == body.count - 2:
                guard let framed = answer(Array(body[3...])) else { return [0xD5, 0x43, 0x01, 0x90, 0x00] }
                return framed.map { [0xD5, 0x43, 0x00] + $0 + [0x90, 0x00] }
            default:
                return [0xD5, body[1] &+ 1, 0x27, 0x90, 0x00]  // command not acceptable in this context
            }
        }
        guard Int(body[0]) == body.count else { return [0x63, 0x00] }
        guard let framed = answer(Array(body[1...])) else { return [0x63, 0x00] }
        return framed.map { $0 + [0x90, 0x00] }
    }
}
