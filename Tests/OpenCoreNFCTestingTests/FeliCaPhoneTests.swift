import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// `NFCFeliCaTag` through the public API on a `VirtualPhone` (docs/PARITY.md §9): delivery gated by the Info.plist's
/// system codes in declaration order, Polling and the selection it updates, every command with its wire frame, its
/// decoding, its Status Flags and its parameter errors, and the three forms (callback, `Result`, `async`).
@Suite struct FeliCaPhoneTests {
    static let idmA: [UInt8] = [0x01, 0x2E, 0x4C, 0xE4, 0x45, 0x05, 0x5B, 0x87]
    static let idmB: [UInt8] = [0x11, 0x2E, 0x4C, 0xE4, 0x45, 0x05, 0x5B, 0x87]
    static let common = ScriptedFeliCaCard.System(code: [0xFE, 0x00], idm: idmA)
    static let transit = ScriptedFeliCaCard.System(code: [0x00, 0x03], idm: idmB)

    static func configuration(_ codes: [String], profile: DeviceProfile = .iphone) -> AppConfiguration {
        AppConfiguration(profile: profile, readerSessionFormats: ["TAG"], felicaSystemCodes: codes)
    }

    /// One step of a test: gets the connected tag and reports one line.
    typealias Step = @Sendable (any NFCFeliCaTag, @escaping @Sendable (String) -> Void) -> Void

    /// Runs `steps` one after the other on the first delivered tag (connected first) and returns their lines,
    /// prefixed by what was delivered (`feliCa <system> <IDm>`), and the recorder.
    func run(
        _ codes: [String], card: any VirtualTag, profile: DeviceProfile = .iphone, _ steps: [Step]
    ) -> (lines: [String], app: TagSessionRecorder, phone: VirtualPhone) {
        let phone = VirtualPhone(configuration: Self.configuration(codes, profile: profile))
        phone.put(card, at: 0)
        let app = TagSessionRecorder()
        let log = Shared<[String]>([])
        app.onFirstDetect { session, tags in
            guard case .feliCa(let tagObject) = tags[0] else {
                log.update { $0.append("not a FeliCa tag: \(tags[0])") }
                return
            }
            nonisolated(unsafe) let tag = tagObject
            log.update {
                $0.append(
                    "feliCa \(hex(tag.currentSystemCode)) \(hex(tag.currentIDm)) type \(tag.type.rawValue)")
            }
            session.connect(to: tags[0]) { error in
                log.update { $0.append("connect \(Pin.code(error))") }
                @Sendable func next(_ k: Int) {
                    guard k < steps.count else { return }
                    steps[k](tag) { line in
                        log.update { $0.append(line) }
                        next(k + 1)
                    }
                }
                next(0)
            }
        }
        Pin.beginTagSession(phone, app, .iso18092)
        phone.settle()
        return (log.value, app, phone)
    }

    // MARK: gating

    @Test func aTagSessionPollingFeliCaWithoutDeclaredSystemCodesEndsWith2BeforeAnySheet() {
        for codes in [[], ["FFFF", "12FF", "XYZW", "123"]] {
            let card = ScriptedFeliCaCard([Self.common])
            let (lines, app, phone) = run(codes, card: card, [])
            #expect(lines.isEmpty)
            #expect(app.events == [.invalidated(.readerErrorSecurityViolation)])
            #expect(!phone.transcript.contains { $0.kind == .sheet })
            #expect(card.frames.isEmpty)
        }
    }

    @Test func withoutFeliCaPollingNoSystemCodeIsNeeded() {
        let phone = VirtualPhone(configuration: Self.configuration([]))
        let app = TagSessionRecorder()
        Pin.beginTagSession(phone, app, .iso14443)
        #expect(app.events == [.becameActive])
    }

    @Test func theFirstDeclaredSystemThatAnswersIsSelectedInDeclarationOrder() {
        let card = ScriptedFeliCaCard([Self.common, Self.transit])
        let (lines, _, _) = run(["8008", "0003", "FE00"], card: card, [])
        // 8008 is not on the card; 0003 answers before FE00 is tried. __NFCTagType.feliCa is 2.
        #expect(lines == ["feliCa 0003 112E4CE445055B87 type 2", "connect 0"])
        #expect(card.frames.map { hex($0) }.suffix(2) == ["0080080000", "0000030000"])
    }

    @Test func aCardWithNoDeclaredSystemIsNotDelivered() {
        let card = ScriptedFeliCaCard([Self.common])
        let (lines, app, _) = run(["0003", "12FC"], card: card, [])
        #expect(lines.isEmpty)
        #expect(app.events == [.becameActive])
    }

