import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// The virtual eMRTD's files, BAC and secure messaging, driven by APDUs computed from ICAO Doc 9303 Part 11.
@Suite struct EMRTDBACTests {
    /// EF.COM of Part 11 Appendix D: LDS 1.6, DG1 and DG2 (`60 14 5F01 "0106" 5F36 "040000" 5C 61 75`).
    static let appendixCOM = h("60145F0104303130365F3606303430303030 5C026175")

    /// Part 11 Appendix D, byte for byte: BAC with RND.IC `4608F91988702212` and K.IC `0B4F…790B` fixed through the
    /// test hooks, then SELECT EF.COM and two READ BINARY under secure messaging (Appendix D.4).
    @Test func appendixDWorkedExample() throws {
        let tag = try EMRTDTestTerminal.passport()
        var document = tag.document
        document.files[.com] = Self.appendixCOM
        let chip = EMRTDTag(document: document, activation: tag.activation)
        chip.testHooks.challenge = h("4608F91988702212")
        chip.testHooks.keyIC = h("0B4F80323EB3191CB04970CB4052790B")
        #expect(document.mrz?.keyInformation == "L898902C<369080619406236")
        playISODEP(
            chip,
            """
            00A4040C07A0000002471001 -> 9000          # SELECT eMRTD application (plain)
            0084000008 -> 4608F91988702212 9000        # GET CHALLENGE: RND.IC
            0082000028 72C29C2371CC9BDB65B779B8E8D37B29ECC154AA56A8799FAE2F498F76ED92F2 5F1448EEA8AD90A7 28 -> 46B9342A41396CD7386BF5803104D7CEDC122B9132139BAF2EEDC94EE178534F 2F2D235D074D7449 9000 # EXTERNAL AUTHENTICATE
            0CA4020C158709016375432908C044F68E08BF8B92D635FF24F800 -> 990290008E08FA855A5D4C50A8ED 9000 # SELECT EF.COM, SSC …C227
            0CB000000D9701048E08ED6705417E96BA5500 -> 8709019FF0EC34F9922651 99029000 8E08AD55CC17140B2DED 9000 # READ BINARY 4
            0CB000040D9701128E082EA28A70F3C7B53500 -> 871901FB9235F4E4037F2327DCC8964F1F9B8C30F42C8E2FFF224A 99029000 8E08C8B2787EAEA07D74 9000 # READ BINARY 18 at 4
            """)
    }

