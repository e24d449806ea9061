import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import OpenNFCVPCD
import Testing

/// The emulated reader side of `opennfc emulate`, APDU by APDU (no socket, no pcscd).
@Suite struct VPCDCardTests {
    let message = h("D101055402656E6869")  // Text "hi" (en)

    func ntag215() throws -> Type2Tag {
        try Type2Tag.factory(Type2ChipProfile.named("ntag215")!, uid: h("04A1B2C3D4E580"), holding: message)
    }

    @Test func storageCardATRs() throws {
        // PC/SC Part 3 ATRs with computed TCK (PC/SC Part 3 §3.1.3.2.3): NTAG21x, Ultralight and EV1 all show 00 03.
        let expected = h("3B8F8001804F0CA0000003060300030000000068")
        for chip in ["ntag213", "ntag215", "ntag216", "ultralight", "ultralight-ev1-48"] {
            let tag = try Type2Tag.factory(Type2ChipProfile.named(chip)!, uid: h("04A1B2C3D4E580"))
            #expect(VPCDCard(tag: tag).atr == expected, "\(chip)")
        }
    }

    @Test func isoDEPATRFromTheATSHistoricalBytes() throws {
        // ATS 06 77 77 71 02 80: T0 77 → TA, TB, TC present; historical byte 80 → 3B 81 80 01 80 80 (§9.3).
        let t4 = try Type4Tag.factory(uid: h("04C1C2C3C4C5C6"), holding: message)
        let card = VPCDCard(tag: t4)
        #expect(card.atr == h("3B8180018080"))
        #expect(card.respond(to: h("FFCA010000")) == h("809000"))
        #expect(card.respond(to: h("FFCA000000")) == h("04C1C2C3C4C5C6") + [0x90, 0x00])
        #expect(card.respond(to: h("00A4040007D276000085010100")) == [0x90, 0x00])
        #expect(card.respond(to: h("FFB0000410")) == [0x6A, 0x81])
    }

    @Test func getDataUID() throws {
        let card = VPCDCard(tag: try ntag215())
        card.powerOn()
        #expect(card.respond(to: h("FFCA000000")) == h("04A1B2C3D4E5809000"))
        #expect(card.respond(to: h("FFCA000007")) == h("04A1B2C3D4E5809000"))
        #expect(card.respond(to: h("FFCA000004")) == [0x6C, 0x07])  // Le too short: 6C + the right length
        #expect(card.respond(to: h("FFCA010000")) == [0x6A, 0x81])  // no ATS on a storage card
    }

    @Test func readAndUpdateBinary() throws {
        let tag = try ntag215()
        let card = VPCDCard(tag: tag)
        card.powerOn()
        #expect(card.respond(to: h("FFB0000310")) == Array(tag.memory[12..<28]) + [0x90, 0x00])
        // Le above 16: several READs, concatenated.
        #expect(card.respond(to: h("FFB0000420")) == Array(tag.memory[16..<48]) + [0x90, 0x00])
        #expect(card.respond(to: h("FFB0000402")) == Array(tag.memory[16..<18]) + [0x90, 0x00])
        #expect(card.respond(to: h("FFD6000508 0102030405060708")) == [0x90, 0x00])
        #expect(Array(tag.memory[20..<28]) == h("0102030405060708"))
        #expect(card.respond(to: h("FFD6000503 010203")) == [0x67, 0x00])  // not whole pages
        #expect(card.respond(to: h("FFD6000004 00000000")) == [0x63, 0x00])  // page 0 is read-only
        // The reader re-selected the tag after the refusal: it answers again.
        #expect(card.respond(to: h("FFB0000404")).map { Array($0.suffix(2)) } == [0x90, 0x00])
        #expect(card.respond(to: h("FFB000FF10")) == [0x63, 0x00])  // beyond the last page
        #expect(card.respond(to: h("FFB0010010")) == [0x6B, 0x00])
        #expect(card.respond(to: h("FF82000006FFFFFFFFFFFF")) == [0x6A, 0x81])
        #expect(card.respond(to: h("00A4040000")) == [0x6E, 0x00])
        #expect(card.respond(to: h("FFCA")) == [0x67, 0x00])
    }

