/// A virtual NFC Forum Type 4 Tag: an ISO-DEP (ISO/IEC 14443-4) card with the NDEF Tag Application of NFC Forum
/// T4T (mapping version 2.0, 1.0 or 3.0) and any number of ISO 7816 applets an app developer adds.
///
/// It receives the INF field of each ISO-DEP I-block — one command APDU — and answers with data and SW1 SW2; block
/// framing, chaining, WTX and CID are the field's job. Everything ISO 7816-4 is the shared ``ISO7816Engine``
/// (the DESFire NDEF mapping uses the same one).
///
/// | Feature | Supported | Notes |
/// |---|---|---|
/// | Activation | ATQA `0344`, SAK `20`, ATS `06 77 77 71 02 80` | ATS: FSCI 7 (FSC 128), TA `77` (106–848 kbit/s both ways), FWI 7, SFGI 1, CID supported, historical byte `80`; all settable |
/// | NDEF application | DF name `D2760000850101` (v2.0) and `…0100` (v1.0), with the 1.0 forms (no Le; SELECT by file identifier P2 `00`); only the name of its mapping version when ``Type4Configuration/answersBothNDEFNames`` is off | SELECT answers `90 00` without FCI, as T4T §5.4.2 expects |
/// | CC file `E103` | 15 bytes, read-only by default | writable with ``Type4Configuration/ccWriteAccess`` `00`; written access bytes then govern the NDEF file |
/// | NDEF file | any id, 5…65534 bytes with NLEN, access bytes `00` / `80`–`FE` / `FF` | proprietary values deny access (`69 82`) |
/// | Mapping 3.0 | CC of 17 bytes with the ENDEF File Control TLV `06 08` (4-byte maximum size); the file holds a 4-byte ENLEN and may be up to 16 MiB | offsets past `7FFF` only through the odd-INS `B1`/`D7` (3-byte offset data object), as T4T §5.4 has readers do |
/// | SELECT | P1 `00` `01` `02` `03` `04` `08` `09`; P2 `00` `04` (FCP) `0C`; partial DF names | see ``ISO7816Engine`` |
/// | READ / UPDATE BINARY | even INS (offsets up to `7FFF`, SFI form) and odd INS `B1`/`D7` (offset data object, the whole file), MLe/MLc enforced, short and (configured) extended APDUs | — |
/// | Tearing | UPDATE BINARY commits exactly the first `tearAfter` data bytes | other commands change nothing |
/// | ISO 7816 applets | selected by (partial) AID, receive every later APDU | ``ISO7816Applet`` |
/// | PACE advertisement | with ``Type4Configuration/supportsPACE``: EF.CardAccess `011C` (SFI `1C`) in the MF, read-only | ICAO Doc 9303 Part 10 §3.11.2; the PACE protocol itself (MSE:Set AT, General Authenticate) is not run |
/// | Not emulated | GET RESPONSE, MANAGE CHANNEL, secure messaging, PIN/keys | `6D 00` / `68 8x` |
public final class Type4Tag: VirtualTag {
    /// `type4`, or `type4b` for a card on NFC-B (tag files keep a 4-byte PUPI for it).
    public var chip: String { activation.technology == .nfcB ? "type4b" : "type4" }
    public var activation: VirtualActivation
    /// The configuration the card was built with (the NDEF file access may since have changed: ``ndefAccess``).
    public let configuration: Type4Configuration

    var volume: ISO7816Volume
    var engine: ISO7816Engine

    /// The default ISO-DEP activation of a virtual Type 4 card with this UID.
    package static func defaultActivation(uid: [UInt8]) -> VirtualActivation {
        VirtualActivation(
            uid: uid, sensRes: uid.count == 4 ? 0x0304 : 0x0344, selRes: 0x20,
            ats: [0x06, 0x77, 0x77, 0x71, 0x02, 0x80])
    }

    /// A Type 4 card whose NDEF file holds exactly `ndefFile` (NLEN included; empty: a zeroed file, NLEN 0),
    /// hosting `applets` after the NDEF application.
    ///
    /// - Throws: ``ISODEPCardError`` when the configuration is invalid, the UID is not 4, 7 or 10 bytes, or
    ///   `ndefFile` is not empty and not exactly the configured NDEF file size.
    public init(
        uid: [UInt8], configuration: Type4Configuration = Type4Configuration(), ndefFile: [UInt8] = [],
        applets: [any ISO7816Applet] = []
    ) throws(ISODEPCardError) {
        try configuration.validate()
        guard [4, 7, 10].contains(uid.count) else {
            throw ISODEPCardError(.invalidConfiguration, "UID of \(uid.count) bytes: ISO 14443-3 UIDs have 4, 7 or 10")
        }
        guard ndefFile.isEmpty || ndefFile.count == configuration.ndefFileSize else {
            throw ISODEPCardError(
                .invalidContents,
                "NDEF file of \(ndefFile.count) bytes does not match the configured size \(configuration.ndefFileSize)")
        }
        for applet in applets where !(1...16).contains(applet.aid.count) {
            throw ISODEPCardError(.invalidConfiguration, "applet AID of \(applet.aid.count) bytes: must be 1…16")
        }
        self.configuration = configuration
        self.activation = Self.defaultActivation(uid: uid)
        var entries: [ISO7816Volume.Entry] = []
        if configuration.hostsNDEFApplication {
            let ndef = ISO7816ElementaryFile(
                fileID: configuration.ndefFileID,
                contents: ndefFile.isEmpty ? Array(repeating: 0, count: configuration.ndefFileSize) : ndefFile,
                readAccess: configuration.readAccess, writeAccess: configuration.writeAccess)
            let cc = ISO7816ElementaryFile(
                fileID: Type4Configuration.ccFileID, contents: Self.capabilityContainer(configuration),
                readAccess: 0x00, writeAccess: configuration.ccWriteAccess)
            entries.append(.files(ISO7816Application(name: configuration.ndefApplicationName, files: [cc, ndef])))
            if configuration.answersBothNDEFNames {
                let other =
                    configuration.mappingVersion >> 4 == 1
                    ? Type4Configuration.ndefApplicationNameV2 : Type4Configuration.ndefApplicationNameV1
                entries.append(.alias(name: other, of: 0))
            }
        }
        entries += applets.map { .applet($0) }
        self.volume = ISO7816Volume(entries: entries)
        if configuration.supportsPACE {
            volume.masterFiles = [
                ISO7816ElementaryFile(
                    fileID: Type4Configuration.cardAccessFileID, contents: Type4Configuration.paceCardAccess,
                    readAccess: 0x00, writeAccess: 0xFF, shortID: 0x1C)
            ]
        }
        let limits = ISO7816Engine.Limits(
            mle: configuration.mle, mlc: configuration.mlc, extendedLength: configuration.extendedLength)
        self.engine = ISO7816Engine(limits: limits)
    }

    public func reset() {
        engine.reset(in: volume)
    }

    /// Answers one command APDU (the INF of an ISO-DEP I-block) with response data and SW1 SW2; with `tearAfter`
    /// the card leaves the field part way and answers nothing (``VirtualAnswer/silence``).
    public func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        let outcome = engine.process(frame, in: &volume, tearAfter: tearAfter)
        if let written = outcome.written { capabilityContainerWritten(written) }
        guard let response = outcome.response else { return .silence }
        return .data(response.encoded)
    }
}
