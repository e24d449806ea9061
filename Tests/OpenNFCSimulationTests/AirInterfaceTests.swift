import OpenNFCRF
import OpenNFCSimulation
import Testing

/// Minimal test chips for the NFC-B, NFC-F and NFC-V air interfaces (the real families bring their own chips).
final class TestTypeBCard: VirtualTag {
    let pupi: [UInt8]
    let afi: UInt8
    init(pupi: [UInt8], afi: UInt8 = 0x00) {
        self.pupi = pupi
        self.afi = afi
    }
    var chip: String { "test-type-b" }
    var activation: VirtualActivation {
        VirtualActivation(
            .nfcB(
                NFCBActivation(pupi: pupi, applicationData: [afi, 0x00, 0x00, 0x01], protocolInfo: [0x00, 0x81, 0x71])))
    }
    func reset() {}
    func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer { .data(frame + [0x90, 0x00]) }
}

/// A FeliCa card with one or more systems: answers Polling (JIS X 6319-4 §8.5.1) for a matching system code, with
/// `FF` wildcards, and echoes other commands with the response code (command + 1).
final class TestFeliCaCard: VirtualTag {
    let systems: [(code: UInt16, idm: [UInt8])]
    let pmm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]
    init(systems: [(code: UInt16, idm: [UInt8])]) { self.systems = systems }
    var chip: String { "test-felica" }
    var activation: VirtualActivation {
        VirtualActivation(.nfcF(NFCFActivation(idm: systems[0].idm, pmm: pmm, systemCode: systems[0].code)))
    }
    func reset() {}
    func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        guard let code = frame.first else { return .silence }
        if code == 0x00, frame.count == 5 {
            let hi = frame[1]
            let lo = frame[2]
            guard
                let s = systems.first(where: { s in
                    (hi == 0xFF || hi == UInt8(s.code >> 8)) && (lo == 0xFF || lo == UInt8(s.code & 0xFF))
                })
            else { return .silence }
            var r = [0x01] + s.idm + pmm
            if frame[3] == 0x01 { r += [UInt8(s.code >> 8), UInt8(s.code & 0xFF)] }
            return .data(r)
        }
        return .data([code + 1] + frame.dropFirst())
    }
}

/// An ISO 15693 tag: Inventory with AFI and mask (ISO/IEC 15693-3 §10.3.1), Stay Quiet, Reset to Ready and Read
/// Single Block of an 8-block memory.
final class TestVicinityTag: VirtualTag {
    let uid: [UInt8]  // MSB first
    let afi: UInt8
    var quiet = false
    init(uid: [UInt8], afi: UInt8 = 0x00) {
        self.uid = uid
        self.afi = afi
    }
    var chip: String { "test-vicinity" }
    var activation: VirtualActivation { VirtualActivation(.nfcV(NFCVActivation(uid: uid, dsfid: 0x00, afi: afi))) }
    func reset() {}
    func powerOn() { quiet = false }
    var uidValue: UInt64 { uid.reduce(UInt64(0)) { $0 << 8 | UInt64($1) } }
    func addressed(_ frame: [UInt8]) -> Bool {
        frame[0] & 0x20 == 0 || (frame.count >= 10 && Array(frame[2..<10]) == uid.reversed())
    }
    func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        guard frame.count >= 2 else { return .silence }
        let flags = frame[0]
        switch frame[1] {
        case 0x01 where flags & 0x04 != 0:
            guard !quiet else { return .silence }
            var i = 2
            if flags & 0x10 != 0 {
                guard frame.count > i, frame[i] == afi || frame[i] == 0 else { return .silence }
                i += 1
            }
            guard frame.count > i else { return .silence }
            let maskLength = Int(frame[i])
            let maskBytes = frame.dropFirst(i + 1)
            let mask = maskBytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << (8 * UInt64($1.offset)) }
            let low = maskLength == 0 ? 0 : uidValue & ((maskLength >= 64 ? ~0 : (UInt64(1) << UInt64(maskLength)) - 1))
            guard low == mask else { return .silence }
            return .data([0x00, 0x00] + uid.reversed())
        case 0x02 where addressed(frame):
            quiet = true
            return .silence
        case 0x26 where addressed(frame):
            quiet = false
            return .data([0x00])
        case 0x20 where addressed(frame):
            return .data([0x00, frame.last ?? 0, 0, 0, 0])
        default:
            return .silence
        }
    }
}