    @Test func acr122uPassThrough() throws {
        let tag = try ntag215()
        let card = VPCDCard(tag: tag)
        card.powerOn()
        #expect(card.respond(to: h("FF00000003D44260")) == h("D54300 0004040201001103 9000"))  // GET_VERSION
        #expect(card.respond(to: h("FF00000005D4423A0405")) == h("D54300") + Array(tag.memory[16..<24]) + [0x90, 0x00])
        #expect(card.respond(to: h("FF00000008D442A206AABBCCDD")) == h("D543000A9000"))  // WRITE → ACK
        #expect(card.respond(to: h("FF00000008D442A200AABBCCDD")) == h("D54300009000"))  // NAK 0, tag mute now
        #expect(card.respond(to: h("FF00000004D4423004")) == h("D543019000"))  // silence: PN532 timeout
        // InListPassiveTarget re-activates the tag.
        #expect(card.respond(to: h("FF00000004D44A0100")) == h("D54B0101004400 07 04A1B2C3D4E580 9000"))
        // InDataExchange with target 1; a malformed one is "not acceptable" (PN532 status 27).
        #expect(card.respond(to: h("FF00000005D440013004")).map { Array($0.prefix(3)) } == h("D54100"))
        #expect(card.respond(to: h("FF00000004D4403001")) == h("D541279000"))
    }

    @Test func resetAndPowerOnWakeAMuteTag() throws {
        let card = VPCDCard(tag: try ntag215())
        card.powerOn()
        #expect(card.respond(to: h("FF00000003D44299")) == h("D543019000"))  // unknown command mutes the chip
        #expect(card.respond(to: h("FF00000004D4423004")) == h("D543019000"))
        card.reset()
        #expect(card.respond(to: h("FF00000004D4423004")).map { Array($0.prefix(3)) } == h("D54300"))
        #expect(card.respond(to: h("FF00000003D44299")) == h("D543019000"))
        card.powerOff()
        card.powerOn()
        #expect(card.isPowered)
        #expect(card.respond(to: h("FF00000004D4423004")).map { Array($0.prefix(3)) } == h("D54300"))
    }

    @Test(arguments: [(0, false), (3, false), (4, true)])
    func tornUpdateBinaryCommitsWholePages(tearAfter: Int, committed: Bool) throws {
        let tag = try ntag215()
        let card = VPCDCard(tag: tag)
        card.powerOn()
        let before = Array(tag.memory[20..<24])
        #expect(card.respond(to: h("FFD6000504DEADBEEF"), tearAfter: tearAfter) == nil)
        #expect(Array(tag.memory[20..<24]) == (committed ? h("DEADBEEF") : before))
    }

    @Test func tornWriteOfTwoPagesStopsBetweenThem() throws {
        let tag = try ntag215()
        let card = VPCDCard(tag: tag)
        let before = Array(tag.memory[24..<28])
        #expect(card.respond(to: h("FFD6000508 1111111122222222"), tearAfter: 6) == nil)
        #expect(Array(tag.memory[20..<24]) == h("11111111"))
        #expect(Array(tag.memory[24..<28]) == before)
    }

    @Test func addresses() {
        #expect(VPCDServer.parseAddress("127.0.0.1:35963")! == ("127.0.0.1", 35963))
        #expect(VPCDServer.parseAddress("[::1]:35964")! == ("::1", 35964))
        #expect(VPCDServer.parseAddress("localhost") == nil)
        #expect(VPCDServer.parseAddress("host:0") == nil)
        #expect(VPCDServer.parseAddress("host:99999") == nil)
    }

    @Test func connectingWithoutPCSCDSaysWhatToDo() {
        // Port 9 (discard) is closed on loopback here; the error names pcscd and the script.
        let server = VPCDServer(card: VPCDCard(tag: try! ntag215()), host: "127.0.0.1", port: 9)
        #expect {
            try server.connect()
        } throws: { error in
            let e = error as! VPCDError
            return e.code == .connectionRefused && e.message.contains("scripts/pcscd up")
        }
    }
}
