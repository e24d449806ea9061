internal import OpenNFCBytes
package import OpenNFCRF

/// One tag family as identification sees it: a name, and a test that either decides the target's kind (possibly
/// exchanging frames, such as GET_VERSION) or passes (nil) to the next family.
package struct TagFamilyIdentification: Sendable {
    /// The family, for messages and docs (`desfire`, `type4`, `type2`, …).
    package var name: String
    /// The kind of `target` when it belongs to this family; nil to let the next family look.
    package var identify: @Sendable (_ target: RFTarget, _ frontend: any RFFrontend) throws(TagError) -> IdentifiedTag?

    package init(
        name: String,
        identify:
            @escaping @Sendable (_ target: RFTarget, _ frontend: any RFFrontend) throws(TagError) -> IdentifiedTag?
    ) {
        self.name = name
        self.identify = identify
    }
}

/// The families identification walks, in order; the first that decides wins (docs/ADDING-A-TAG-FAMILY.md).
///
/// | Order | Family | Decides when |
/// |---|---|---|
/// | 1 | `type3` | the target is NFC-F: a Type 3 tag, unless its IDm starts `01 FE` (an NFC-DEP device, NFC Forum Digital §6.6.2) |
/// | 2 | `type5` | the target is NFC-V: UID `E0 …` and Get System Information (1 frame) name the chip (``Type5Chip``) |
/// | 3 | `desfire` | NFC-A ISO-DEP with an NXP UID, a random 4-byte UID (`08…`, ISO/IEC 14443-3 §6.5.4; `80…`, docs/DIFFERENCES.md) or a 4-byte NUID (`xF…`, §6.5.4): DESFire GetVersion (1–3 frames) says DESFire, MIFARE Plus (hardware type `02`: SL0/SL3; `MIFAREPlus/MIFAREPlusVersion.swift`), or leaves an ISO 7816 card |
/// | 4 | `type4` | any other ISO-DEP target (NFC-A with an ATS or SAK bit 0x20, every NFC-B card) |
/// | 5 | `type1` | NFC-A without SEL_RES, with HR0/HR1 or SENS_RES bits 4–0 zero (ISO/IEC 14443-3 §6.4.2, Topaz) |
/// | 6 | `mifare-classic` | SAK `08` `09` `18` `88` `10` `11` `28` `38` (NXP AN10833) |
/// | 7 | `type2` | everything else on NFC-A: SAK `00` (GET_VERSION for NXP chips), or no SAK at all |
///
/// DESFire comes before Type 4 because a DESFire is also an ISO-DEP card; MIFARE Classic before Type 2 because both
/// are NFC-A level-3 targets told apart by SAK.
package enum TagFamilies {
    package static let identificationOrder: [TagFamilyIdentification] = [
        .type3,
        .type5,
        .desfire,
        .type4,
        .type1,
        .mifareClassic,
        .type2,
    ]

    /// The NXP ISO-DEP products that answer the `desfire` entry's GetVersion probe but are not DESFire: the first
    /// answer's hardware part (vendor, type) hands identification to the product, which asks what else it needs
    /// (docs/ADDING-A-TAG-FAMILY.md, "Found adding MIFARE Plus").
    package static let getVersionProducts: [GetVersionProduct] = [
        .mifarePlus
    ]

    /// The families' `--trace` describers (`<Family>/<Family>Trace.swift`), one line per family; each says which
    /// frame modes it names (``FrameDescriber/frameModes``). Families sharing a mode are asked in this order and the
    /// first name wins: Type 1 before Type 2 on NFC-A (a Type 1 frame has a length no Type 2 command has); MIFARE Plus
    /// after Type 2 on NFC-A and before Type 4 and DESFire on ISO-DEP (it claims only the codes ISO/IEC 7816-4 and
    /// DESFire do not use); an APDU (Type 4) before a DESFire native command.
    package static let frameDescribers: [any FrameDescriber.Type] = [
        Type1Trace.self,
        Type2Trace.self,
        MIFAREPlusTrace.self,
        Type4Trace.self,
        DESFireTrace.self,
        Type3Trace.self,
        Type5Trace.self,
    ]
}

/// A product identified by the hardware part of NXP's GetVersion (vendor `04`, type byte; AN10833 §4) after the
/// `desfire` entry's first GetVersion frame.
package struct GetVersionProduct: Sendable {
    /// Whether the 7-byte hardware part names this product.
    package var claims: @Sendable (_ hardware: [UInt8]) -> Bool
    /// Finishes identification (the rest of GetVersion, or whatever the product needs) after that first frame.
    package var identify:
        @Sendable (_ target: RFTarget, _ frontend: any RFFrontend, _ hardware: [UInt8]) throws(TagError) ->
            IdentifiedTag

    package init(
        claims: @escaping @Sendable (_ hardware: [UInt8]) -> Bool,
        identify:
            @escaping @Sendable (_ target: RFTarget, _ frontend: any RFFrontend, _ hardware: [UInt8]) throws(TagError)
            -> IdentifiedTag
    ) {
        self.claims = claims
        self.identify = identify
    }
}

