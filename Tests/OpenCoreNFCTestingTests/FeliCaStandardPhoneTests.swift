import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// `NFCFeliCaTag` sessions on the virtual iPhone against the virtual FeliCa Standard card (not a script): several
/// systems, each with its own IDm, selected by the Info.plist's system codes in declaration order; `polling`
/// switching systems; Request Service, Read and Write Without Encryption on services without key; the `A5` refusal
/// of a keyed service returned as Core NFC returns status flags (no error, the flags, no blocks); NDEF sessions on a
/// Standard card with and without the NDEF system 12FC.
@Suite struct FeliCaStandardPhoneTests {
    static let idmA = FeliCaPhoneTests.idmA
    static let idmB = FeliCaPhoneTests.idmB

    static func blocks(_ n: Int, _ seed: UInt8) -> [[UInt8]] {
        (0..<n).map { b in [UInt8](repeating: seed &+ UInt8(b), count: 16) }
    }

    /// System FE00 (IDm A): random read/write `1009` and keyed `1008`; system 0003 (IDm B): random read-only `090F`.
    static func card() -> FeliCaStandardTag {
        FeliCaStandardTag(systems: [
            .init(
                code: 0xFE00, idm: idmA, areas: [.init(code: 0x0000, end: 0xFFFE)],
                services: [
                    .init(code: 0x1009, keyVersion: 0x0102, blocks: blocks(4, 0x10)),
                    .init(code: 0x1008, blocks: blocks(2, 0x40)),
                ]),
            .init(
                code: 0x0003, idm: idmB, areas: [.init(code: 0x0000, end: 0xFFFE)],
                services: [.init(code: 0x090F, blocks: blocks(2, 0x50))]),
        ])
    }

    /// What identification and delivery of a FeliCa card to a tag session cost on the air (docs/PROCEDURES.md,
    /// "FeliCa delivery"): the phone's discovery Polling `00 FFFF 00 00` (one for every card in the field; NFC-F
    /// identification sends nothing more), then one Polling per declared system code in declaration order until one
    /// answers: 2 frames when the first declared code answers, 1 + k when the k-th does, and 1 + n (not delivered)
    /// when none of n does.
    @Test func deliveryFrames() {
        let cases: [(codes: [String], frames: [String], delivered: Bool)] = [
            (["0003"], ["00FFFF0000", "0000030000"], true),
            (["FE00", "0003"], ["00FFFF0000", "00FE000000"], true),
            (["8008", "1234", "0003"], ["00FFFF0000", "0080080000", "0012340000", "0000030000"], true),
            (["8008", "1234"], ["00FFFF0000", "0080080000", "0012340000"], false),
        ]
        for c in cases {
            let card = ScriptedFeliCaCard([FeliCaPhoneTests.common, FeliCaPhoneTests.transit])
            let (lines, _, _) = FeliCaPhoneTests().run(c.codes, card: card, [])
            #expect(!lines.isEmpty == c.delivered, "\(c.codes)")
            // Before the session, background tag reading looked at the card (wildcard, then Polling 12FC for NDEF);
            // the session's first discovery round starts after it, and later rounds repeat it.
            let all = card.allFrames.map { hex($0) }
            #expect(all.prefix(2) == ["00FFFF0000", "0012FC0100"])
            #expect(Array(all.dropFirst(2).prefix(c.frames.count)) == c.frames, "\(c.codes)")
        }
    }