    /// No retry counter: a wrong MRZ is `63 00`, the next right one (after a new challenge) works; EXTERNAL
    /// AUTHENTICATE without a challenge is `69 85`.
    @Test func wrongMRZThenRightMRZ() throws {
        let tag = try EMRTDTestTerminal.passport()
        var t = EMRTDTestTerminal(tag)
        #expect(t.send(h("0082000028") + [UInt8](repeating: 0, count: 40) + [0x28]) == h("6985"))
        for _ in 0..<5 { #expect(try t.bac("L898902C<369080619406237") == false) }
        #expect(try t.bac("L898902C<369080619406236"))
        #expect(try t.exchange(ins: 0xA4, p1: 0x04, p2: 0x0C, data: LDSFile.applicationID).sw == 0x9000)
        let com = try t.exchange(ins: 0xB0, p1: 0x9E, p2: 0, le: [0x00])
        #expect(com.sw == 0x9000 && com.data == tag.document.files[.com])
    }

    /// Every data group reads back under 3DES secure messaging exactly as personalised; the odd-INS form answers
    /// in a `53` object; an extended Le gets the whole of DG2 in one answer; an explicit Le that cannot fit a short
    /// protected answer is `6C E7` (231 bytes: 232 padded + 4 + 4 + 10 = 250).
    @Test func readsEveryFileUnderSecureMessaging() throws {
        let tag = try EMRTDTestTerminal.passport()
        var t = EMRTDTestTerminal(tag)
        #expect(t.send(h("00A4040C07A0000002471001")) == h("9000"))
        #expect(try t.bac(EMRTDTestTerminal.appendixD.keyInformation))
        for (file, contents) in tag.document.files where !file.inMasterFile {
            #expect(try t.readFile(sfi: file.shortID) == contents, "\(file)")
        }
        let dg1 = tag.document.files[.dataGroup(1)] ?? []
        let odd = try t.exchange(ins: 0xB1, p1: 0x01, p2: 0x01, data: h("540100"), le: [0x00])
        #expect(odd.sw == 0x9000 && odd.data == [0x53, UInt8(dg1.count)] + dg1)
        let dg2 = tag.document.files[.dataGroup(2)] ?? []
        let whole = try t.exchange(ins: 0xB0, p1: 0x82, p2: 0, le: [0x00, 0x00], extended: true)
        #expect(whole.sw == 0x9000 && whole.data == dg2)
        let tooMany = try t.exchange(ins: 0xB0, p1: 0x00, p2: 0x00, le: [0xE8])
        #expect(tooMany.sw == 0x6CE7 && tooMany.data.isEmpty)
        let most = try t.exchange(ins: 0xB0, p1: 0x00, p2: 0x00, le: [0xE7])
        #expect(most.sw == 0x9000 && most.data == Array(dg2.prefix(231)))
    }

    /// A wrong MAC ends secure messaging: `69 88` unprotected, the keys are gone (the next protected command is
    /// `69 88` too) and the files are closed again (`69 82` plain). A command without DO'8E' is `69 87`.
    @Test func smErrorsEndTheSession() throws {
        let tag = try EMRTDTestTerminal.passport()
        var t = EMRTDTestTerminal(tag)
        _ = t.send(h("00A4040C07A0000002471001"))
        #expect(try t.bac(EMRTDTestTerminal.appendixD.keyInformation))
        var bad = try t.protect(ins: 0xB0, p1: 0x9E, p2: 0, le: [0x04])
        bad[bad.count - 2] ^= 0x01  // last byte of the MAC
        #expect(t.send(bad) == h("6988"))
        #expect(t.send(try t.protect(ins: 0xB0, p1: 0x9E, p2: 0, le: [0x04])) == h("6988"))
        #expect(t.send(h("00B09E0004")) == h("6982"))
        #expect(try t.bac(EMRTDTestTerminal.appendixD.keyInformation))
        #expect(t.send(h("0CB09E0003970104")) == h("6987"))  // DO'97' but no DO'8E'
        #expect(t.send(h("00B09E0004")) == h("6982"))
        #expect(try t.bac(EMRTDTestTerminal.appendixD.keyInformation))
        // A plain command ends secure messaging too, and is then answered as plain.
        #expect(t.send(h("00A4020C02011E")) == h("9000"))
        #expect(t.send(h("00B0000004")) == h("6982"))
    }

    /// Before BAC or PACE: the application and its EFs can be selected, but every READ BINARY of them is
    /// `69 82`; the MF's EF.CardAccess and EF.ATR/INFO read freely; INTERNAL AUTHENTICATE is `69 82`.
    @Test func answersWhenBACIsSkipped() throws {
        let tag = try EMRTDTestTerminal.passport()
        let cardAccess = tag.document.files[.cardAccess] ?? []
        let atrInfo = tag.document.files[.atrInfo] ?? []
        playISODEP(
            tag,
            """
            00B09C0000 -> \(Hex.encode(cardAccess)) 9000      # EF.CardAccess by SFI from the MF
            00A4020C022F01 -> 9000                             # SELECT EF.ATR/INFO
            00B0000000 -> \(Hex.encode(atrInfo)) 9000          # READ it
            00A4040C07A0000002471001 -> 9000                   # SELECT the eMRTD application
            00A4020C02011E -> 9000                             # SELECT EF.COM
            00B0000004 -> 6982                                 # READ EF.COM: security status not satisfied
            00B0810004 -> 6982                                 # READ DG1 by SFI
            00B09D0004 -> 6982                                 # READ EF.SOD by SFI
            00880000080102030405060708 00 -> 6982              # INTERNAL AUTHENTICATE
            """)
    }

    /// File identifiers resolve against the current DF: `011C` is EF.CardAccess in the MF and nothing in the
    /// application (no EF.CVCA); SFI `1C` likewise; `3F00` returns to the MF from the application.
    @Test func masterFileAndApplicationResolveIdentifiers() throws {
        let tag = try EMRTDTestTerminal.passport()
        let cardAccess = tag.document.files[.cardAccess] ?? []
        playISODEP(
            tag,
            """
            00A4040C07A0000002471001 -> 9000    # SELECT eMRTD application
            00A4020C02011C -> 6A82              # 011C in the application: no EF.CVCA
            00B09C0000 -> 6A82                  # SFI 1C in the application
            00A4000C023F00 -> 9000              # SELECT MF
            00A4020C02011C -> 9000              # EF.CardAccess in the MF
            00B0000000 -> \(Hex.encode(cardAccess)) 9000
            00A4000C02011E -> 6A82              # EF.COM is not in the MF
            00A4000C -> 9000                    # SELECT MF without data
            00B09C0000 -> \(Hex.encode(cardAccess)) 9000
            """)
    }

    /// A PACE-only document refuses BAC with `6A 88`.
    @Test func paceOnlyRefusesBAC() throws {
        let tag = try EMRTDTestTerminal.passport { $0.paceOnly = true }
        var t = EMRTDTestTerminal(tag)
        #expect(try t.bac(EMRTDTestTerminal.appendixD.keyInformation) == false)
        #expect(t.send(h("0084000008")).count == 10)
        #expect(t.send(h("0082000028") + [UInt8](repeating: 0, count: 40) + [0x28]) == h("6A88"))
    }

    /// The chip can be torn at any APDU: the answer is lost, and after power-up the session is gone.
    @Test func tearAtAnyAPDULosesTheAnswerAndTheSession() throws {
        let tag = try EMRTDTestTerminal.passport()
        var t = EMRTDTestTerminal(tag)
        _ = t.send(h("00A4040C07A0000002471001"))
        #expect(try t.bac(EMRTDTestTerminal.appendixD.keyInformation))
        let read = try t.protect(ins: 0xB0, p1: 0x81, p2: 0, le: [0x00])
        #expect(tag.receive(read, tearAfter: 0) == .silence)
        tag.powerOn()
        #expect(t.send(h("00A4040C07A0000002471001")) == h("9000"))
        #expect(t.send(h("00B0810004")) == h("6982"))
    }
}