extension TagFamilyIdentification {
    /// A technology whose families have no procedures yet: its targets are ``TagKind/unsupported(_:)``.
    static func unsupportedTechnology(_ technology: RFTechnology, _ why: String) -> TagFamilyIdentification {
        TagFamilyIdentification(name: technology.rawValue) { target, _ in
            target.technology == technology ? IdentifiedTag(target: target, kind: .unsupported(why)) : nil
        }
    }

    /// NFC Forum Type 5 (ISO/IEC 15693): every NFC-V target with an `E0` UID (NFC Forum T5T 1.0 §4.1; ISO/IEC
    /// 15693-3 §7.1).
    static let type5 = TagFamilyIdentification(name: "type5") { (target, frontend) throws(TagError) in
        guard target.technology == .nfcV else { return nil }
        return try Type5Chip.identify(target: target, frontend: frontend)
    }

    /// NFC Forum Type 3: every NFC-F target but an NFC-DEP device (NFCID2 `01 FE …`, NFC Forum Digital §6.6.2);
    /// whether it holds NDEF is detection's question (Polling 12FC, T3T 1.0 §7.1).
    static let type3 = TagFamilyIdentification(name: "type3") { target, _ in
        guard target.technology == .nfcF else { return nil }
        guard target.identifier.prefix(2) != [0x01, 0xFE] else {
            return IdentifiedTag(
                target: target, kind: .unsupported("an NFC-DEP device (NFCID2 01 FE), not a Type 3 tag"))
        }
        return IdentifiedTag(target: target, kind: .type3)
    }

    /// MIFARE DESFire: ISO-DEP with an NXP UID, confirmed by GetVersion (NXP MF3ICD81 §9). A DESFire with random ID
    /// (SetConfiguration option `00` bit 1) shows a random single-size UID instead, UID0 = `08` (ISO/IEC 14443-3
    /// §6.5.4), or `80` on DESFire EV1 cards in the field (docs/DIFFERENCES.md): such a target gets the same
    /// GetVersion probe, and anything but a DESFire answer leaves it an ISO 7816 card.
    static let desfire = TagFamilyIdentification(name: "desfire") { (target, frontend) throws(TagError) in
        guard target.technology == .nfcA, target.isISODEP else { return nil }
        if target.identifier.first == 0x04 {
            return try TagIdentifier.identifyNXPISODEP(target: target, frontend: frontend)
        }
        // A 4-byte NUID (UID0 'xF', ISO/IEC 14443-3 §6.5.4: a fixed non-unique number), as MIFARE Plus NUID parts
        // carry, gets the same probe.
        let nuid = target.identifier.count == 4 && target.identifier[0] & 0x0F == 0x0F
        guard TagIdentifier.isRandomUID(target.identifier) || nuid else { return nil }
        return try TagIdentifier.identifyNXPISODEP(target: target, frontend: frontend, randomUID: true)
    }

    /// NFC Forum Type 4: any ISO-DEP target (NFC Forum T4T 2.0 §4).
    static let type4 = TagFamilyIdentification(name: "type4") { target, _ in
        target.isISODEP ? IdentifiedTag(target: target, kind: .iso7816) : nil
    }

    /// NFC Forum Type 1 (Topaz): NFC-A without SEL_RES, with HR0/HR1 from RID or SENS_RES bits 4–0 zero
    /// (ISO/IEC 14443-3 §6.4.2; NFC Forum T1T §5).
    static let type1 = TagFamilyIdentification(name: "type1") { target, _ in
        guard target.technology == .nfcA, target.selRes == nil,
            target.nfcA?.type1 != nil || target.sensRes.map({ $0 & 0x1F == 0 }) ?? false
        else { return nil }
        return IdentifiedTag(target: target, kind: .type1)
    }

    /// MIFARE Classic and Plus in SL1/SL2, by SAK (NXP AN10833 §3); a Plus in SL0/SL3 is ISO-DEP and answers
    /// GetVersion (the `desfire` entry).
    static let mifareClassic = TagFamilyIdentification(name: "mifare-classic") { target, _ in
        switch target.selRes {
        case 0x08, 0x09, 0x18, 0x88, 0x10, 0x11, 0x28, 0x38: return IdentifiedTag(target: target, kind: .mifareClassic)
        default: return nil
        }
    }

    /// NFC Forum Type 2: NFC-A, SAK `00` (or none); NXP chips by GET_VERSION (NTAG213/215/216 datasheet §10.1).
    static let type2 = TagFamilyIdentification(name: "type2") { (target, frontend) throws(TagError) in
        guard target.technology == .nfcA else { return nil }
        guard let sak = target.selRes else { return IdentifiedTag(target: target, kind: .type2(.generic)) }
        guard sak == 0x00 else {
            return IdentifiedTag(target: target, kind: .unsupported("SEL_RES \(Hex.encode([sak])) is not Type 2"))
        }
        guard target.identifier.first == 0x04, frontend.capabilities.rawFrames else {
            return IdentifiedTag(target: target, kind: .type2(.generic))
        }
        return try TagIdentifier.identifyNXPType2(target: target, frontend: frontend)
    }
}