    @Test func theDesktopProfileWithoutSystemCodesSelectsTheCardsFirstSystem() {
        let card = ScriptedFeliCaCard([Self.transit, Self.common])
        let (lines, _, _) = run([], card: card, profile: .desktop, [])
        #expect(lines == ["feliCa 0003 112E4CE445055B87 type 2", "connect 0"])
    }

    // MARK: polling

    @Test func pollingSelectsAnotherDeclaredSystemAndUpdatesTheSelection() {
        let card = ScriptedFeliCaCard([Self.common, Self.transit])
        let (lines, _, _) = run(
            ["FE00", "0003"], card: card,
            [
                { tag, done in
                    nonisolated(unsafe) let tag = tag
                    tag.polling(systemCode: Data([0x00, 0x03]), requestCode: .systemCode, timeSlot: .max4) {
                        pmm, rd, e in
                        done(
                            "poll \(hex(pmm)) \(hex(rd)) \(Pin.code(e)) now \(hex(tag.currentSystemCode)) "
                                + hex(tag.currentIDm))
                    }
                },
                { tag, done in
                    tag.polling(systemCode: Data([0xFE, 0x00]), requestCode: .noRequest, timeSlot: .max1) {
                        result in
                        guard case .success(let r) = result else { return done("failure") }
                        done("result \(hex(r.manufactureParameter)) \(r.requestData.map { hex($0) } ?? "nil")")
                    }
                },
                { tag, done in
                    nonisolated(unsafe) let tag = tag
                    tag.polling(
                        systemCode: Data([0xFE, 0x00]), requestCode: .communicationPerformance, timeSlot: .max16
                    ) { _, rd, e in done("performance \(hex(rd)) \(Pin.code(e)) \(hex(tag.currentIDm))") }
                },
            ])
        #expect(
            lines == [
                "feliCa FE00 012E4CE445055B87 type 2", "connect 0",
                "poll 00F1000000014300 0003 0 now 0003 112E4CE445055B87",
                "result 00F1000000014300 nil",
                "performance 0083 0 012E4CE445055B87",
            ])
        // Polling with the time slot number as Apple's raw values give it (max4 = 03, max16 = 0F).
        #expect(card.frames.map { hex($0) }.suffix(3) == ["0000030103", "00FE000000", "00FE00020F"])
    }

    @Test func pollingRefusesUndeclaredWildcardAndMisSizedCodesAndKeepsTheSelection() {
        let card = ScriptedFeliCaCard([Self.common, Self.transit])
        func poll(_ code: [UInt8]) -> Step {
            { tag, done in
                nonisolated(unsafe) let tag = tag
                tag.polling(systemCode: Data(code), requestCode: .noRequest, timeSlot: .max1) { _, _, e in
                    done(
                        "\(hex(code)) \(Pin.code(e)) \(hex(tag.currentSystemCode)) \(hex(tag.currentIDm))"
                    )
                }
            }
        }
        let (lines, _, _) = run(
            ["FE00"], card: card, [poll([0x00, 0x03]), poll([0xFF, 0xFF]), poll([0xFE]), poll([0x12, 0xFC])])
        #expect(
            lines.dropFirst(2) == [
                "0003 2 FE00 012E4CE445055B87", "FFFF 3 FE00 012E4CE445055B87", "FE 4 FE00 012E4CE445055B87",
                "12FC 2 FE00 012E4CE445055B87",
            ])
        #expect(card.frames.count == 1)
    }

    @Test func aPollingNoSystemAnswersEmptiesCurrentIDmAndLaterCommandsFail() {
        let card = ScriptedFeliCaCard([Self.common])
        card.answers[0x04] = [0x00]
        let (lines, _, _) = run(
            ["FE00", "0003"], card: card,
            [
                { tag, done in
                    nonisolated(unsafe) let tag = tag
                    tag.polling(systemCode: Data([0x00, 0x03]), requestCode: .noRequest, timeSlot: .max1) { _, _, e in
                        done("poll \(Pin.code(e)) \(hex(tag.currentSystemCode)) [\(hex(tag.currentIDm))]")
                    }
                },
                { tag, done in tag.requestResponse { _, e in done("requestResponse \(Pin.code(e))") } },
                { tag, done in
                    nonisolated(unsafe) let tag = tag
                    tag.polling(systemCode: Data([0xFE, 0x00]), requestCode: .noRequest, timeSlot: .max1) { _, _, e in
                        tag.requestResponse { mode, e2 in done("again \(Pin.code(e)) mode \(mode) \(Pin.code(e2))") }
                    }
                },
            ])
        #expect(lines.dropFirst(2) == ["poll 102 FE00 []", "requestResponse 102", "again 0 mode 0 0"])
    }

    // MARK: commands

    @Test func everyCommandPutsItsFrameOnTheAirAndDecodesItsAnswer() {
        let card = ScriptedFeliCaCard([Self.common])
        let block = Array(0x10..<0x20).map { UInt8($0) }
        card.answers = [
            0x02: [0x02, 0x00, 0x01, 0xFF, 0xFF],
            0x04: [0x03],
            0x06: [0x00, 0x00, 0x01] + block,
            0x08: [0x00, 0x00],
            0x0C: [0x02, 0xFE, 0x00, 0x00, 0x03],
            0x32: [0x00, 0x00, 0x41, 0x01, 0x10, 0x00, 0x20, 0x00],
            0x3C: [0x00, 0x00, 0x00, 0x00, 0x01, 0x01, 0x10, 0x00],
            0x3E: [0x00, 0x00],
        ]
        let (lines, _, _) = run(
            ["FE00"], card: card,
            [
                { t, done in
                    t.requestService(nodeCodeList: [Data([0x0B, 0x00]), Data([0x09, 0x10])]) { v, e in
                        done("requestService \(v.map { hex($0) }) \(Pin.code(e))")
                    }
                },
                { t, done in t.requestResponse { m, e in done("requestResponse \(m) \(Pin.code(e))") } },
                { t, done in
                    t.readWithoutEncryption(serviceCodeList: [Data([0x0B, 0x00])], blockList: [Data([0x80, 0x01])]) {
                        sf1, sf2, blocks, e in
                        done("read \(sf1) \(sf2) \(blocks.map { hex($0) }) \(Pin.code(e))")
                    }
                },
                { t, done in
                    t.writeWithoutEncryption(
                        serviceCodeList: [Data([0x09, 0x00])], blockList: [Data([0x00, 0x01, 0x00])],
                        blockData: [Data(block)]
                    ) { sf1, sf2, e in done("write \(sf1) \(sf2) \(Pin.code(e))") }
                },
                { t, done in t.requestSystemCode { c, e in done("systemCodes \(c.map { hex($0) }) \(Pin.code(e))") } },
                { t, done in
                    t.requestServiceV2(nodeCodeList: [Data([0x0B, 0x00])]) { sf1, sf2, id, aes, des, e in
                        done("v2 \(sf1) \(sf2) \(id) \(aes.map { hex($0) }) \(des.map { hex($0) }) \(Pin.code(e))")
                    }
                },
                { t, done in
                    t.requestSpecificationVersion { sf1, sf2, basic, option, e in
                        done("spec \(sf1) \(sf2) \(hex(basic)) \(hex(option)) \(Pin.code(e))")
                    }
                },
                { t, done in t.resetMode { sf1, sf2, e in done("reset \(sf1) \(sf2) \(Pin.code(e))") } },
                { t, done in
                    t.sendFeliCaCommand(commandPacket: Data([0x04] + Self.idmA)) { r, e in
                        done("send \(hex(r)) \(Pin.code(e))")
                    }
                },
            ])
        let hexBlock = hex(block)
        #expect(
            lines.dropFirst(2) == [
                "requestService [\"0001\", \"FFFF\"] 0", "requestResponse 3 0", "read 0 0 [\"\(hexBlock)\"] 0",
                "write 0 0 0", "systemCodes [\"FE00\", \"0003\"] 0", "v2 0 0 AES_DES [\"1000\"] [\"2000\"] 0",
                "spec 0 0 0001 1000 0", "reset 0 0 0", "send 05012E4CE445055B8703 0",
            ])
        let idm = hex(Self.idmA)
        #expect(
            card.frames.map { hex($0) }.dropFirst() == [
                "02\(idm)020B000910", "04\(idm)", "06\(idm)010B00018001", "08\(idm)010900010001" + "00" + hexBlock,
                "0C\(idm)", "32\(idm)010B00", "3C\(idm)0000", "3E\(idm)0000", "04\(idm)",
            ])
    }

    @Test func statusFlagsComeBackWithANilErrorAndNoBlocks() {
        let card = ScriptedFeliCaCard([Self.common])
        card.answers = [
            0x06: [0x01, 0xA8], 0x08: [0xFF, 0xA1], 0x32: [0xFF, 0xA1], 0x3C: [0x01, 0xA2], 0x3E: [0x02, 0xA5],
        ]
        let (lines, _, _) = run(
            ["FE00"], card: card,
            [
                { t, done in
                    t.readWithoutEncryption(serviceCodeList: [Data([0x0B, 0x00])], blockList: [Data([0x80, 0x99])]) {
                        result in
                        guard case .success(let (flags, blocks)) = result else { return done("failure") }
                        done("read \(flags.statusFlag1) \(flags.statusFlag2) \(blocks.count)")
                    }
                },
                { t, done in
                    t.writeWithoutEncryption(
                        serviceCodeList: [Data([0x09, 0x00])], blockList: [Data([0x80, 0x00])],
                        blockData: [Data(count: 16)]
                    ) { result in
                        guard case .success(let f) = result else { return done("failure") }
                        done("write \(f.statusFlag1) \(f.statusFlag2)")
                    }
                },
                { t, done in
                    t.requestServiceV2(nodeCodeList: [Data([0x0B, 0x00])]) { result in
                        guard case .success(let r) = result else { return done("failure") }
                        done(
                            "v2 \(r.statusFlag1) \(r.statusFlag2) \(r.nodeKeyVersionListAES == nil) "
                                + "\(r.nodeKeyVersionListDES == nil)")
                    }
                },
                { t, done in
                    t.requestSpecificationVersion { result in
                        guard case .success(let r) = result else { return done("failure") }
                        done(
                            "spec \(r.statusFlag1) \(r.statusFlag2) \(r.basicVersion == nil) \(r.optionVersion == nil)")
                    }
                },
                { t, done in
                    t.resetMode { result in
                        guard case .success(let f) = result else { return done("failure") }
                        done("reset \(f.statusFlag1) \(f.statusFlag2)")
                    }
                },
            ])
        #expect(
            lines.dropFirst(2) == [
                "read 1 168 0", "write 255 161", "v2 255 161 true true", "spec 1 162 true true", "reset 2 165",
            ])
    }

    @Test func parametersAreCheckedBeforeAnyFrameWithCoreNFCsCodes() {
        let card = ScriptedFeliCaCard([Self.common])
        let two = Data([0x0B, 0x00])
        @Sendable func line(_ name: String, _ e: (any Error)?) -> String { "\(name) \(Pin.code(e))" }
        let (lines, _, _) = run(
            ["FE00"], card: card,
            [
                { t, d in t.requestService(nodeCodeList: []) { _, e in d(line("0 nodes", e)) } },
                { t, d in
                    t.requestService(nodeCodeList: Array(repeating: two, count: 33)) { _, e in d(line("33 nodes", e)) }
                },
                { t, d in
                    t.requestServiceV2(nodeCodeList: [Data([0x0B])]) { _, _, _, _, _, e in d(line("1-byte node", e)) }
                },
                { t, d in
                    t.readWithoutEncryption(serviceCodeList: Array(repeating: two, count: 17), blockList: [two]) {
                        _, _, _, e in d(line("17 services", e))
                    }
                },
                { t, d in
                    t.readWithoutEncryption(serviceCodeList: [two], blockList: [Data([0x80])]) { _, _, _, e in
                        d(line("1-byte element", e))
                    }
                },
                { t, d in
                    t.readWithoutEncryption(serviceCodeList: [two], blockList: []) { _, _, _, e in
                        d(line("no blocks", e))
                    }
                },
                { t, d in
                    t.writeWithoutEncryption(
                        serviceCodeList: [two], blockList: [two, two], blockData: [Data(count: 16)]
                    ) {
                        _, _, e in d(line("2 elements 1 block", e))
                    }
                },
                { t, d in
                    t.writeWithoutEncryption(serviceCodeList: [two], blockList: [two], blockData: [Data(count: 15)]) {
                        _, _, e in d(line("15-byte block", e))
                    }
                },
                { t, d in
                    t.sendFeliCaCommand(commandPacket: Data()) { _, e in d(line("empty packet", e)) }
                },
                { t, d in
                    t.sendFeliCaCommand(commandPacket: Data([0x06] + Self.idmA + Array(repeating: 0, count: 246))) {
                        _, e in d(line("255-byte packet", e))
                    }
                },
                { t, d in
                    t.sendFeliCaCommand(commandPacket: Data([0x06] + Self.idmB)) { _, e in d(line("other IDm", e)) }
                },
                { t, d in
                    t.sendFeliCaCommand(commandPacket: Data([0x00, 0xFF, 0xFF, 0x00, 0x00])) { _, e in
                        d(line("raw Polling", e))
                    }
                },
                { t, d in t.sendFeliCaCommand(commandPacket: Data([0x04, 0x01])) { _, e in d(line("no IDm", e)) } },
            ])
        #expect(
            lines.dropFirst(2) == [
                "0 nodes 5", "33 nodes 5", "1-byte node 4", "17 services 5", "1-byte element 4", "no blocks 5",
                "2 elements 1 block 3", "15-byte block 4", "empty packet 4", "255-byte packet 105", "other IDm 2",
                "raw Polling 2", "no IDm 4",
            ])
        // Only the delivery's Polling reached the card.
        #expect(card.frames.count == 1)
    }

    @Test func aSilentOrGarbledAnswerIs102AndAShortOneCarriesTheLengthKey() {
        let card = ScriptedFeliCaCard([Self.common])
        card.answers = [0x04: [0x00, 0x00], 0x0C: [0x03, 0xFE, 0x00]]
        let errors = Shared<[any Error]>([])
        let (lines, _, _) = run(
            ["FE00"], card: card,
            [
                { t, d in
                    t.requestResponse { _, e in
                        errors.update { $0.append(e!) }
                        d("mode \(Pin.code(e))")
                    }
                },
                { t, d in t.requestSystemCode { _, e in d("systemCodes \(Pin.code(e))") } },
                { t, d in t.resetMode { _, _, e in d("reset (silent) \(Pin.code(e))") } },
            ])
        #expect(lines.dropFirst(2) == ["mode 102", "systemCodes 102", "reset (silent) 102"])
        let info = (errors.value.first as? NFCReaderError)?.userInfo[NFCTagResponseUnexpectedLengthErrorKey] as? Bool
        #expect(info == true)
    }

    @Test func theAsyncFormsReturnWhatTheCallbacksDo() async throws {
        let card = ScriptedFeliCaCard([Self.common, Self.transit])
        card.answers = [0x04: [0x01], 0x0C: [0x01, 0xFE, 0x00], 0x3E: [0x00, 0x00]]
        let phone = VirtualPhone(configuration: Self.configuration(["FE00", "0003"]))
        phone.put(card, at: 0)
        let app = TagSessionRecorder()
        let found = Shared<NFCTag?>(nil)
        app.onDetect = { _, tags in found.value = tags.first }
        let session = Pin.beginTagSession(phone, app, .iso18092)
        guard let tag = found.value, case .feliCa(let felica) = tag else {
            Issue.record("no FeliCa tag")
            return
        }
        try await session.connect(to: tag)
        let (pmm, rd) = try await felica.polling(
            systemCode: Data([0x00, 0x03]), requestCode: .systemCode, timeSlot: .max1)
        #expect(hex(pmm) == "00F1000000014300" && hex(rd) == "0003")
        #expect(hex(felica.currentIDm) == hex(Self.idmB))
        _ = try await felica.polling(systemCode: Data([0xFE, 0x00]), requestCode: .noRequest, timeSlot: .max1)
        #expect(try await felica.requestResponse() == 1)
        #expect(try await felica.requestSystemCode().map { hex($0) } == ["FE00"])
        let (sf1, sf2) = try await felica.resetMode()
        #expect(sf1 == 0 && sf2 == 0)
        await #expect(throws: NFCReaderError.self) { _ = try await felica.requestServiceV2(nodeCodeList: []) }
        session.invalidate()
    }

    @Test func theEnumsAndStructsHaveApplesValues() {
        #expect(NFCFeliCaPollingRequestCode.communicationPerformance.rawValue == 2)
        #expect(NFCFeliCaPollingTimeSlot.allRaw == [0, 1, 3, 7, 15])
        #expect(NFCFeliCaEncryptionId.AES.rawValue == 0x4F && NFCFeliCaEncryptionId.AES_DES.rawValue == 0x41)
        var r = NFCFeliCaRequsetServiceV2Response(
            statusFlag1: 0, statusFlag2: 0, encryptionIdentifier: .AES, nodeKeyVersionListAES: [],
            nodeKeyVersionListDES: nil)
        r.statusFlag2 = 1
        #expect(r.statusFlag2 == 1)
    }
}

extension NFCFeliCaPollingTimeSlot {
    fileprivate static var allRaw: [Int] { [Self.max1, .max2, .max4, .max8, .max16].map(\.rawValue) }
}
