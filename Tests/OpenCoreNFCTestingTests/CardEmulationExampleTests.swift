import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import Testing

/// Handlers written the way Apple's documentation shows one (CardEmulationApps.swift), against the virtual terminal.
@Suite struct CardEmulationExampleTests {
    @Test func anAccessBadgeAnswersTheDoorsChallengeAtEveryDoor() throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F042414447"]))
        let badge = AccessBadgeApp()
        phone.launch { await badge.run() }
        for door in 0..<2 {
            let terminal = VirtualTerminal(phone: phone)
            terminal.bringField()
            let answers = try terminal.run(
                script: """
                    # the door reader: SELECT the badge application, then a 4-byte challenge
                    00A4040007F04241444745 0100 -> 9000
                    0088000004 0A0B0C0\(door) 00 -> 0B0C0D0\(door + 1) 9000
                    """)
            #expect(answers.count == 2)
            terminal.removeField()
        }
        #expect(badge.log.all == ["readerDetected", "readerDeselected", "readerDetected", "readerDeselected"])
        #expect(phone.isEmulatingCard)
    }

    @Test func aScriptStopsAtTheFirstUnexpectedAnswerWithItsLine() throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F042414447"]))
        phone.launch { await AccessBadgeApp().run() }
        let terminal = VirtualTerminal(phone: phone)
        terminal.bringField()
        #expect(throws: VirtualTerminal.Failure.unexpected(line: 2, expected: [0x90, 0x00], received: [0x6D, 0x00])) {
            try terminal.run(script: "00A4040007F042414447450100 -> 9000\n00CA000000 -> 9000")
        }
        #expect(throws: VirtualTerminal.Failure.badScript("script:1: the command 'XY' is not hex bytes")) {
            try terminal.run(script: "XY -> 9000")
        }
    }

    @Test func aTerminalClosureReadsTheNDEFTagTheAppEmulates() throws {
        var configuration = hceConfiguration(["D2760000850101"])
        configuration.readerSessionFormats = ["TAG"]
        let phone = VirtualPhone(configuration: configuration)
        let tag = NDEFTagApp()
        phone.launch { await tag.run() }
        let terminal = VirtualTerminal(phone: phone)
        terminal.bringField()
        // The NFC Forum Type 4 read procedure (T4T 2.0 §5.4) as the terminal's logic.
        let message: [UInt8] = try terminal.run { t in
            try t.select(aid: NDEFTagApp.aid)
            try t.send([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03])
            let cc = try t.send([0x00, 0xB0, 0x00, 0x00, 0x0F]).data
            let fileID = Array(cc[9...10])
            try t.send([0x00, 0xA4, 0x00, 0x0C, 0x02] + fileID)
            let nlen = try t.send([0x00, 0xB0, 0x00, 0x00, 0x02]).data
            let length = Int(nlen[0]) << 8 | Int(nlen[1])
            return try t.send([0x00, 0xB0, 0x00, 0x02, UInt8(length)]).data
        }
        let payload = NFCNDEFMessage(data: Data(message))?.records.first
        #expect(payload?.wellKnownTypeURIPayload()?.absoluteString == "https://example.com")
        #expect(terminal.exchanges.count == 6)
    }

    @Test func anNDEFReaderOnAnotherDeviceNeverSeesAPaymentSelect() throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["D2760000850101"]))
        phone.launch { await NDEFTagApp().run() }
        let terminal = VirtualTerminal(phone: phone)
        terminal.bringField()
        #expect(try terminal.select(aid: hex("325041592E5359532E4444463031")).statusWord == 0x6A82)  // 2PAY.SYS.DDF01
        #expect(try terminal.select(aid: NDEFTagApp.aid).statusWord == 0x9000)
    }
}
