internal import OpenNFCBytes
internal import OpenNFCRF

/// Chooses the profile for a card on a reader (the rules ``PCSCFrontend`` applies at activation).
///
/// 1. ISO 14443-4 ATR → ``ISODEPProfile``.
/// 2. Storage-card ATR on a reader whose name says ACR122 → ``ACR122UPassThroughProfile``; ACR1251/1252/1255 →
///    ``ACR1252UPassThroughProfile``.
/// 3. Storage-card ATR on any other reader: probe the ACR122U pass-through with GET_VERSION (`FF 00 00 00 03 D4 42 60`).
///    An answer `D5 43 …` means the reader carries native frames (a renamed ACR122U, `opennfc emulate`); anything
///    else: start a PC/SC 2.02 transparent session for ISO/IEC 14443 Type A layer 3 and send GET_VERSION through it;
///    a reader that takes it carries raw frames there → ``TransparentSessionProfile`` (NFC-A: Ultralight C
///    authentication, PWD_AUTH, FAST_READ); otherwise Part 3 only → ``StorageCardProfile``. The probe's GET_VERSION
///    answer also names the chip.
/// 4. ISO 15693 ATR (standard byte `0B`, or `0C` as Windows drivers report it): start a PC/SC 2.02 transparent session
///    (`FF C2 00 00 02 81 00 00`). Accepted → ``TransparentSessionProfile`` (every request reaches the tag); refused →
///    ``ISO15693StorageCardProfile`` (READ/UPDATE BINARY by block only). An ACR122U or ACR1252U never shows such a
///    card: neither reader carries ISO 15693.
/// 5. MIFARE Classic (card name `00 01` 1K, `00 02` 4K, `00 26` Mini) → ``MifareClassicProfile`` with the key
///    numbering the reader's name implies (ACS slots, or Identiv/OMNIKEY key types); no probe.
/// 6. FeliCa (ATR card name `00 3B`, `F0 11`, `F0 12`, whatever the SS byte): ``ACR122UFeliCaProfile`` or
///    ``ACR1252UFeliCaProfile`` by reader name; on another reader a wildcard Polling probes the ACR122U form
///    (InListPassiveTarget), then the ACR1252U form (`FF 00 00 00` with LEN); neither answers → ``FeliCaStorageCardProfile``.
package enum PCSCProfileSelection {
    /// The result of choosing: the profile, and the GET_VERSION answer when a probe or lookup obtained one.
    package struct Choice: Sendable {
        package var profile: any PCSCProfile
        package var version: NXPVersion?
        /// True when the tag stayed silent on GET_VERSION (a plain Ultralight or Ultralight C): it is mute now and
        /// must be reset before use.
        package var tagWentMute: Bool
    }

    /// PC/SC Part 3 card names of Type 1 tags: Jewel `00 2F`, Topaz `00 30`, and the ACS vendor code `F0 04`.
    package static let type1CardNames: Set<UInt16> = [0x002F, 0x0030, 0xF004]

    /// The profile a reader name implies for level-3 tags, if the name is known.
    package static func passThroughProfile(forReaderNamed name: String) -> (any PCSCProfile)? {
        let n = name.uppercased()
        if n.contains("ACR122") { return ACR122UPassThroughProfile() }
        if n.contains("ACR1252") || n.contains("ACR1255") || n.contains("ACR1251") {
            return ACR1252UPassThroughProfile()
        }
        return nil
    }

    /// Chooses the profile for the card behind `card`, sending at most one probe command.
    package static func choose(for kind: ContactlessCard, card: PCSCCard) -> Choice {
        if case .isoDEP = kind { return Choice(profile: ISODEPProfile(), version: nil, tagWentMute: false) }
        if kind.technology == .nfcF {
            return Choice(profile: chooseFeliCa(for: kind, card: card), version: nil, tagWentMute: false)
        }
        if case .storage(0x03, let nn) = kind, type1CardNames.contains(nn) {
            // Type 1 travels only through PN532 InDataExchange (ACR122U, `opennfc emulate`); the ACR1252U family's
            // pass-through has no Type 1 framing, so there the tag gets Part 3 APDUs, which no Type 1 command fits.
            let n = card.reader.uppercased()
            let noType1 = n.contains("ACR1252") || n.contains("ACR1255") || n.contains("ACR1251")
            return Choice(
                profile: noType1 ? StorageCardProfile() : ACR122UType1Profile(), version: nil, tagWentMute: false)
        }
        if case .storage(let ss, _) = kind, ContactlessCard.iso15693Standards.contains(ss) {
            let transparent = TransparentSessionProfile.startSession(on: card)
            return Choice(
                profile: transparent
                    ? TransparentSessionProfile(sessionStarted: true) : ISO15693StorageCardProfile(),
                version: nil, tagWentMute: false)
        }
        if case .storage(0x03, let nn) = kind, MifareClassicProfile.cardNames.contains(nn) {
            // MIFARE Classic: the reader performs Crypto1 (LOAD KEYS, GENERAL AUTHENTICATE), whatever else it carries.
            return Choice(profile: MifareClassicProfile(forReaderNamed: card.reader), version: nil, tagWentMute: false)
        }
        guard case .storage(0x03, _) = kind else {
            return Choice(profile: StorageCardProfile(), version: nil, tagWentMute: false)
        }
        let known = passThroughProfile(forReaderNamed: card.reader)
        let probeProfile = known ?? ACR122UPassThroughProfile()
        do {
            let answer: RFResponse
            if known == nil {
                // An unknown reader carries the ACR122U form only if it answers as a PN532 does (`D5 43`, its
                // InCommunicateThru reply); any other answer, `63 00` included, says it has no such form, not that the
                // tag was silent.
                let r = try card.transmitForRF(ACR122UPassThroughProfile.wrap([0x60]))
                guard r.isSuccess, r.data.starts(with: [0xD5, 0x43]) else {
                    return chooseTransparentTypeA(card: card)
                        ?? Choice(profile: StorageCardProfile(), version: nil, tagWentMute: false)
                }
                answer = try ACR122UPassThroughProfile.decode(r, reader: card.reader)
            } else {
                answer = try probeProfile.exchange([0x60], on: card)
            }
            guard case .frame(let bytes) = answer else {
                // NAK: an NTAG203 (NTAG213/215/216 datasheet §10.1, MF0ULx1 datasheet §8.1 GET_VERSION); pass-through works.
                return Choice(profile: probeProfile, version: nil, tagWentMute: true)
            }
            return Choice(profile: probeProfile, version: NXPVersion(bytes), tagWentMute: false)
        } catch {
            switch error.code {
            case .timeout, .transmission:
                // Pass-through works; the tag has no GET_VERSION (plain Ultralight / Ultralight C) and is mute now.
                return Choice(profile: probeProfile, version: nil, tagWentMute: true)
            default:
                if known == nil, let transparent = chooseTransparentTypeA(card: card) { return transparent }
                return Choice(profile: known ?? StorageCardProfile(), version: nil, tagWentMute: known != nil)
            }
        }
    }

    /// Rule 3, second probe: a transparent session switched to ISO/IEC 14443 Type A layer 3 (PC/SC Part 3 v2.02
    /// Switch Protocol `8F 02 00 03`), then GET_VERSION through it; nil (the session ended again) when the reader
    /// refuses either. A tag that stays silent is mute afterwards: the frontend resets the card, which ends the
    /// session, so that profile starts a new one.
    static func chooseTransparentTypeA(card: PCSCCard) -> Choice? {
        guard TransparentSessionProfile.startSession(on: card) else { return nil }
        let profile = TransparentSessionProfile(technology: .nfcA, sessionStarted: true)
        do {
            try profile.begin(on: card)
            guard case .frame(let bytes) = try profile.exchange([0x60], on: card) else {
                // NAK: an NTAG203; the frames go through.
                return Choice(
                    profile: TransparentSessionProfile(technology: .nfcA), version: nil, tagWentMute: true)
            }
            return Choice(profile: profile, version: NXPVersion(bytes), tagWentMute: false)
        } catch {
            switch error.code {
            case .timeout, .transmission:
                // No GET_VERSION (plain Ultralight, Ultralight C): the frames go through, the tag is mute now.
                return Choice(profile: TransparentSessionProfile(technology: .nfcA), version: nil, tagWentMute: true)
            default:
                profile.end(on: card)
                return nil
            }
        }
    }

    /// The FeliCa profile (rule 4): a wildcard Polling (`00 FF FF 00 00`, JIS X 6319-4 §8.5.1) answered `01 IDm …`
    /// shows which pass-through the reader carries.
    static func chooseFeliCa(for kind: ContactlessCard, card: PCSCCard) -> any PCSCProfile {
        let bitRate = kind.feliCaBitRate ?? 212
        let n = card.reader.uppercased()
        if n.contains("ACR122") { return ACR122UFeliCaProfile(bitRate: bitRate) }
        if n.contains("ACR1252") || n.contains("ACR1255") || n.contains("ACR1251") { return ACR1252UFeliCaProfile() }
        let probe: [UInt8] = [0x00, 0xFF, 0xFF, 0x00, 0x00]
        for profile in [ACR122UFeliCaProfile(bitRate: bitRate), ACR1252UFeliCaProfile()] as [any PCSCProfile] {
            if case .frame(let b)? = try? profile.exchange(probe, on: card), b.first == 0x01 { return profile }
        }
        return FeliCaStorageCardProfile()
    }
}
