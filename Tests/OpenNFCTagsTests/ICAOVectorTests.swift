import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// A chip that answers from a script: each expected command APDU (exact bytes) with its answer.
final class ScriptedChip: EMRTDTransport {
    var script: [(command: [UInt8]?, answer: [UInt8])]
    var sent: [[UInt8]] = []
    init(_ script: [(command: [UInt8]?, answer: [UInt8])]) { self.script = script }

    func transmit(_ apdu: [UInt8], name: String) throws(PassportError) -> [UInt8] {
        sent.append(apdu)
        guard !script.isEmpty else { throw PassportError(.transport, "\(name): the script has ended") }
        let step = script.removeFirst()
        if let expected = step.command, expected != apdu {
            throw PassportError(.transport, "\(name): sent \(hex(apdu)), the script expected \(hex(expected))")
        }
        return step.answer
    }
}

/// Random bytes from a list, in order: the worked examples' RND.IFD, K.IFD and private keys.
final class FixedRandom: RandomSource, @unchecked Sendable {
    var queue: [[UInt8]]
    init(_ queue: [[UInt8]]) { self.queue = queue }
    func bytes(_ count: Int) -> [UInt8] {
        let next = queue.removeFirst()
        precondition(next.count == count, "the test's random bytes have \(next.count) bytes, \(count) were asked")
        return next
    }
}

/// ICAO Doc 9303 Part 11 Appendix D (worked example: Basic Access Control and secure messaging). Every value below
/// is the appendix's (as recomputed independently with Python `cryptography`), not ours.
@Suite struct ICAOAppendixDTests {
    let info = "L898902C<369080619406236"

