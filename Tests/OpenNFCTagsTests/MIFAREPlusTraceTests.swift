import OpenNFCBytes
import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// MIFARE Plus frames named for `--trace` and `opennfc send` (``MIFAREPlusTrace`` under ``FrameDescription``): every
/// command the link sends, native and ISO-wrapped, the status of the answers, and DESFire's names left as they were
/// where the two share a code.
@Suite struct MIFAREPlusTraceTests {
    static func command(_ hex: String, _ mode: RFFrameMode = .isoDEP) -> String? {
        FrameDescription.describe(command: h(hex), mode: mode)
    }

    static func answer(_ hex: String, to command: String, _ mode: RFFrameMode = .isoDEP) -> String? {
        FrameDescription.describe(response: .frame(h(hex)), to: h(command), mode: mode)
    }

    @Test func everyCommandOfTheLinkIsNamed() {
        let block = String(repeating: "00", count: 16)
        #expect(Self.command("70 0040 00") == "AuthenticateFirst key 4000")
        #expect(Self.command("76 0340") == "AuthenticateNonFirst key 4003")
        #expect(Self.command("72 " + block + block) == "AuthenticateContinue")
        #expect(Self.command("78") == "ResetAuth")
        #expect(Self.command("3C 00") == "Read_Sig")
        #expect(Self.command("AA") == "CommitPerso")
        #expect(Self.command("A8 0100 " + block + block) == "WritePerso block 1, 2 blocks")
        #expect(Self.command("A8 0090 " + block) == "WritePerso address 9000, 1 block")
        #expect(
            Self.command("33 0400 01 2BFACDE398A04CD5")
                == "Read block 4, 1 block (plain, command MACed, answer MACed)")
        #expect(Self.command("36 0800 03") == "Read block 8, 3 blocks (plain)")
        #expect(
            Self.command("31 0400 01 2BFACDE398A04CD5")
                == "Read block 4, 1 block (encrypted, command MACed, answer MACed)")
        #expect(
            Self.command("A1 0400 " + block + "2BFACDE398A04CD5")
                == "Write block 4 (encrypted, command MACed, answer MACed)")
        #expect(Self.command("A2 0700 " + block + "2BFACDE398A04CD5") == "Write block 7 (plain, command MACed)")
        #expect(
            Self.command("90 70 00 00 03 004000 00") == "AuthenticateFirst key 4000 (ISO-wrapped)")
        #expect(Self.command("90 78 00 00 00") == "ResetAuth (ISO-wrapped)")
        // SL1: the AES authentication at ISO/IEC 14443-3 beside the Classic commands.
        #expect(Self.command("70 0390 00", .nfcA) == "AuthenticateFirst key 9003")
    }

    @Test func answersNameTheStatusNativeAndWrapped() {
        #expect(Self.answer("90 " + String(repeating: "11", count: 16), to: "70 0040 00") == "MIFARE Plus OK, 16 bytes")
        #expect(Self.answer("90", to: "78") == "MIFARE Plus OK")
        #expect(
            Self.answer("06", to: "76 0340")
                == "MIFARE Plus 06: authentication error or access conditions not fulfilled")
        #expect(Self.answer("9100", to: "90 78 00 00 00") == "MIFARE Plus OK")
        #expect(
            Self.answer("91 0B", to: "90 70 00 00 03 004000 00")
                == "MIFARE Plus 0B: command not allowed in the current security level or state")
        #expect(Self.answer("A1B2 9100", to: "90 3C 00 00 01 00 00") == "MIFARE Plus OK, 2 bytes")
    }

    @Test func desfireKeepsTheCodesBothFamiliesUse() {
        #expect(Self.command("60") == "GetVersion")
        #expect(Self.command("AF") == "AdditionalFrame")
        #expect(Self.command("AA 01") == "AuthenticateAES")
        #expect(Self.command("90 AA 00 00 01 00 00") == "AuthenticateAES (ISO-wrapped)")
        #expect(Self.command("90 60 00 00 00") == "GetVersion (ISO-wrapped)")
        #expect(
            Self.command("00 A4 04 00 07 D2760000850101 00") == "SELECT application D2760000850101 (NFC Forum NDEF, v2)"
        )
        #expect(Self.answer("AE", to: "AA 01") == "DESFire authentication error")
    }
}
