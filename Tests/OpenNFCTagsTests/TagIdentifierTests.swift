import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

@Suite struct TagIdentifierTests {
    @Test(arguments: [
        ("00 04 04 02 01 00 0F 03", "ntag213"),
        ("00 04 04 02 01 00 11 03", "ntag215"),
        ("00 04 04 02 01 00 13 03", "ntag216"),
        ("00 04 04 01 01 00 0B 03", "ntag210"),
        ("00 04 03 01 01 00 0B 03", "mifare-ultralight-ev1-mf0ul11"),
        ("00 04 03 02 01 00 0E 03", "mifare-ultralight-ev1-mf0ul21"),
        ("00 04 04 05 02 01 13 03", "type2"),  // NTAG I2C 1k: answers, but not in the table
    ])
    func getVersionNamesTheChip(version: String, chip: String) throws {
        let f = ScriptedFrontend([
            .send("60", version)  // GET_VERSION
        ])
        let tag = try TagIdentifier.identify(target: ntagTarget, frontend: f)
        #expect(tag.kind.description == chip)
        #expect(tag.versionData == h(version))
        #expect(f.isComplete)
    }

    @Test func nakToGetVersionMeansUltralightFamilyAndReactivates() throws {
        let f = ScriptedFrontend([
            .send("60", .nak(0)),  // GET_VERSION (NTAG203 NAKs it)
            .activate,  // the NAK muted the chip
            .send("1A 00", .fail(.timeout)),  // AUTHENTICATE: not an Ultralight C
            .activate,
        ])
        let tag = try TagIdentifier.identify(target: ntagTarget, frontend: f)
        #expect(tag.kind == .type2(.ultralight))
        #expect(f.isComplete)
    }

    @Test func silenceToGetVersionMeansUltralightFamilyAndReactivates() throws {
        let f = ScriptedFrontend([
            .send("60", .fail(.timeout)),  // GET_VERSION (plain Ultralight has none)
            .activate,  // the erroneous frame sent the chip to IDLE
            .send("1A 00", .fail(.timeout)),  // AUTHENTICATE: not an Ultralight C
            .activate,
        ])
        #expect(try TagIdentifier.identify(target: ntagTarget, frontend: f).kind == .type2(.ultralight))
        #expect(f.isComplete)
    }

    @Test func challengeToAuthenticateMeansUltralightC() throws {
        let f = ScriptedFrontend([
            .send("60", .fail(.timeout)),  // GET_VERSION: MF0ICU2 has none
            .activate,
            .send("1A 00", "AF 01 02 03 04 05 06 07 08"),  // AUTHENTICATE part 1: ek(RndB) (MF0ICU2 §9.5)
            .activate,  // drops the half-begun authentication
        ])
        let tag = try TagIdentifier.identify(target: ntagTarget, frontend: f)
        #expect(tag.kind == .type2(.ultralightC))
        #expect(tag.kind.description == "mifare-ultralight-c")
        #expect(f.isComplete)
    }

