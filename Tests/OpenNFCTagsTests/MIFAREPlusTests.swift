import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// Reader side of MIFARE Plus against a real card's bytes: the public Proxmark3 trace
/// `traces/hf_mfp_read_sc0_sl3.trace` (RfidResearchGroup/proxmark3; a MIFARE Plus 2K in SL3, UID 04 50 5D 1A B7 68
/// 80, key 4000 = the MAD key, RndA 00 01 … 0F), replayed natively: the session must send exactly what the
/// Proxmark sent and accept exactly what the card answered.
@Suite struct MIFAREPlusReaderTests {
    static let madKey = h("A0A1A2A3A4A5A6A7A0A1A2A3A4A5A6A7")

    static let traceAuthentication: [ScriptedFrontend.Step] = [
        .send("70 0040 00", "90 538A666C8751AEFE5FADFC7EEB12C3E1"),
        .send(
            "72 B6AD00EDEFEF0774DECDBF256124E518 E1BC30164191393EAFB531E18E880F84",
            "90 6616A9B094AAFBA889E480F78B2A5335 8151A80B12B963EB3549271FFE754EBC"),
    ]

    @Test func publishedTraceAuthenticatesAndReads() throws {
        let f = ScriptedFrontend(
            Self.traceAuthentication + [
                .send("33 0000 01 2BFACDE398A04CD5", "90 04505D1AB76880084400020111000220 365C09B811A8D749"),
                .send("33 0100 01 D9FE3B1D38D4C3D1", "90 3000563D563C563C563C563C563C0000 E2DD057BDFEA345E"),
                .send("33 0200 01 FCD5C4A4C9C667A2", "90 00000000000000000000000000000000 AE8F77FC7FC4A96C"),
                .send("33 0300 01 1A9CADB3BBB1A989", "90 00000000000F0F078FC1000000000000 C2CA7AB86ADA6CDA"),
            ])
        var s = MIFAREPlusSession(
            link: MIFAREPlusLink(frontend: f, framing: .native), random: FixedRandomSource((0..<16).map { UInt8($0) }))
        try s.authenticate(0x4000, key: Self.madKey)
        #expect(s.keys?.ti == h("3FD7F78A"))
        #expect(s.keys?.kEnc == h("2DD05E6C1644663D03547C4197785604"))
        #expect(s.keys?.kMac == h("E3FB0CD3B4F6396F8C02563C36FA6A97"))
        #expect(try s.read(0) == h("04505D1AB76880084400020111000220"))
        #expect(try s.read(1) == h("3000563D563C563C563C563C563C0000"))
        #expect(try s.read(2) == [UInt8](repeating: 0, count: 16))
        #expect(try s.read(3) == h("00000000000F0F078FC1000000000000"))
        #expect(s.keys?.readCounter == 4)
        #expect(f.isComplete)
    }

    @Test func wrongMACOnTheAnswerIsAnInvalidResponse() throws {
        let f = ScriptedFrontend(
            Self.traceAuthentication + [
                .send("33 0000 01 2BFACDE398A04CD5", "90 04505D1AB76880084400020111000220 365C09B811A8D748")
            ])
        var s = MIFAREPlusSession(
            link: MIFAREPlusLink(frontend: f, framing: .native), random: FixedRandomSource((0..<16).map { UInt8($0) }))
        try s.authenticate(0x4000, key: Self.madKey)
        #expect(throws: TagError.self) { try s.read(0) }
    }

    @Test func refusalsNameTheStatus() throws {
        let f = ScriptedFrontend([.send("90 70 00 00 03 00 40 00 00", "91 06")])
        var s = MIFAREPlusSession(link: MIFAREPlusLink(frontend: f))
        do {
            try s.authenticate(0x4000, key: Self.madKey)
            Issue.record("authentication succeeded")
        } catch {
            #expect(error.code == .commandRejected)
            #expect(error.reason.contains("06") && error.reason.contains("authentication error"))
        }
    }

    @Test func keyFilesAreOneAESKeyALine() throws {
        let keys = try MIFAREPlusMemory.parseKeys(
            "# transit\nA0A1A2A3A4A5A6A7A0A1A2A3A4A5A6A7\n\n  FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF  # factory\n",
            file: "k.txt")
        #expect(keys == [Self.madKey, [UInt8](repeating: 0xFF, count: 16)])
        do {
            _ = try MIFAREPlusMemory.parseKeys("FFFFFFFFFFFF\n", file: "k.txt")
            Issue.record("a 6-byte key accepted")
        } catch {
            #expect(error.reason.contains("k.txt, line 1"))
        }
    }
}
