package import OpenNFCTags

/// The kind of reading a delivery decision is for: the columns of ``DeliveryPolicy``.
package enum DeliveryReading: String, Sendable, Hashable, CaseIterable {
    /// `NFCNDEFReaderSession` (read-only or read-write mode: the same tags; read-only mode reads their message).
    case ndef
    /// `NFCTagReaderSession` polling with its polling options (without `.pace`).
    case tag
    /// `NFCTagReaderSession` polling `.pace` only (iOS 16).
    case pace
    /// Background tag reading: no session runs (Apple, "Adding Support for Background Tag Reading").
    case background
}

/// What the app's Info.plist declares that a delivery decision depends on (docs/PARITY.md §7.3).
package struct DeliveryDeclarations: Sendable, Hashable {
    /// At least one valid `com.apple.developer.nfc.readersession.iso7816.select-identifiers` entry.
    package var hasSelectIdentifiers: Bool
    /// The `desktop` device profile, which delivers ISO 7816 cards without any declared AID.
    package var desktop: Bool

    package init(hasSelectIdentifiers: Bool, desktop: Bool) {
        self.hasSelectIdentifiers = hasSelectIdentifiers
        self.desktop = desktop
    }
}

/// What the app receives for one identified tag, or why nothing.
package enum Delivery: Sendable, Hashable {
    /// The session is handed the tag as this kind.
    case deliver(DeliveredTag.Kind)
    /// The declared AIDs are tried in order with SELECT; the first that answers `90 00` makes an `NFCISO7816Tag`
    /// with that `initialSelectedAID`. When none selects the session is handed `otherwise`, or nothing.
    case selectDeclaredAID(otherwise: DeliveredTag.Kind?)
    /// An ISO 7816 card whose EF.CardAccess lists PACE is handed over without a SELECT (`initialSelectedAID` "",
    /// `supportsPACE` true); any other is not.
    case deliverIfPACE
    /// Background reading reads the tag's NDEF message (never writes) and shows its notification.
    case readNDEF
    /// Nothing is delivered, for this reason.
    case nothing(String)
    /// The session ends with `readerErrorSecurityViolation` (2), for this reason.
    case endSession(String)
}