    @Test func linkLostDuringGetVersionIsAnRFError() {
        let f = ScriptedFrontend([
            .send("60", .fail(.linkLost))  // GET_VERSION
        ])
        #expect { try TagIdentifier.identify(target: ntagTarget, frontend: f) } throws: { e in
            (e as? TagError)?.code == .rf && (e as? TagError)?.rfError?.code == .linkLost
        }
    }

    @Test func malformedGetVersionIsAnInvalidResponse() {
        let f = ScriptedFrontend([
            .send("60", "00 04 04 02")  // GET_VERSION, cut short
        ])
        #expect { try TagIdentifier.identify(target: ntagTarget, frontend: f) } throws: { e in
            (e as? TagError)?.code == .invalidResponse
        }
        #expect(f.isComplete)
    }

    @Test func nonNXPType2AndClassicNeedNoFrame() throws {
        let f = ScriptedFrontend([])
        let other = RFTarget.nfcA(uid: h("05 01 02 03 04 05 06"), sensRes: 0x0044, selRes: 0)
        #expect(try TagIdentifier.identify(target: other, frontend: f).kind == .type2(.generic))
        let classic = RFTarget.nfcA(uid: h("01 02 03 04"), sensRes: 0x0004, selRes: 0x08)
        #expect(try TagIdentifier.identify(target: classic, frontend: f).kind == .mifareClassic)
        let typeB = RFTarget(.identifierOnly(.nfcB, h("01 02 03 04")))
        #expect(try TagIdentifier.identify(target: typeB, frontend: f).kind == .iso7816)
        #expect(f.position == 0)
    }

    @Test func withoutRawFramesNoGetVersionIsSent() throws {
        let f = ScriptedFrontend(rawFrames: false, [])
        #expect(try TagIdentifier.identify(target: ntagTarget, frontend: f).kind == .type2(.generic))
    }

    /// DESFire EV1 4K GetVersion, from a public DESFire trace (layout: NXP MF3ICD81 §9, GetVersion).
    @Test func desfireGetVersionNamesTheGeneration() throws {
        let target = RFTarget.nfcA(
            uid: h("04 1F 5B 92 DA 2C 80"), sensRes: 0x0344, selRes: 0x20,
            ats: h("06 75 77 81 02 80"))
        let f = ScriptedFrontend([
            .send("90 60 00 00 00", "04 01 01 01 00 18 05 91 AF"),  // GetVersion: hardware
            .send("90 AF 00 00 00", "04 01 01 01 04 18 05 91 AF"),  // additional frame: software
            .send("90 AF 00 00 00", "04 1F 5B 92 DA 2C 80 BA 34 98 BA D0 29 12 91 00"),  // production
        ])
        let tag = try TagIdentifier.identify(target: target, frontend: f)
        guard case .desfire(let v) = tag.kind else {
            Issue.record("expected DESFire, got \(tag.kind)")
            return
        }
        #expect(v.generation == .ev1)
        #expect(v.storageSize == 4096)
        #expect(v.uid == h("04 1F 5B 92 DA 2C 80"))
        #expect(tag.historicalBytes == [0x80])
        #expect(f.isComplete)
    }

    @Test func otherISODEPCardRefusingGetVersionIsISO7816() throws {
        let target = RFTarget.nfcA(
            uid: h("04 01 02 03 04 05 06"), selRes: 0x20, ats: h("05 78 80 70 02"))
        let f = ScriptedFrontend([
            .send("90 60 00 00 00", "6E 00")  // GetVersion: class not supported
        ])
        #expect(try TagIdentifier.identify(target: target, frontend: f).kind == .iso7816)
        #expect(f.isComplete)
    }

    /// A DESFire EV1 with random ID: a single-size UID with UID0 = 08h (ISO/IEC 14443-3 §6.5.4), ATQA single size;
    /// GetVersion's production part shows zeros for the UID (NXP MF3ICD81, SetConfiguration random ID).
    @Test(arguments: ["08 3A 91 C4", "80 5B 02 7E"])
    func randomUIDDESFireAnswersGetVersionAndIsADESFire(uid: String) throws {
        let target = RFTarget.nfcA(uid: h(uid), sensRes: 0x0304, selRes: 0x20, ats: h("06 75 77 81 02 80"))
        let f = ScriptedFrontend([
            .send("90 60 00 00 00", "04 01 01 01 00 18 05 91 AF"),  // GetVersion: hardware
            .send("90 AF 00 00 00", "04 01 01 01 04 18 05 91 AF"),  // software
            .send("90 AF 00 00 00", "00 00 00 00 00 00 00 BA 34 98 BA D0 29 12 91 00"),  // production, UID hidden
        ])
        let tag = try TagIdentifier.identify(target: target, frontend: f)
        guard case .desfire(let v) = tag.kind else {
            Issue.record("expected DESFire, got \(tag.kind)")
            return
        }
        #expect(v.generation == .ev1)
        #expect(v.uid == [UInt8](repeating: 0, count: 7))
        #expect(tag.target.identifier == h(uid))
        #expect(f.isComplete)
    }

    /// A random-UID ISO-DEP card that is no DESFire (a phone's card emulation, a passport) refuses the wrapped
    /// GetVersion in one frame and stays an ISO 7816 card, as does one whose answer has no status word.
    @Test(arguments: ["6D 00", "6E 00", "90"])
    func randomUIDCardRefusingGetVersionIsISO7816(answer: String) throws {
        let target = RFTarget.nfcA(uid: h("08 51 52 53"), sensRes: 0x0004, selRes: 0x20, ats: h("05 78 80 70 02"))
        let f = ScriptedFrontend([
            .send("90 60 00 00 00", answer)  // GetVersion: instruction or class not supported
        ])
        #expect(try TagIdentifier.identify(target: target, frontend: f).kind == .iso7816)
        #expect(f.isComplete)
    }

    /// Only a single-size UID with UID0 08h (or 80h) is random: a 7-byte UID starting 08 and another 4-byte UID get
    /// no GetVersion.
    @Test(arguments: ["08 01 02 03 04 05 06", "12 34 56 78"])
    func otherNonNXPISODEPCardsGetNoGetVersion(uid: String) throws {
        let target = RFTarget.nfcA(uid: h(uid), selRes: 0x20, ats: h("05 78 80 70 02"))
        let f = ScriptedFrontend([])
        #expect(try TagIdentifier.identify(target: target, frontend: f).kind == .iso7816)
    }
}