    @Test func mrzInformationOfTheSpecimen() throws {
        #expect(MRZ.checkDigit("L898902C<") == "3")
        #expect(
            try MRZ.keyInformation(documentNumber: "L898902C", dateOfBirth: "690806", dateOfExpiry: "940623") == info)
        let (enc, mac) = try BAC.keys(keyInformation: info)
        #expect(enc == h("AB94FDECF2674FDFB9B391F85D7F76F2"))
        #expect(mac == h("7962D9ECE03D1ACD4C76089DCE131543"))
    }

    /// BAC with the appendix's RND.IC, RND.IFD, K.IFD and K.IC, then SELECT EF.COM and two READ BINARYs under
    /// secure messaging with the appendix's exact protected APDUs and answers (D.4).
    @Test func bacThenSecureMessagingReadOfEFCOM() throws {
        let chip = ScriptedChip([
            (h("0084000008"), h("4608F91988702212 9000")),
            (
                h(
                    "0082000028 72C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F2 5F1448EEA8AD90A7 28"
                ),
                h("46B9342A41396CD7386BF5803104D7CEDC122B9132139BAF2EEDC94EE178534F 2F2D235D074D7449 9000")
            ),
            (h("0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800"), h("990290008E08FA855A5D4C50A8ED 9000")),
            (
                h("0CB000000D9701048E08ED6705417E96BA5500"),
                h("8709019FF0EC34F9922651 99029000 8E08AD55CC17140B2DED 9000")
            ),
            (
                h("0CB000040D9701128E082EA28A70F3C7B53500"),
                h(
                    "871901FB9235F4E4037F2327DCC8964F1F9B8C30F42C8E2FFF224A 99029000 8E08C8B2787EAEA07D74 9000"
                )
            ),
        ])
        let session = EMRTDSession(transport: chip)
        let random = FixedRandom([h("781723860C06C226"), h("0B795240CB7049B01C19B33E32804F0B")])
        try BAC.perform(session: session, keyInformation: info, random: random)
        let sm = try #require(session.secureMessaging)
        #expect(sm.encryptionKey == h("979EC13B1CBFE9DCD01AB0FED307EAE5"))
        #expect(sm.macKey == h("F1CB1F1FB5ADF208806B89DC579DC1F8"))
        #expect(sm.ssc == h("887022120C06C226"))
        // The example reads EF.COM with chunks of 4 then 18 bytes: the header, then the rest.
        let reader = LDSFileReader(session: session, chunkLength: 18)
        let com = try #require(try reader.read(fid: 0x011E, name: "EF.COM"))
        #expect(com == h("60145F0104303130365F36063034303030305C026175"))
        #expect(try EFCOM(com).dataGroups == [1, 2])
        #expect(session.apduCount == 5)
        #expect(chip.script.isEmpty)
    }

    @Test func aWrongMRZIsAccessDenied() throws {
        let chip = ScriptedChip([(h("0084000008"), h("4608F91988702212 9000")), (nil, h("6300"))])
        let session = EMRTDSession(transport: chip)
        let random = FixedRandom([h("781723860C06C226"), h("0B795240CB7049B01C19B33E32804F0B")])
        let e = #expect(throws: PassportError.self) {
            try BAC.perform(session: session, keyInformation: "L898902C<369080619406237", random: random)
        }
        #expect(e?.code == .accessDenied && e?.statusWord == 0x6300)
        #expect(session.secureMessaging == nil)
    }

    /// A response whose MAC is wrong ends secure messaging with a clear error, and so does a plain answer.
    @Test func responseMACIsCheckedOnEveryAnswer() throws {
        for answer in [h("990290008E08FA855A5D4C50A8EE 9000"), h("6988")] {
            let chip = ScriptedChip([(nil, answer)])
            let session = EMRTDSession(transport: chip)
            session.secureMessaging = try SecureMessaging(
                cipher: .tdes2, encryptionKey: h("979EC13B1CBFE9DCD01AB0FED307EAE5"),
                macKey: h("F1CB1F1FB5ADF208806B89DC579DC1F8"), ssc: h("887022120C06C226"))
            let e = #expect(throws: PassportError.self) {
                _ = try session.send(CommandAPDU(ins: 0xA4, p1: 2, p2: 0x0C, data: [1, 0x1E]), name: "SELECT EF.COM")
            }
            #expect(e?.code == .secureMessaging)
            #expect(session.secureMessaging == nil)
        }
    }

    /// AES secure messaging (BSI TR-03110-3 §F.4 structure), vector from gmrtd's `secure_messaging_test.go` as quoted
    /// and recomputed in the project's notes: MSE:Set AT under AES-128 keys with SSC …00BA before the command.
    @Test func aesProtectedCommand() throws {
        var sm = try SecureMessaging(
            cipher: .aes128, encryptionKey: h("cc86415f2ed7e8fd663b754265695ae1"),
            macKey: h("581e84b8ee06c4d3eee30461498d7fb3"), ssc: h("000000000000000000000000000000BA"))
        let apdu = try sm.wrap(CommandAPDU(ins: 0x22, p1: 0x41, p2: 0xA4, data: h("800a04007f000702020302028401c3")))
        #expect(apdu == h("0c2241a41d871101980953d37f67558690045d78a853b18a8e08929767a2cef172e200"))
    }
}