/// The delivery-policy table: tag family × kind of reading × Info.plist → what the app receives (Apple's Core NFC
/// documentation; docs/PARITY.md §3.2, §4.3, §7.3; docs/DIFFERENCES.md "Type 1 tags", "Type 5 tags"). One row per
/// family; discovery and background reading ask it and do what it says, nothing else decides.
///
/// | Family | NDEF session | Tag session | PACE polling | Background |
/// |---|---|---|---|---|
/// | Type 1 (Topaz) | `NFCNDEFTag` | nothing (no `NFCTag` case) | nothing | read NDEF |
/// | Type 2 (NTAG, Ultralight) | `NFCMiFareTag` `.ultralight` | `NFCMiFareTag` `.ultralight` | nothing | read NDEF |
/// | Type 5 (ISO 15693) | `NFCISO15693Tag` | `NFCISO15693Tag` | nothing | read NDEF |
/// | Type 3 (FeliCa) | `NFCNDEFTag` | `NFCFeliCaTag` on the first declared system code that answers (before the table) | nothing | read NDEF |
/// | DESFire | `NFCISO7816Tag` (NDEF application) | first declared AID that selects, else `NFCMiFareTag` `.desfire` | if PACE | read NDEF |
/// | ISO 7816 | `NFCISO7816Tag` (NDEF application) | first declared AID that selects, else nothing; no AID declared: the session ends with 2 | if PACE | read NDEF |
/// | MIFARE Classic (and MIFARE Plus in SL1) | nothing (no NDEF) | `NFCMiFareTag` `.unknown` | nothing | nothing (never read) |
/// | MIFARE Plus (SL0, SL3) | nothing (no NDEF) | `NFCMiFareTag` `.plus` | nothing | nothing |
/// | unsupported | nothing | nothing | nothing | nothing |
///
/// Info.plist column: a tag session's ISO 7816 and DESFire cells depend on the declared AIDs — none declared and the
/// `desktop` profile: `NFCISO7816Tag` with `initialSelectedAID` ""; none declared on an iPhone: the DESFire's
/// fallback, or the end of the session for another ISO 7816 card.
package enum DeliveryPolicy {
    /// One row of the table: what each kind of reading does with a family.
    package struct Row: Sendable, Hashable {
        package var ndef: Delivery
        package var tag: Delivery
        package var pace: Delivery
        package var background: Delivery

        package subscript(_ reading: DeliveryReading) -> Delivery {
            switch reading {
            case .ndef: return ndef
            case .tag: return tag
            case .pace: return pace
            case .background: return background
            }
        }
    }

    static let notISO7816 = Delivery.nothing("PACE polling delivers ISO 7816 cards that advertise PACE")

    /// The row of a family (the one switch over ``TagKind`` (the reader procedures' own vocabulary) that decides delivery).
    package static func row(_ family: TagKind) -> Row {
        switch family {
        case .type1:
            return Row(
                ndef: .deliver(.ndefOnly), tag: .nothing("a tag reader session has no NFCTag for Type 1"),
                pace: notISO7816, background: .readNDEF)
        case .type2:
            return Row(
                ndef: .deliver(.miFare(.ultralight)), tag: .deliver(.miFare(.ultralight)), pace: notISO7816,
                background: .readNDEF)
        case .type5:
            return Row(
                ndef: .deliver(.iso15693), tag: .deliver(.iso15693), pace: notISO7816, background: .readNDEF)
        case .type3:
            // A tag session's FeliCa card is selected by its declared system codes before this table is asked
            // (NFCSystem+FeliCa.swift); the cell says so for any other caller.
            return Row(
                ndef: .deliver(.ndefOnly), tag: .nothing("FeliCa cards are delivered by system-code selection"),
                pace: notISO7816, background: .readNDEF)
        case .desfire:
            return Row(
                ndef: .deliver(.iso7816(initialSelectedAID: ndefApplication)),
                tag: .selectDeclaredAID(otherwise: .miFare(.desfire)), pace: .deliverIfPACE, background: .readNDEF)
        case .iso7816:
            return Row(
                ndef: .deliver(.iso7816(initialSelectedAID: ndefApplication)),
                tag: .selectDeclaredAID(otherwise: nil), pace: .deliverIfPACE, background: .readNDEF)
        case .mifarePlus:
            // Core NFC names `.plus` (NFCMiFareFamily); which levels iOS delivers is not documented: SL0/SL3 are
            // ISO-DEP and delivered as NFCMiFareTag `.plus` here (docs/DIFFERENCES.md "MIFARE Plus").
            return Row(
                ndef: .nothing("Core NFC reads no NDEF from MIFARE Plus"), tag: .deliver(.miFare(.plus)),
                pace: notISO7816, background: .nothing("MIFARE Plus has no NFC Forum NDEF mapping"))
        case .mifareClassic:
            return Row(
                ndef: .nothing("Core NFC reads no NDEF from MIFARE Classic"), tag: .deliver(.miFare(.unknown)),
                pace: notISO7816, background: .nothing("MIFARE Classic, never read"))
        case .unsupported(let why):
            let no = Delivery.nothing("not deliverable: \(why)")
            return Row(ndef: no, tag: no, pace: no, background: no)
        }
    }

    /// The NFC Forum Type 4 NDEF application (NFC Forum T4T 2.0 §5.1.2), which an NDEF session selects.
    static let ndefApplication = "D2760000850101"

    /// The decision for a family, a kind of reading and the app's declarations: the row's cell, with the
    /// Info.plist column applied.
    package static func decide(
        _ family: TagKind, _ reading: DeliveryReading, _ declarations: DeliveryDeclarations
    ) -> Delivery {
        let cell = row(family)[reading]
        guard case .selectDeclaredAID(let otherwise) = cell, !declarations.hasSelectIdentifiers else { return cell }
        if declarations.desktop { return .deliver(.iso7816(initialSelectedAID: "")) }
        if let otherwise { return .deliver(otherwise) }
        return .endSession("no valid \(AppConfiguration.selectIdentifiersKey) entry in Info.plist")
    }
}
