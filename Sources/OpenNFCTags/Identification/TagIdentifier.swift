internal import OpenNFCBytes
package import OpenNFCRF

/// Decides what an activated target is, sending a command only where the activation data cannot tell, by walking
/// the family registry (``TagFamilies``)
/// (NFC Forum Activity §9 technology detection; NXP AN10833 "MIFARE type identification"; NTAG213/215/216
/// datasheet §10.1 GET_VERSION; NXP MF3ICD81 §9 GetVersion).
///
/// | Activation | Extra frames | Result |
/// |---|---|---|
/// | NFC-A, SAK without bit 0x20, NXP UID (`04…`), raw frames | GET_VERSION `60` (1 frame; on NAK or silence, one re-activation) | NTAG21x / Ultralight EV1 from the version |
/// | … GET_VERSION silent or NAK | AUTHENTICATE `1A 00` (1 frame, then one re-activation) | ``Type2Chip/ultralightC`` when it answers `AF` + 8 bytes, else ``Type2Chip/ultralight`` |
/// | NFC-A, SAK without bit 0x20, other UID or no raw frames | none | ``Type2Chip/generic`` |
/// | NFC-A, SAK `08` `09` `18` `88` `10` `11` | none | ``TagKind/mifareClassic`` |
/// | NFC-A ISO-DEP, NXP UID | DESFire GetVersion `90 60 00 00 00` + 2 × `90 AF 00 00 00` (3 frames) | ``TagKind/desfire(_:)``, the kind a product of ``TagFamilies/getVersionProducts`` gives (its hardware part names it), or ``TagKind/iso7816`` |
/// | NFC-A ISO-DEP, random 4-byte UID (`08…`, ISO/IEC 14443-3 §6.5.4; or `80…`) | the same GetVersion (3 frames; 1 when the card refuses it or answers no status word) | ``TagKind/desfire(_:)`` (a DESFire with random ID) or ``TagKind/iso7816`` |
/// | NFC-A ISO-DEP, other UID; NFC-B | none | ``TagKind/iso7816`` |
/// | NFC-A without SEL_RES: SENS_RES byte 1 without anticollision bits, or HR0/HR1 reported | none | ``TagKind/type1`` |
/// | NFC-V, UID `E0 …` | GET SYSTEM INFORMATION `2B` (1 frame; skipped when the frontend carries no ISO 15693 requests) | ``TagKind/type5(_:)`` |
/// | NFC-F | none | ``TagKind/unsupported(_:)`` |
///
/// GetVersion is sent ISO-wrapped, which every DESFire generation accepts and which a non-DESFire ISO-DEP card
/// refuses with a status word (so the card is left as it was). After a NAK (which mutes NXP Type 2 chips) or a
/// timeout the target is re-activated so the next command is answered.
package enum TagIdentifier {
    /// Walks ``TagFamilies/identificationOrder``: the first family that decides gives the kind.
    package static func identify(target: RFTarget, frontend: any RFFrontend) throws(TagError) -> IdentifiedTag {
        for family in TagFamilies.identificationOrder {
            if let identified = try family.identify(target, frontend) { return identified }
        }
        return IdentifiedTag(
            target: target, kind: .unsupported("no tag family recognises this \(target.technology.rawValue) target"))
    }

    /// GET_VERSION (`60`) on an NXP Type 2 chip (NTAG21x datasheet §10.1).
    static func identifyNXPType2(target: RFTarget, frontend: any RFFrontend) throws(TagError) -> IdentifiedTag {
        let answer: RFResponse
        do {
            answer = try frontend.exchange([0x60])
        } catch  where error.code == .timeout || error.code == .transmission {
            // Ultralight, Ultralight C and NTAG203 do not have GET_VERSION: they stay silent (and go IDLE).
            try reactivate(target, frontend: frontend, after: "GET_VERSION")
            return try identifyWithoutVersion(target: target, frontend: frontend)
        } catch {
            throw .rf(error, during: "GET_VERSION")
        }
        switch answer {
        case .frame(let v) where v.count == 8:
            return IdentifiedTag(target: target, kind: .type2(Type2Chip.fromVersion(v) ?? .generic), versionData: v)
        case .frame(let b) where b.count == 1 && b[0] & 0xFA == 0:
            // A NAK handed over as one byte by frontends that do not classify it.
            try reactivate(target, frontend: frontend, after: "GET_VERSION")
            return try identifyWithoutVersion(target: target, frontend: frontend)
        case .nak:
            // NTAG203 NAKs GET_VERSION; a NAK mutes the chip until it is re-activated.
            try reactivate(target, frontend: frontend, after: "GET_VERSION")
            return try identifyWithoutVersion(target: target, frontend: frontend)
        case .frame(let v):
            throw TagError(.invalidResponse, "GET_VERSION answered \(v.count) bytes (\(v.hexString)), expected 8")
        case .ack:
            throw TagError(.invalidResponse, "GET_VERSION answered ACK, expected 8 bytes")
        }
    }

    /// An NXP Type 2 chip without GET_VERSION: MIFARE Ultralight C answers AUTHENTICATE part 1 (`1A 00`) with `AF`
    /// and an 8-byte challenge (MF0ICU2 §9.5); Ultralight and NTAG203 stay silent or NAK. Either way the chip is
    /// re-activated afterwards, which drops the half-begun authentication.
    private static func identifyWithoutVersion(target: RFTarget, frontend: any RFFrontend) throws(TagError)
        -> IdentifiedTag
    {
        var isUltralightC = false
        do {
            if case .frame(let b) = try frontend.exchange([0x1A, 0x00]), b.count == 9, b[0] == 0xAF {
                isUltralightC = true
            }
        } catch  where error.code == .timeout || error.code == .transmission {
            // No AUTHENTICATE: a plain Ultralight or NTAG203.
        } catch {
            throw .rf(error, during: "AUTHENTICATE 1A 00")
        }
        try reactivate(target, frontend: frontend, after: "AUTHENTICATE 1A 00")
        return IdentifiedTag(target: target, kind: .type2(isUltralightC ? .ultralightC : .ultralight))
    }

    /// Whether `uid` is a random single-size UID: 4 bytes with UID0 = `08` (ISO/IEC 14443-3 §6.5.4, "random
    /// number"), or `80`, which DESFire EV1 cards with random ID show (docs/DIFFERENCES.md).
    package static func isRandomUID(_ uid: [UInt8]) -> Bool {
        uid.count == 4 && (uid[0] == 0x08 || uid[0] == 0x80)
    }

    /// DESFire GetVersion, ISO-wrapped (`90 60 00 00 00`, then `90 AF 00 00 00` while the card answers `91 AF`).
    /// `randomUID`: the target was probed only for its random UID (it may be any ISO-DEP card, a phone's card
    /// emulation among them), so a first answer that is no response APDU leaves it an ISO 7816 card instead of
    /// failing identification.
    static func identifyNXPISODEP(target: RFTarget, frontend: any RFFrontend, randomUID: Bool = false)
        throws(TagError) -> IdentifiedTag
    {
        let link = APDULink(frontend: frontend)
        let first: ResponseAPDU
        do {
            first = try link.send([0x90, 0x60, 0x00, 0x00, 0x00], name: "DESFire GetVersion")
        } catch  where randomUID && error.code == .invalidResponse {
            return IdentifiedTag(target: target, kind: .iso7816)
        }
        guard first.sw == 0x91AF, first.data.count == 7 else { return IdentifiedTag(target: target, kind: .iso7816) }
        if let product = TagFamilies.getVersionProducts.first(where: { $0.claims(first.data) }) {
            return try product.identify(target, frontend, first.data)
        }
        let second = try link.send([0x90, 0xAF, 0x00, 0x00, 0x00], name: "DESFire GetVersion (software part)")
        guard second.sw == 0x91AF, second.data.count == 7 else {
            throw TagError(
                .invalidResponse, "DESFire GetVersion software part: \(second.data.count) bytes, SW \(second.sw)",
                statusWord: second.sw)
        }
        let third = try link.send([0x90, 0xAF, 0x00, 0x00, 0x00], name: "DESFire GetVersion (production part)")
        guard third.sw == 0x9100, third.data.count == 14,
            let version = DESFireVersion(hardware: first.data, software: second.data, production: third.data)
        else {
            throw TagError(
                .invalidResponse, "DESFire GetVersion production part: \(third.data.count) bytes, SW \(third.sw)",
                statusWord: third.sw)
        }
        let all = first.data + second.data + third.data
        guard version.isDESFire else { return IdentifiedTag(target: target, kind: .iso7816, versionData: all) }
        return IdentifiedTag(target: target, kind: .desfire(version), versionData: all)
    }

    private static func reactivate(_ target: RFTarget, frontend: any RFFrontend, after: String) throws(TagError) {
        do {
            _ = try frontend.activate(target)
        } catch {
            throw .rf(error, during: "re-activation after \(after)")
        }
    }
}
