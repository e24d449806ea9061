import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// A loyalty-card applet written the way an app developer would: GET DATA (`CA`) returns the balance, a proprietary
/// DEBIT (`80 30`) lowers it.
final class LoyaltyApplet: ISO7816Applet {
    let aid: [UInt8]
    var balance: UInt8 = 100
    var deselections = 0

    init(aid: [UInt8]) { self.aid = aid }

    func select(_ command: ISO7816Command) -> ISO7816Response {
        ISO7816Response(data: [0x6F, UInt8(aid.count + 2), 0x84, UInt8(aid.count)] + aid)  // FCI with DF name
    }

    func process(_ command: ISO7816Command) -> ISO7816Response {
        switch (command.cla, command.ins) {
        case (0x00, 0xCA): return ISO7816Response(data: [balance])
        case (0x80, 0x30):
            guard command.data.count == 1 else { return .status(.wrongLength) }
            guard command.data[0] <= balance else { return .status(ISO7816Status(0x69, 0x85)) }
            balance -= command.data[0]
            return .status(.success)
        case (0x00, _), (0x80, _): return .status(.insNotSupported)
        default: return .status(.claNotSupported)
        }
    }

    func deselect() { deselections += 1 }
}

@Suite struct ISODEPAppletTests {
    static let loyaltyAID: [UInt8] = [0xF0, 0x4C, 0x4F, 0x59, 0x41, 0x4C, 0x01]
    static let transitAID: [UInt8] = [0xF0, 0x4C, 0x4F, 0x59, 0x41, 0x4C, 0x02]

    @Test func selectRoutesEveryLaterCommandToTheApplet() throws {
        let loyalty = LoyaltyApplet(aid: Self.loyaltyAID)
        let tag = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage, applets: [loyalty])
        playISODEP(
            tag,
            """
            00A4040007F04C4F59414C0100 -> 6F09 8407 F04C4F59414C01 9000 # SELECT applet: its FCI
            00CA000000                 -> 64 9000      # GET DATA: balance 100
            8030000001 0A              -> 9000         # proprietary DEBIT 10 (CLA 80 reaches the applet)
            00CA000000                 -> 5A 9000      # balance 90
            8030000001 FF              -> 6985         # applet's own status word
            00B0000002                 -> 6D00         # READ BINARY goes to the applet too
            00A4000C02E104             -> 6D00         # even a SELECT by file id
            00A4040007D276000085010100 -> 9000         # SELECT by name always switches application
            00A4000C02E104             -> 9000         # the NDEF file again
            00B0000002                 -> 000E 9000    # READ BINARY by the card
            """)
        #expect(loyalty.balance == 90)
        #expect(loyalty.deselections == 1)
        tag.reset()
        #expect(loyalty.deselections == 1)  // it was not selected any more
    }

    @Test func partialNamesAndOccurrences() throws {
        let loyalty = LoyaltyApplet(aid: Self.loyaltyAID)
        let transit = ISO7816ClosureApplet(aid: Self.transitAID) { _ in ISO7816Response(data: [0x02]) }
        let tag = try Type4Tag(uid: testUID, applets: [loyalty, transit])
        playISODEP(
            tag,
            """
            00A4040005F04C4F594100     -> 6F09 8407 F04C4F59414C01 9000 # partial name, first occurrence
            00A4040205F04C4F594100     -> 9000         # next occurrence: the transit applet
            00CA000000                 -> 02 9000      # it answers
            00A4040205F04C4F594100     -> 6A82         # no occurrence after the last
            00A4040305F04C4F594100     -> 6F09 8407 F04C4F59414C01 9000 # previous occurrence: loyalty
            00A4040105F04C4F594100     -> 9000         # last occurrence: transit
            00A4040007F04C4F59414C0300 -> 6A82         # unknown AID
            00CA000000                 -> 02 9000      # the failed SELECT kept the transit applet
            """)
        #expect(loyalty.deselections == 2)
    }

    @Test func appletOnlyCardHasNoNDEFApplication() throws {
        let transit = ISO7816ClosureApplet(aid: Self.transitAID) { _ in ISO7816Response(data: [0x02]) }
        let tag = try Type4Tag(
            uid: testUID, configuration: Type4Configuration(hostsNDEFApplication: false), applets: [transit])
        playISODEP(
            tag,
            """
            00A4040007D276000085010100 -> 6A82         # no NDEF application
            00A4000C02E103             -> 6A82         # no CC file
            00A4040007F04C4F59414C0200 -> 9000         # the applet
            """)
        #expect(tag.ndefFile.isEmpty)
    }

    @Test func refusedSelectionLeavesNoApplicationSelected() throws {
        var deselected = 0
        let refusing = ISO7816ClosureApplet(
            aid: Self.loyaltyAID, select: { _ in .status(.appletSelectionFailed) }, deselect: { deselected += 1 }
        ) { _ in .status(.success) }
        let tag = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage, applets: [refusing])
        playISODEP(
            tag,
            """
            00A4040007D276000085010100 -> 9000         # SELECT NDEF application
            00A4000C02E104             -> 9000         # SELECT NDEF file
            00A4040007F04C4F59414C0100 -> 6999         # the applet refuses
            00B0000002                 -> 6986         # nothing is selected now
            00CA000000                 -> 6D00         # and the card, not the applet, answers
            """)
        #expect(deselected == 0)
    }

    @Test func tornCommandToAnAppletIsLost() throws {
        let loyalty = LoyaltyApplet(aid: Self.loyaltyAID)
        let tag = try Type4Tag(uid: testUID, applets: [loyalty])
        playISODEP(tag, "00A4040007F04C4F59414C0100 -> 6F09 8407 F04C4F59414C01 9000 # SELECT applet")
        #expect(tag.receive(h("8030000001 0A"), tearAfter: 0) == .silence)
        #expect(loyalty.balance == 90)  // the applet ran; its answer was lost
    }

    @Test func appletAIDsAreChecked() {
        #expect(throws: ISODEPCardError.self) {
            try Type4Tag(uid: testUID, applets: [ISO7816ClosureApplet(aid: []) { _ in .status(.success) }])
        }
    }
}