/// ICAO Doc 9303 Part 11 Appendix G (worked example: PACE ECDH Generic Mapping, brainpoolP256r1, AES-128, MRZ
/// `T22000129` `640812` `101031`): the reader's APDUs and keys against the appendix's chip answers.
@Suite struct ICAOAppendixGTests {
    @Test func paceGenericMappingWithTheMRZ() throws {
        let info = try PACEInfo.all(in: h("3114 3012 060A04007F00070202040202 020102 02010D"))
        #expect(info == [PACEInfo(oid: "0.4.0.127.0.7.2.2.4.2.2", version: 2, parameterID: 13)])
        let chipMap = h(
            "04824FBA91C9CBE26BEF53A0EBE7342A3BF178CEA9F45DE0B70AA601651FBA3F5730D8C879AAA9C9F73991E61B58F4D52EB87A0A0C709A49DC63719363CCD13C54"
        )
        let chipKey = h(
            "049E880F842905B8B3181F7AF7CAA9F0EFB743847F44A306D2D28C1D9EC65DF6DB7764B22277A2EDDC3C265A9F018F9CB852E111B768B326904B59A0193776F094"
        )
        let ifdMap = h(
            "047ACF3EFC982EC45565A4B155129EFBC74650DCBFA6362D896FC70262E0C2CC5E544552DCB6725218799115B55C9BAA6D9F6BC3A9618E70C25AF71777A9C4922D"
        )
        let ifdKey = h(
            "042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB36462"
        )
        let chip = ScriptedChip([
            (h("0022C1A4 0F 800A04007F00070202040202 830101"), h("9000")),
            (h("10860000 02 7C00 00"), h("7C12 8010 95A3A016522EE98D01E76CB6B98B42C3 9000")),
            (h("10860000 45 7C43 8141") + ifdMap + h("00"), h("7C43 8241") + chipMap + h("9000")),
            (h("10860000 45 7C43 8341") + ifdKey + h("00"), h("7C43 8441") + chipKey + h("9000")),
            (h("00860000 0C 7C0A 8508 C2B0BD78D94BA866 00"), h("7C0A 8608 3ABB9674BCE93C08 9000")),
        ])
        let session = EMRTDSession(transport: chip)
        let random = FixedRandom([
            h("7F4EF07B9EA82FD78AD689B38D0BC78CF21F249D953BC46F4C6E19259C010F99"),
            h("A73FB703AC1436A18E0CFA5ABB3F7BEC7A070E7A6788486BEE230C4A22762595"),
        ])
        try PACE.perform(
            session: session, info: info[0], password: .mrz(keyInformation: "T220001293" + "6408125" + "1010318"),
            random: random)
        let sm = try #require(session.secureMessaging)
        #expect(sm.encryptionKey == h("F5F0E35C0D7161EE6724EE513A0D9A7F"))
        #expect(sm.macKey == h("FE251C7858B356B24514B3BD5F4297D1"))
        #expect(sm.ssc == [UInt8](repeating: 0, count: 16))
        #expect(chip.script.isEmpty)
    }

    @Test func aWrongTokenIsAccessDenied() throws {
        let chip = ScriptedChip([
            (nil, h("9000")), (nil, h("7C12 8010 95A3A016522EE98D01E76CB6B98B42C3 9000")), (nil, h("6300")),
        ])
        let random = FixedRandom([h("7F4EF07B9EA82FD78AD689B38D0BC78CF21F249D953BC46F4C6E19259C010F99")])
        let e = #expect(throws: PassportError.self) {
            try PACE.perform(
                session: EMRTDSession(transport: chip),
                info: PACEInfo(oid: "0.4.0.127.0.7.2.2.4.2.2", version: 2, parameterID: 13), password: .can("123456"),
                random: random)
        }
        #expect(e?.code == .accessDenied)
    }
}

/// MRZ parsing of the ICAO specimens (Doc 9303 Part 4 Appendix A TD3, Part 5 Appendix A TD1).
@Suite struct MRZParsingTests {
    @Test func td3Specimen() throws {
        let m = try MRZ(
            "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10")
        #expect(m.format == .td3 && m.documentNumber == "L898902C3" && m.primaryIdentifier == "ERIKSSON")
        #expect(m.secondaryIdentifier == "ANNA MARIA" && m.dateOfBirth == "740812" && m.sex == "F")
        #expect(m.keyInformation == "L898902C36" + "7408122" + "1204159")
    }

    @Test func td1SpecimenAndLongDocumentNumbers() throws {
        let m = try MRZ("I<UTOD231458907<<<<<<<<<<<<<<<7408122F1204159UTO<<<<<<<<<<<6ERIKSSON<<ANNA<MARIA<<<<<<<<<<")
        #expect(m.format == .td1 && m.documentNumber == "D23145890" && m.nationality == "UTO")
        let long = try MRZ("I<NLD123456789<010<OHDA1<<<<<<6503101F3108022NLDOPT<DATA2<<5DE<BRUIJN<<WILLEKE<LISELOTTE<<")
        #expect(long.documentNumber == "12345678901" && long.documentNumberCheckDigit == "0")
    }

    @Test func wrongCheckDigitsAndLengthsAreRefused() {
        #expect(throws: PassportError.self) {
            try MRZ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C37UTO7408122F1204159ZE184226B<<<<<10")
        }
        #expect(throws: PassportError.self) { try MRZ("P<UTO") }
        #expect(throws: PassportError.self) {
            try MRZ.keyInformation(documentNumber: "L8989", dateOfBirth: "7408", dateOfExpiry: "120415")
        }
    }
}