@Suite struct AirInterfaceTests {
    let clock = VirtualClock()

    @Test func nfcBPollsWithAFIActivatesWithATTRIBAndHaltsWithHLTB() throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field)
        field.place(TestTypeBCard(pupi: [0x11, 0x22, 0x33, 0x44], afi: 0x10))
        field.place(TestTypeBCard(pupi: [0x55, 0x66, 0x77, 0x88], afi: 0x21), at: 1)
        #expect(try fe.poll([.nfcB]).map(\.identifier) == [[0x11, 0x22, 0x33, 0x44], [0x55, 0x66, 0x77, 0x88]])
        #expect(try fe.poll(RFPollRequest(nfcB: .init(afi: 0x20))).map(\.identifier) == [[0x55, 0x66, 0x77, 0x88]])
        #expect(try fe.poll(RFPollRequest(nfcB: .init(afi: 0x01))).map(\.identifier) == [[0x55, 0x66, 0x77, 0x88]])
        #expect(try fe.poll([.nfcA, .nfcF, .nfcV]).isEmpty)

        let before = clock.now
        let t = try fe.activate(try fe.poll([.nfcB])[0])
        // On the air (docs/TIMING.md, ISO/IEC 14443-3 §7): WUPB 5 bytes = 12 + 50 + 10 etu = 9216 cycles, TR0 + TR1
        // 2304, ATQB 14 bytes = 162 etu = 20 736; TR2 1792, ATTRIB 11 bytes = 132 etu = 16 896, TR0 + TR1 2304, its
        // answer 3 bytes = 52 etu = 6656: 59 904 cycles in all.
        #expect(clock.now.duration(since: before) == AirTime(cycles: 59_904).duration)
        #expect(t.isISODEP && t.nfcB?.attribResponse == [0x00] && t.nfcB?.applicationData == [0x10, 0, 0, 1])
        #expect(try fe.exchange([0x00, 0xA4, 0x04, 0x00]) == .frame([0x00, 0xA4, 0x04, 0x00, 0x90, 0x00]))
        fe.deactivate()
        #expect(throws: RFError.self) { try fe.exchange([0x00]) }
        fe.pollsWithWakeUp = false
        // REQB: the halted card is silent.
        #expect(try fe.poll([.nfcB]).map(\.identifier) == [[0x55, 0x66, 0x77, 0x88]])
        fe.pollsWithWakeUp = true
        #expect(try fe.poll([.nfcB]).count == 2)  // WUPB wakes it
    }

    @Test func nfcFPollingGoesToTheCardsWithSystemCodesRequestCodesAndTimeSlots() throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field)
        let idm1: [UInt8] = [0x01, 0x2E, 0x4C, 0xC2, 0x08, 0x1F, 0x2B, 0x01]  // byte sum 400 → slot 0 of 16
        let idm2: [UInt8] = [0x02, 0xFE, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03]  // byte sum 259 → slot 3 of 16
        field.place(TestFeliCaCard(systems: [(0x12FC, idm1)]))
        field.place(TestFeliCaCard(systems: [(0x0003, idm2)]), at: 1)
        // One slot: both answer in it and collide; neither is received.
        #expect(try fe.poll([.nfcF]).isEmpty)
        // Sixteen slots: both found, in slot order.
        let all = try fe.poll(RFPollRequest(nfcF: .init(systemCode: 0xFFFF, timeSlots: 0x0F)))
        #expect(all.map(\.identifier) == [idm1, idm2])
        #expect(all.allSatisfy { $0.nfcF?.systemCode == nil && $0.nfcF?.requestData == nil })
        // A system code selects one card; request code 01 asks for its system code.
        let ndef = try fe.poll(RFPollRequest(nfcF: .init(systemCode: 0x12FC, requestCode: 0x01)))
        #expect(ndef.map(\.identifier) == [idm1])
        #expect(ndef[0].nfcF?.systemCode == 0x12FC && ndef[0].nfcF?.requestData == [0x12, 0xFC])
        // Activation keeps the last Polling answer; exchanges are FeliCa frames without LEN, timed at 212 kbit/s.
        let t = try fe.activate(ndef[0])
        #expect(t.nfcF?.systemCode == 0x12FC && !t.isISODEP)
        let before = clock.now
        let command: [UInt8] = [0x06] + idm1 + [0x01, 0x0B, 0x00, 0x01, 0x80, 0x00]
        let answer = try fe.exchange(command)
        #expect(answer == .frame([0x07] + command.dropFirst()))
        // JIS X 6319-4 §7: (6 + 2 + 1 + 15 + 2) bytes × 8 bits × 64/fc = 13 312 cycles each way, no least gap.
        #expect(clock.now.duration(since: before) == AirTime(cycles: 2 * 13_312).duration)
        #expect(try fe.poll(RFPollRequest(nfcF: .init(systemCode: 0x88B4))).isEmpty)
        #expect(try fe.poll(RFPollRequest(nfcF: .init(systemCode: 0x12FF))).map(\.identifier) == [idm1])
    }

    @Test func nfcVInventoryResolvesCollisionsWithMasksAndHonoursAFIAndQuiet() throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field)
        // The last UID byte is the first on the air: 0x15 and 0x25 share their low nibble (a collision in slot 5
        // of the first round, resolved with a 4-bit mask); 0x17 answers alone in slot 7.
        let a = TestVicinityTag(uid: [0xE0, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x15])
        let b = TestVicinityTag(uid: [0xE0, 0x04, 0x01, 0x00, 0x00, 0x00, 0x00, 0x25], afi: 0x07)
        let c = TestVicinityTag(uid: [0xE0, 0x02, 0x08, 0x00, 0x00, 0x00, 0x00, 0x17])
        for (i, tag) in [a, b, c].enumerated() { field.place(tag, at: i) }
        #expect(try fe.poll([.nfcV]).map(\.identifier) == [a.uid, b.uid, c.uid])
        #expect(try fe.poll(RFPollRequest(nfcV: .init(slots: 1))).map(\.identifier) == [a.uid, b.uid, c.uid])
        let filtered = try fe.poll(RFPollRequest(nfcV: .init(afi: 0x07, slots: 1)))
        #expect(filtered.map(\.identifier) == [b.uid] && filtered[0].nfcV?.afi == 0x07)
        #expect(filtered[0].nfcV?.icManufacturerCode == 0x04 && filtered[0].nfcV?.dsfid == 0x00)

        // Addressed Stay Quiet (ISO/IEC 15693-3 §10.4.3) keeps a tag out of later inventories until Reset to Ready.
        let t = try fe.activate(try fe.poll([.nfcV])[0])
        #expect(t.identifier == a.uid && !t.isISODEP)
        let stayQuiet: [UInt8] = [0x22, 0x02] + a.uid.reversed()
        #expect(throws: RFError(.timeout, "no answer")) { try fe.exchange(stayQuiet) }
        #expect(try fe.poll([.nfcV]).map(\.identifier) == [b.uid, c.uid])
        field.powerCycle()
        #expect(try fe.poll([.nfcV]).count == 3)
    }

    @Test func eachTechnologyIsTimedAtItsOwnRate() throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field)
        field.place(try Type2Tag.factory(.ntag213, uid: [0x04, 1, 2, 3, 4, 5, 6]))
        let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0xC2, 0x08, 0x1F, 0x2B, 0x01]
        field.place(TestFeliCaCard(systems: [(0x12FC, idm)]), at: 1)
        let targets = try fe.poll(Set(RFTechnology.allCases))
        #expect(targets.map(\.technology) == [.nfcA, .nfcF])

        _ = try fe.activate(targets[0])
        var before = clock.now
        _ = try fe.exchange([0x30, 0x00])
        // ISO/IEC 14443-3 §6.2: 1172 before 30 00 02 A8 (38 etu = 4864), FDT 1172 after A8 (parity 0), 18 bytes
        // (164 etu = 20 992): 28 200 cycles.
        #expect(clock.now.duration(since: before) == AirTime(cycles: 28_200).duration)

        _ = try fe.activate(targets[1])
        before = clock.now
        _ = try fe.exchange([0x0C] + idm)
        // 0C IDm is 9 bytes of payload: (11 + 9) × 8 × 64 = 10 240 cycles each way at 212 kbit/s.
        #expect(clock.now.duration(since: before) == AirTime(cycles: 2 * 10_240).duration)
        #expect(field.timing(for: .nfcV) == .iso15693High)
        #expect(VirtualField(clock: clock, timing: .instant).timing(for: .nfcF) == .instant)
    }
}
