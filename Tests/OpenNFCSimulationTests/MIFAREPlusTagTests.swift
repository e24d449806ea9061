import Foundation
import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCSimulation

/// Card-side behaviour of MIFARE Plus EV1/EV2: the SL3 authentication and MACed reads of a real MIFARE Plus 2K
/// (a public Proxmark3 trace, `traces/hf_mfp_read_sc0_sl3.trace` of RfidResearchGroup/proxmark3: UID
/// 04 50 5D 1A B7 68 80, key 4000 = the MAD key, reader RndA 00 01 … 0F; every byte recomputed by this chip), the
/// personalisation in SL0, the level switches, SL1 through the MIFARE Classic model, writes in each mode, tearing.
@Suite struct MIFAREPlusTagTests {
    static let madKey = h("A0A1A2A3A4A5A6A7A0A1A2A3A4A5A6A7")
    static let traceUID = h("04505D1AB76880")

    /// The trace card: SL3, blocks 0–3 as the trace read them, key 4000 the MAD key.
    func traceCard() throws -> MIFAREPlusTag {
        let model = MIFAREPlusModel(generation: .ev1, is4K: false, uidLength: 7)
        let tag = try MIFAREPlusTag(model: model, uid: Self.traceUID, securityLevel: 3)
        try tag.setBlock(0, h("04505D1AB7688008 4400020111000220"))
        try tag.setBlock(1, h("3000563D563C563C 563C563C563C0000"))
        try tag.setBlock(3, h("FFFFFFFFFF0F0F07 8FC1FFFFFFFFFFFF"))
        try tag.setKey(0x4000, Self.madKey)
        return tag
    }

    func answer(_ tag: MIFAREPlusTag, _ hex: String) -> [UInt8]? {
        if case .data(let d) = tag.receive(h(hex), tearAfter: nil) { return d }
        return nil
    }