    @Test func declarationOrderSelectsTheSystemAndPollingSwitchesToAnother() {
        let card = Self.card()
        let (lines, _, _) = FeliCaPhoneTests().run(
            ["8008", "0003", "FE00"], card: card,
            [
                { t, done in
                    t.requestService(nodeCodeList: [Data([0x0F, 0x09]), Data([0x09, 0x10])]) { v, e in
                        done("requestService \(v.map { hex($0) }) \(Pin.code(e))")
                    }
                },
                { t, done in
                    t.readWithoutEncryption(serviceCodeList: [Data([0x0F, 0x09])], blockList: [Data([0x80, 0x01])]) {
                        sf1, sf2, b, e in done("read 090F \(sf1) \(sf2) \(b.map { hex($0) }) \(Pin.code(e))")
                    }
                },
                { t, done in
                    nonisolated(unsafe) let t = t
                    t.polling(systemCode: Data([0xFE, 0x00]), requestCode: .systemCode, timeSlot: .max1) {
                        pmm, rd, e in
                        done(
                            "poll \(hex(pmm)) \(hex(rd)) \(Pin.code(e)) now \(hex(t.currentSystemCode)) "
                                + hex(t.currentIDm))
                    }
                },
                { t, done in
                    t.requestService(nodeCodeList: [Data([0x09, 0x10]), Data([0x00, 0x00])]) { v, e in
                        done("requestService \(v.map { hex($0) }) \(Pin.code(e))")
                    }
                },
                { t, done in t.requestSystemCode { c, e in done("systemCodes \(c.map { hex($0) }) \(Pin.code(e))") } },
                { t, done in
                    nonisolated(unsafe) let t = t
                    // An undeclared system code is refused before any frame, the selection kept.
                    t.polling(systemCode: Data([0x12, 0xFC]), requestCode: .noRequest, timeSlot: .max1) { _, _, e in
                        done("poll 12FC \(Pin.code(e)) \(hex(t.currentSystemCode))")
                    }
                },
            ])
        #expect(
            lines == [
                "feliCa 0003 \(hex(Self.idmB)) type 2", "connect 0",
                "requestService [\"0000\", \"FFFF\"] 0",
                "read 090F 0 0 [\"\(String(repeating: "51", count: 16))\"] 0",
                "poll 03014B024F4993FF FE00 0 now FE00 \(hex(Self.idmA))",
                "requestService [\"0201\", \"0000\"] 0",
                "systemCodes [\"FE00\", \"0003\"] 0",
                "poll 12FC 2 FE00",
            ])
        #expect(card.current == 0)
    }

    @Test func aServiceWithoutKeyReadsAndWritesAndAKeyedOneRefusesWithA5AsStatusFlags() {
        let card = Self.card()
        let data = Data((0..<16).map { UInt8(0xA0 + $0) })
        let (lines, _, _) = FeliCaPhoneTests().run(
            ["FE00"], card: card,
            [
                { t, done in
                    t.writeWithoutEncryption(
                        serviceCodeList: [Data([0x09, 0x10])], blockList: [Data([0x80, 0x02])], blockData: [data]
                    ) { sf1, sf2, e in done("write \(sf1) \(sf2) \(Pin.code(e))") }
                },
                { t, done in
                    t.readWithoutEncryption(
                        serviceCodeList: [Data([0x09, 0x10])],
                        blockList: [Data([0x80, 0x02]), Data([0x00, 0x03, 0x00])]
                    ) { sf1, sf2, b, e in done("read \(sf1) \(sf2) \(b.map { hex($0) }) \(Pin.code(e))") }
                },
                { t, done in
                    t.readWithoutEncryption(serviceCodeList: [Data([0x08, 0x10])], blockList: [Data([0x80, 0x00])]) {
                        result in
                        guard case .success(let (flags, blocks)) = result else { return done("keyed failure") }
                        done("keyed read \(flags.statusFlag1) \(flags.statusFlag2) \(blocks.count)")
                    }
                },
                { t, done in
                    t.writeWithoutEncryption(
                        serviceCodeList: [Data([0x08, 0x10])], blockList: [Data([0x80, 0x00])], blockData: [data]
                    ) { sf1, sf2, e in done("keyed write \(sf1) \(sf2) \(Pin.code(e))") }
                },
                { t, done in
                    t.readWithoutEncryption(serviceCodeList: [Data([0x09, 0x10])], blockList: [Data([0x80, 0x04])]) {
                        sf1, sf2, b, e in done("past the end \(sf1) \(sf2) \(b.count) \(Pin.code(e))")
                    }
                },
            ])
        #expect(
            lines.dropFirst(2) == [
                "write 0 0 0",
                "read 0 0 [\"\(hex(data))\", \"\(String(repeating: "13", count: 16))\"] 0",
                // A5: the service needs a key (JIS X 6319-4 §8.6); SF1 01 names the first block-list element.
                "keyed read 1 165 0", "keyed write 1 165 0",
                "past the end 1 168 0 0",
            ])
        #expect(card.systems[0].services[0].blocks[2] == [UInt8](data))
        #expect(card.systems[0].services[1].blocks == Self.blocks(2, 0x40))
    }

    /// A Standard card with the NDEF system 12FC (service 000B holding an attribute block and a message) is read by
    /// an NDEF session; one without 12FC is delivered to neither an NDEF session's messages nor as NDEF.
    @Test func anNDEFSessionReadsAStandardCardWith12FCAndFindsNoNDEFWithout() throws {
        let message: [UInt8] = [0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("std.example".utf8)
        var ndef = [FeliCaLiteSTag.attributeBlock(length: message.count, readOnly: true)]
        let padded = message + [UInt8](repeating: 0, count: 32 - message.count)
        ndef += [Array(padded[0..<16]), Array(padded[16..<32])]
        let withNDEF = FeliCaStandardTag(systems: [
            .init(
                code: 0x0003, idm: Self.idmA, areas: [.init(code: 0x0000, end: 0xFFFE)],
                services: [.init(code: 0x090F, blocks: Self.blocks(1, 0x50))]),
            .init(
                code: 0x12FC, idm: Self.idmB, areas: [.init(code: 0x0000, end: 0xFFFE)],
                services: [.init(code: 0x000B, blocks: ndef)]),
        ])
        let phone = VirtualPhone()
        phone.put(withNDEF)
        let app = phone.readFirstNDEF()
        #expect(
            app.events == [
                .becameActive, .detectedNDEFs(1), .invalidated(.readerSessionInvalidationErrorFirstNDEFTagRead),
            ])
        #expect(app.messages.first?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://std.example")

        // Without 12FC: NFCNDEFTag reports the card as not supporting NDEF, and reading it fails.
        let plain = VirtualPhone()
        plain.put(Self.card())
        let tagApp = NDEFTagRecorder()
        let log = LogBox()
        tagApp.onDetect = { session, tags in
            nonisolated(unsafe) let tags = tags
            session.connect(to: tags[0]) { _ in
                tags[0].queryNDEFStatus { status, capacity, e in
                    log.append("status \(status.rawValue) capacity \(capacity) \(Pin.code(e))")
                    tags[0].readNDEF { m, e in
                        log.append("read \(m == nil) \(Pin.code(e))")
                        session.invalidate()
                    }
                }
            }
        }
        plain.run { NFCNDEFReaderSession(delegate: tagApp, queue: nil, invalidateAfterFirstRead: false).begin() }
        plain.settle()
        #expect(log.lines.count == 2)
        #expect(log.lines.first?.hasPrefix("status 1 capacity 0") == true, "\(log.lines)")
        #expect(log.lines.last?.hasPrefix("read true") == true, "\(log.lines)")
    }
}
