import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// Type 5 identification: the UID's `E0` and manufacturer code, then one addressed GET SYSTEM INFORMATION
/// (ISO/IEC 15693-3 §10.4.12), from scripted answers (reader side only).
@Suite struct Type5IdentificationTests {
    static func target(_ uid: String) -> RFTarget { RFTarget(.nfcV(NFCVActivation(uid: h(uid), dsfid: 0))) }

    /// `22 2B UID(LSB first)`: high data rate + addressed.
    @Test(arguments: [
        // ICODE SLIX: 28 blocks of 4, IC reference 01 (the NXP trace of reference GET SYSTEM INFORMATION answers).
        ("E0 04 01 00 11 22 33 44", "00 0F 44 33 22 11 00 01 04 E0 00 00 1B 03 01", "icode-slix", 28),
        // ICODE SLIX2: 80 blocks of 4, DSFID 01, AFI 3D.
        ("E0 04 01 00 11 22 33 44", "00 0F 44 33 22 11 00 01 04 E0 01 3D 4F 03 01", "icode-slix2", 80),
        ("E0 02 24 00 11 22 33 44", "00 0F 44 33 22 11 00 24 02 E0 00 00 7F 03 24", "st25dv04k", 128),
        ("E0 07 80 00 11 22 33 44", "00 04 44 33 22 11 00 80 07 E0 3F 03", "tagit-hfi-plus", 64),
        ("E0 16 01 00 11 22 33 44", "00 04 44 33 22 11 00 01 16 E0 07 03", "iso15693", 8),
    ])
    func getSystemInformationNamesTheChip(uid: String, answer: String, chip: String, blocks: Int) throws {
        let lsb = h(uid).reversed().map { $0 }
        let f = ScriptedFrontend(technologies: [.nfcV], [.send(([0x22, 0x2B] + lsb).hexString, answer)])
        let tag = try TagIdentifier.identify(target: Self.target(uid), frontend: f)
        #expect(tag.kind.description == chip)
        guard case .type5(let t5) = tag.kind else {
            Issue.record("not Type 5: \(tag.kind)")
            return
        }
        #expect(t5.systemInfo?.blockCount == blocks && t5.systemInfo?.blockSize == 4)
        #expect(t5.icManufacturerCode == h(uid)[1])
        #expect(f.isComplete)
    }

    @Test func aTagWithoutGetSystemInformationIsStillType5() throws {
        // TI Tag-it HF-I Standard has no GET SYSTEM INFORMATION: it stays silent. Another chip answers error 01.
        for reply in [ScriptedFrontend.Reply.fail(.timeout), .data(h("01 01"))] {
            let f = ScriptedFrontend(
                technologies: [.nfcV], [.init(command: h("22 2B 44 33 22 11 00 C0 07 E0"), reply: reply)])
            let tag = try TagIdentifier.identify(target: Self.target("E0 07 C0 00 11 22 33 44"), frontend: f)
            #expect(tag.kind == .type5(Type5Chip(uid: h("E0 07 C0 00 11 22 33 44"))))
            #expect(tag.kind.description == "tagit")
            #expect(f.isComplete)
        }
    }

    @Test func aFrontendWithoutISO15693RequestsSendsNothing() throws {
        let f = ScriptedFrontend(technologies: [.nfcA], [])
        let tag = try TagIdentifier.identify(target: Self.target("E0 04 01 08 11 22 33 44"), frontend: f)
        // UID bits 36–35 = 01: an ICODE SLIX2 without the system information.
        #expect(tag.kind.description == "icode-slix2")
        #expect(f.isComplete)
    }

    @Test func aUIDWithoutE0IsNotType5() throws {
        let f = ScriptedFrontend(technologies: [.nfcV], [])
        let tag = try TagIdentifier.identify(target: Self.target("04 E0 01 00 11 22 33 44"), frontend: f)
        guard case .unsupported(let why) = tag.kind else {
            Issue.record("expected unsupported, got \(tag.kind)")
            return
        }
        #expect(why.contains("does not start with E0"))
    }

    @Test func aCutSystemInformationSaysWhere() throws {
        let f = ScriptedFrontend(
            technologies: [.nfcV], [.send("22 2B 44 33 22 11 00 01 04 E0", "00 0F 44 33 22 11 00 01 04 E0 00 00 1B")])
        #expect {
            try TagIdentifier.identify(target: Self.target("E0 04 01 00 11 22 33 44"), frontend: f)
        } throws: { error in
            guard let e = error as? TagError else { return false }
            return e.code == .invalidResponse && e.reason.contains("memory size") && e.reason.contains("byte 11")
        }
    }
}