    /// AuthenticateFirst with key 4000 as the trace ran it.
    func authenticateLikeTheTrace(_ tag: MIFAREPlusTag) {
        tag.random = FixedRandomSource(h("088BD5DD3896E212D717A993C2D2B1A1") + h("3FD7F78A"))
        #expect(answer(tag, "70 0040 00") == h("90 538A666C8751AEFE5FADFC7EEB12C3E1"))
        #expect(
            answer(tag, "72 B6AD00EDEFEF0774DECDBF256124E518 E1BC30164191393EAFB531E18E880F84")
                == h("90 6616A9B094AAFBA889E480F78B2A5335 8151A80B12B963EB3549271FFE754EBC"))
    }

    @Test func publishedSL3TraceIsAnsweredByteForByte() throws {
        let tag = try traceCard()
        tag.reset()
        authenticateLikeTheTrace(tag)
        let session = try #require(tag.session)
        #expect(session.ti == h("3FD7F78A"))
        #expect(session.kEnc == h("2DD05E6C1644663D03547C4197785604"))
        #expect(session.kMac == h("E3FB0CD3B4F6396F8C02563C36FA6A97"))
        #expect(answer(tag, "33 0000 01 2BFACDE398A04CD5") == h("90 04505D1AB76880084400020111000220 365C09B811A8D749"))
        #expect(answer(tag, "33 0100 01 D9FE3B1D38D4C3D1") == h("90 3000563D563C563C563C563C563C0000 E2DD057BDFEA345E"))
        #expect(answer(tag, "33 0200 01 FCD5C4A4C9C667A2") == h("90 00000000000000000000000000000000 AE8F77FC7FC4A96C"))
        #expect(answer(tag, "33 0300 01 1A9CADB3BBB1A989") == h("90 00000000000F0F078FC1000000000000 C2CA7AB86ADA6CDA"))
        #expect(tag.session?.readCounter == 4)
    }

    @Test func wrongMACEndsTheSessionAndWrongKeyIsAnAuthenticationError() throws {
        let tag = try traceCard()
        authenticateLikeTheTrace(tag)
        #expect(answer(tag, "33 0000 01 2BFACDE398A04CD6") == [0x08])
        #expect(tag.session == nil)
        #expect(answer(tag, "33 0000 01 2BFACDE398A04CD5") == [0x06])
        // The reader's RndB<<<1 does not match: 06, no session.
        tag.random = FixedRandomSource(h("088BD5DD3896E212D717A993C2D2B1A1"))
        #expect(answer(tag, "70 0040 00")?.first == 0x90)
        #expect(answer(tag, "72" + String(repeating: "00", count: 32)) == [0x06])
        #expect(tag.session == nil)
        // Other sectors, unknown addresses, lengths.
        #expect(answer(tag, "70 9940 00") == [0x09])
        #expect(answer(tag, "70 0040 07 00000000000000") == [0x0C])
        #expect(answer(tag, "76 0040") == [0x0B])
    }

    @Test func getVersionAndTheSignatureIdentifyTheChip() throws {
        let tag = try traceCard()
        #expect(answer(tag, "60") == h("AF 04020111001605"))
        #expect(answer(tag, "AF") == h("AF 04020111001605"))
        #expect(answer(tag, "AF") == [0x90] + Self.traceUID + tag.production)
        // ISO/IEC 7816-4 wrapping, as identification sends it.
        #expect(answer(tag, "90 60 00 00 00") == h("04020111001605 91AF"))
        let sig = try #require(answer(tag, "3C 00"))
        #expect(sig.count == 57 && sig[0] == 0x90)
        #expect(
            try ECDSA(.secp224r1).verify(
                Array(sig.dropFirst()), of: Self.traceUID, publicKey: MIFAREPlusTag.signaturePublicKey))
        #expect(tag.activation.selRes == 0x20 && tag.activation.sensRes == 0x0044 && tag.activation.ats != nil)
    }

    /// Personalisation (WritePerso, CommitPerso) to SL3, then an encrypted write and reads in every mode.
    @Test func personaliseToSL3ThenWriteAndReadInEveryMode() throws {
        let model = MIFAREPlusModel(generation: .ev2, is4K: true, uidLength: 4)
        let tag = try MIFAREPlusTag(model: model, uid: h("11223344"))
        #expect(tag.activation.selRes == 0x20 && tag.activation.sensRes == 0x0002)
        #expect(answer(tag, "AA 03") == [0x0B])  // card keys not personalised yet
        #expect(answer(tag, "A8 0000" + String(repeating: "11", count: 16)) == [0x09])  // block 0
        #expect(answer(tag, "A8 0040" + String(repeating: "00", count: 15)) == [0x0C])
        #expect(answer(tag, "A8 0040" + Hex.encode(Self.madKey) + Hex.encode(Self.madKey)) == [0x90])  // 4000, 4001
        for key in ["0090", "0190", "0390"] {
            #expect(answer(tag, "A8 \(key)" + String(repeating: "22", count: 16)) == [0x90])
        }
        #expect(answer(tag, "70 0040 00") == [0x0B])  // no authentication in SL0
        #expect(answer(tag, "AA 03") == [0x90])
        #expect(tag.securityLevel == 0)
        tag.reset()
        #expect(tag.securityLevel == 3 && tag.activation.selRes == 0x20)
        #expect(answer(tag, "A8 9090" + String(repeating: "00", count: 16)) == [0x0B])  // the SL0/SL3 probe
        // Authenticate with key 4000 (reader side computed here with libcrypto, as a reader would).
        let rndB = h("00112233445566778899AABBCCDDEEFF")
        let rndA = h("0F0E0D0C0B0A09080706050403020100")
        tag.random = FixedRandomSource(rndB + h("CAFEBABE"))
        let aes = try BlockCipher(.aes128, key: Self.madKey)
        let zero = [UInt8](repeating: 0, count: 16)
        #expect(answer(tag, "70 0040 00") == [0x90] + (try aes.encryptCBC(rndB, iv: zero)))
        let part2 = try aes.encryptCBC(rndA + Array(rndB.dropFirst()) + [rndB[0]], iv: zero)
        let reply = try #require(answer(tag, "72" + Hex.encode(part2)))
        let plain = try aes.decryptCBC(Array(reply.dropFirst()), iv: zero)
        #expect(plain.prefix(4) == h("CAFEBABE")[...] && Array(plain[4..<20]) == Array(rndA.dropFirst()) + [rndA[0]])
        let s = try #require(tag.session)
        let mac = { (data: [UInt8]) throws -> [UInt8] in
            let full = try CMAC(.aes128, key: s.kMac).tag(data)
            return stride(from: 1, to: 16, by: 2).map { full[$0] }
        }
        // Encrypted write A1 of block 1 (W_Ctr 0), MAC on the answer.
        let data = h("000102030405060708090A0B0C0D0E0F")
        let ti = s.ti
        let ivWrite = ti + [UInt8](repeating: 0, count: 12)
        let enc = try BlockCipher(.aes128, key: s.kEnc).encryptCBC(data, iv: ivWrite)
        let cmdMAC = try mac([0xA1, 0x00, 0x00] + ti + [0x01, 0x00] + enc)
        let written = answer(tag, "A1 0100" + Hex.encode(enc) + Hex.encode(cmdMAC))
        #expect(written == [0x90] + (try mac([0x90, 0x01, 0x00] + ti)))
        #expect(tag.block(1) == data)
        // Encrypted read 31 (R_Ctr 0 → 1, W_Ctr 1): response IV (R ‖ W)×3 ‖ TI.
        let readMAC = try mac([0x31, 0x00, 0x00] + ti + [0x01, 0x00, 0x01])
        let r = try #require(answer(tag, "31 0100 01" + Hex.encode(readMAC)))
        let ivRead = [UInt8]([0x01, 0x00, 0x01, 0x00] + [0x01, 0x00, 0x01, 0x00] + [0x01, 0x00, 0x01, 0x00]) + ti
        #expect(try BlockCipher(.aes128, key: s.kEnc).decryptCBC(Array(r[1..<17]), iv: ivRead) == data)
        #expect(Array(r.suffix(8)) == (try mac([0x90, 0x01, 0x00] + ti + [0x01, 0x00, 0x01] + Array(r[1..<17]))))
        // Plain read without any MAC (37): data in the clear, R_Ctr 2.
        #expect(answer(tag, "36 0100 01") == [0x90] + data)
        #expect(tag.session?.readCounter == 2 && tag.session?.writeCounter == 1)
        // Another sector needs its own key: 06, and the session stays.
        #expect(answer(tag, "36 0400 01") == [0x06])
        #expect(answer(tag, "78") == [0x90])
        #expect(tag.session == nil)
    }

    @Test func aTornWriteKeepsWholeBlocksOnly() throws {
        let tag = try traceCard()
        try tag.setBlock(3, h("FFFFFFFFFF0FFF07 8069FFFFFFFFFFFF"))  // transport access: data read/write with A
        tag.reset()
        authenticateLikeTheTrace(tag)
        let s = try #require(tag.session)
        let data = [UInt8](repeating: 0xAB, count: 32)
        let mac = try CMAC(.aes128, key: s.kMac).tag([0xA2, 0x00, 0x00] + s.ti + [0x01, 0x00] + data)
        let frame = h("A2 0100") + data + stride(from: 1, to: 16, by: 2).map { mac[$0] }
        #expect(tag.receive(frame, tearAfter: 20) == .silence)
        #expect(tag.block(1) == [UInt8](repeating: 0xAB, count: 16))
        #expect(tag.block(2) == [UInt8](repeating: 0, count: 16))
    }

    /// SL1: MIFARE Classic through the Classic model (Crypto1 with the last four UID bytes of a 7-byte UID), the
    /// SAK of a Classic 1K, and the switch to SL3 with an AES authentication with key 9003.
    @Test func securityLevel1IsMifareClassicAndSwitchesToSL3() throws {
        let model = MIFAREPlusModel(generation: .ev1, is4K: false, uidLength: 7)
        let tag = try MIFAREPlusTag(model: model, uid: Self.traceUID, securityLevel: 1)
        #expect(tag.activation.selRes == 0x08 && tag.activation.ats == nil && tag.activation.sensRes == 0x0044)
        let field = VirtualField(clock: VirtualClock(), recording: false)
        field.place(tag)
        let frontend = VirtualFieldFrontend(field: field, capabilities: .unlimited)
        frontend.random = FixedRandomSource([1, 2, 3, 4])
        let target = try #require(frontend.poll([.nfcA]).first)
        _ = try frontend.activate(target)
        try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: [UInt8](repeating: 0xFF, count: 6)))
        #expect(try frontend.exchange([0x30, 0x04]) == .frame([UInt8](repeating: 0, count: 16)))
        // A 2K has no sector 32.
        _ = try frontend.activate(target)
        #expect(throws: RFError.self) {
            try frontend.authenticate(.mifareClassic(block: 128, keyType: .a, key: [UInt8](repeating: 0xFF, count: 6)))
        }
        // The level 3 switch key (factory FF…FF) at ISO/IEC 14443-3.
        _ = try frontend.activate(target)
        let key = [UInt8](repeating: 0xFF, count: 16)
        let aes = try BlockCipher(.aes128, key: key)
        let zero = [UInt8](repeating: 0, count: 16)
        tag.random = FixedRandomSource(h("00112233445566778899AABBCCDDEEFF"))
        guard case .frame(let challenge) = try frontend.exchange(h("70 0390 00")) else {
            Issue.record("no challenge")
            return
        }
        let rndB = try aes.decryptCBC(Array(challenge.dropFirst()), iv: zero)
        let part2 = try aes.encryptCBC([UInt8](repeating: 7, count: 16) + Array(rndB.dropFirst()) + [rndB[0]], iv: zero)
        guard case .frame(let done) = try frontend.exchange([0x72] + part2) else {
            Issue.record("no answer to part 2")
            return
        }
        #expect(done.count == 33 && done[0] == 0x90)
        #expect(tag.securityLevel == 1)
        _ = try frontend.activate(target)
        #expect(tag.securityLevel == 3 && tag.activation.selRes == 0x20)
    }

    @Test(arguments: MIFAREPlusModel.allCases)
    func tagFilesRoundTrip(_ model: MIFAREPlusModel) throws {
        let uid = model.uidLength == 7 ? Self.traceUID : h("A1B2C3D4")
        let tag = try MIFAREPlusTag(model: model, uid: uid)
        #expect(answer(tag, "A8 0100" + String(repeating: "5A", count: 16)) == [0x90])
        #expect(answer(tag, "A8 0090" + String(repeating: "22", count: 16)) == [0x90])
        tag.unknownKeys.insert(0x4003)
        let text = try TagFile.encodeJSON(tag)
        let back = try #require(try TagFile.decodeJSON(text) as? MIFAREPlusTag)
        #expect(back.model == model && back.uid == uid && back.securityLevel == 0)
        #expect(back.block(1) == [UInt8](repeating: 0x5A, count: 16))
        #expect(back.personalised == [0x0001, 0x9000])
        #expect(back.unknownKeys == [0x4003])
        #expect(back.signature == tag.signature)
        #expect(try TagFile.encodeJSON(back) == text)
        #expect(TagFile.chip(named: model.chip)?.report?(back)?.lines.first?.contains("security level 0") == true)
    }

    @Test func tagFileErrorsNameTheField() throws {
        let tag = try MIFAREPlusTag(
            model: MIFAREPlusModel(generation: .ev1, is4K: false, uidLength: 7), uid: Self.traceUID)
        let text = try TagFile.encodeJSON(tag)
        #expect(throws: TagFileError.self) {
            try TagFile.decodeJSON(text.replacingOccurrences(of: "\"9000\"", with: "\"9002\""))
        }
        do {
            _ = try TagFile.decodeJSON(
                text.replacingOccurrences(of: "\"securityLevel\": 0", with: "\"securityLevel\": 2"))
            Issue.record("level 2 accepted")
        } catch {
            #expect(error.field == "mifarePlus.securityLevel")
        }
    }
}
