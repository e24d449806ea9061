import OpenNFCRF
import OpenNFCSimulation
import Testing

/// A minimal ISO-DEP card for field tests: echoes each payload with `90 00` appended.
final class EchoISODEPTag: VirtualTag {
    var chip: String { "echo" }
    var activation: VirtualActivation {
        VirtualActivation(
            uid: [0x04, 0xAA, 0xBB, 0xCC, 0xDD, 0xEE, 0xFF], sensRes: 0x0344, selRes: 0x20,
            ats: [0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
    }
    var resets = 0
    func reset() { resets += 1 }
    func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer { .data(frame + [0x90, 0x00]) }
}

/// An ISO-DEP card with FWI 4 (FWT 4.83 ms; ATS `03 28 40`: T0 `28`, TB(1) follows and FSCI 8; TB(1) `40`) that
/// thinks `thinking` before each answer.
final class SlowISODEPTag: VirtualTag {
    let thinking: NFCDuration
    init(thinking: NFCDuration) { self.thinking = thinking }
    var chip: String { "slow" }
    var activation: VirtualActivation {
        VirtualActivation(
            uid: [0x04, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56], sensRes: 0x0344, selRes: 0x20,
            ats: [0x03, 0x28, 0x40])
    }
    func reset() {}
    func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer { .data([0x90, 0x00]) }
    func processingTime(for frame: [UInt8]) -> NFCDuration { thinking }
}

private func uid(_ last: UInt8) -> [UInt8] { [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, last] }

@Suite struct VirtualFieldTests {
    let clock = VirtualClock()

    @Test func pollActivateExchangeDeactivate() throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field)
        #expect(try fe.poll([.nfcA]).isEmpty)
        let tag = try Type2Tag.factory(.ntag215, uid: uid(1))
        field.place(tag)
        let targets = try fe.poll([.nfcA])
        #expect(targets.count == 1)
        #expect(targets[0].identifier == uid(1))
        #expect(targets[0].sensRes == 0x0044 && targets[0].selRes == 0x00 && targets[0].ats == nil)
        #expect(try fe.poll([.nfcF]).isEmpty)
        let t = try fe.activate(targets[0])
        #expect(!t.isISODEP)
        #expect(try fe.exchange([0x30, 0x03]).description.hasPrefix("E1103E00"))
        fe.deactivate()
        #expect(throws: RFError(.notActivated, "no tag is activated")) { try fe.exchange([0x30, 0x00]) }
    }

    @Test func severalTagsInPositionOrderAndSelectingAnotherIdlesTheFirst() throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field)
        let a = field.place(try Type2Tag.factory(.ntag213, uid: uid(1)), at: 2)
        let b = field.place(try Type2Tag.factory(.ultralight, uid: uid(2)), at: 1)
        let echo = EchoISODEPTag()
        let c = field.place(echo, at: 3)
        #expect(field.place(echo, at: 7) == c)  // already in the field
        #expect(field.tags.count == 3)
        #expect(try fe.poll([.nfcA]).map(\.handle) == [b, a, c])
        field.move(c, to: 0)
        #expect(try fe.poll([.nfcA]).map(\.handle) == [c, b, a])
        let targets = try fe.poll([.nfcA])
        _ = try fe.activate(targets[1])
        #expect(field.activeHandle == b)
        _ = try fe.activate(targets[2])
        #expect(field.activeHandle == a)
        #expect(try fe.exchange([0x60]) == .frame([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03]))
    }

    @Test func haltAndWakeUp() throws {
        let field = VirtualField(clock: clock)
        let h = field.place(try Type2Tag.factory(.ntag213, uid: uid(1)))
        _ = try field.activate(h, isoDEP: false)
        field.halt()
        #expect(field.poll([.nfcA], wakeUp: false).isEmpty)  // REQA: halted tags stay quiet
        #expect(field.poll([.nfcA], wakeUp: true).count == 1)  // WUPA wakes them
        // A raw HLTA frame halts too, and gets no answer.
        _ = try field.activate(h, isoDEP: false)
        #expect(throws: RFError(.timeout, "no answer")) { try field.exchange([0x50, 0x00]) }
        #expect(field.activeHandle == nil)
        #expect(field.poll([.nfcA], wakeUp: false).isEmpty)
        field.powerCycle()
        #expect(field.poll([.nfcA], wakeUp: false).count == 1)
        // REQA-polling frontend.
        let fe = VirtualFieldFrontend(field: field)
        fe.pollsWithWakeUp = false
        _ = try fe.activate(try fe.poll([.nfcA])[0])
        fe.deactivate()
        #expect(try fe.poll([.nfcA]).isEmpty)
    }

    @Test func isoDEPActivationByRATS() throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field)
        let tag = EchoISODEPTag()
        field.place(tag)
        let target = try fe.poll([.nfcA])[0]
        #expect(target.ats == nil && target.isISODEP)  // SAK 20 says ISO-DEP before RATS
        let t = try fe.activate(target)
        #expect(t.ats == [0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
        #expect(try fe.exchange([0x00, 0xA4, 0x04, 0x00]) == .frame([0x00, 0xA4, 0x04, 0x00, 0x90, 0x00]))
        // Level-3 activation: only a raw RATS gets an answer, the ATS.
        let l3 = try fe.activate(target, isoDEP: false)
        #expect(l3.ats == nil)
        #expect(try fe.exchange([0xE0, 0x80]) == .frame([0x06, 0x75, 0x77, 0x81, 0x02, 0x80]))
        #expect(try fe.exchange([0x60]) == .frame([0x60, 0x90, 0x00]))
        #expect(tag.resets == 3)  // power-up, then each activation
    }

    @Test func muteAfterNAKClearedByReactivation() throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field)
        field.place(try Type2Tag.factory(.ntag216, uid: uid(1)))
        let target = try fe.activate(try fe.poll([.nfcA])[0])
        #expect(try fe.exchange([0x30, 0xE7]) == .nak(0))
        #expect(throws: RFError(.timeout, "no answer")) { try fe.exchange([0x30, 0x00]) }
        _ = try fe.activate(target)
        #expect(try fe.exchange([0x30, 0xE6]).description.count == 32)
    }

    @Test func removedTagLosesTheLink() throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field)
        let h = field.place(try Type2Tag.factory(.ntag213, uid: uid(1)))
        _ = try fe.activate(try fe.poll([.nfcA])[0])
        field.remove(h)
        #expect(throws: RFError(.linkLost, "the tag left the field")) { try fe.exchange([0x30, 0x00]) }
        #expect(throws: RFError(.notActivated, "no tag is activated")) { try fe.exchange([0x30, 0x00]) }
    }

    @Test func faultRemoveAfterFrame() throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field)
        field.place(try Type2Tag.factory(.ntag213, uid: uid(1)))
        _ = try fe.activate(try fe.poll([.nfcA])[0])
        field.faultPlan = FaultPlan([.removeAfter(frame: 2)])
        _ = try fe.exchange([0x30, 0x00])
        _ = try fe.exchange([0x30, 0x04])  // answered, then the tag leaves
        #expect(field.tags.isEmpty)
        #expect(throws: RFError(.linkLost, "the tag left the field")) { try fe.exchange([0x30, 0x00]) }
    }

    @Test func faultTearKeepsPageWholeOrUntouched() throws {
        for bytes in 0...4 {
            let field = VirtualField(clock: clock)
            let fe = VirtualFieldFrontend(field: field)
            let tag = try Type2Tag.factory(.ntag213, uid: uid(1))
            field.place(tag)
            _ = try fe.activate(try fe.poll([.nfcA])[0])
            field.faultPlan = FaultPlan([.tear(frame: 1, afterBytes: bytes)])
            #expect(throws: RFError(.linkLost, "the tag left the field during the exchange")) {
                try fe.exchange([0xA2, 0x04, 0xAA, 0xBB, 0xCC, 0xDD])
            }
            let page = Array(tag.memory[16..<20])
            #expect(page == (bytes >= 4 ? [0xAA, 0xBB, 0xCC, 0xDD] : [0x01, 0x03, 0xA0, 0x0C]))
        }
    }

    @Test func faultMuteAndInjectedErrors() throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field)
        let tag = try Type2Tag.factory(.ntag213, uid: uid(1))
        field.place(tag)
        let target = try fe.activate(try fe.poll([.nfcA])[0])
        field.faultPlan = FaultPlan([
            .error(frame: 1, code: .transmission, tagProcesses: true),
            .error(frame: 2, code: .timeout, tagProcesses: false),
            .mute(fromFrame: 4),
        ])
        #expect(throws: RFError(.transmission, "injected on frame 1")) {
            try fe.exchange([0xA2, 0x04, 1, 2, 3, 4])
        }
        #expect(tag.memory[16..<20] == [1, 2, 3, 4])  // processed, answer corrupted
        #expect(throws: RFError(.timeout, "injected on frame 2")) { try fe.exchange([0xA2, 0x05, 1, 2, 3, 4]) }
        #expect(tag.memory[20..<24] == [0x34, 0x03, 0x00, 0xFE])  // never reached the tag
        #expect(try fe.exchange([0x30, 0x04]) != .ack)
        #expect(throws: RFError(.timeout, "no answer (tag mute)")) { try fe.exchange([0x30, 0x04]) }
        #expect(throws: RFError(.timeout, "the tag does not answer WUPA")) { try fe.activate(target) }
        #expect(try fe.poll([.nfcA]).isEmpty)
    }

    @Test func latencyAndAirTimeAdvanceTheVirtualClock() throws {
        let field = VirtualField(clock: clock, timing: .instant)
        let fe = VirtualFieldFrontend(field: field)
        field.place(try Type2Tag.factory(.ntag213, uid: uid(1)))
        _ = try fe.activate(try fe.poll([.nfcA])[0])
        field.faultPlan = FaultPlan([.latency(.milliseconds(3), frame: nil), .latency(.milliseconds(10), frame: 2)])
        _ = try fe.exchange([0x30, 0x00])
        #expect(clock.now == NFCInstant(nanoseconds: 3_000_000))
        _ = try fe.exchange([0x30, 0x00])
        #expect(clock.now == NFCInstant(nanoseconds: 16_000_000))
        _ = try fe.exchange([0xA2, 0x04, 1, 2, 3, 4])  // plus 4.1 ms EEPROM programming
        #expect(clock.now == NFCInstant(nanoseconds: 23_100_000))
        // Default timing (docs/TIMING.md): a READ costs the least gap after the previous answer (1172/fc), the
        // command 30 00 02 A8 (4 × 9 + 2 = 38 etu of 128/fc = 4864 cycles), the FDT after A8's parity bit 0
        // (9·128 + 20 = 1172, ISO/IEC 14443-3 §6.2.1.1) and the 18-byte answer (164 etu = 20 992): 28 200 cycles.
        let clock2 = VirtualClock()
        let field2 = VirtualField(clock: clock2)
        let h = field2.place(try Type2Tag.factory(.ntag213, uid: uid(1)))
        _ = try field2.activate(h, isoDEP: false)
        let before = clock2.now
        _ = try field2.exchange([0x30, 0x00])
        #expect(clock2.now.duration(since: before) == AirTime(cycles: 1172 + 4864 + 1172 + 20_992).duration)
    }

    @Test func onlyCommittedWritesCostProgrammingTime() throws {
        let field = VirtualField(clock: clock, timing: .instant)
        let h = field.place(try Type2Tag.factory(.ntag213, uid: uid(1)))
        _ = try field.activate(h, isoDEP: false)
        #expect(try field.exchange([0xA0, 0x05]) == .ack)  // COMPATIBILITY WRITE part 1: nothing programmed yet
        #expect(clock.now == NFCInstant(nanoseconds: 0))
        #expect(try field.exchange([UInt8](repeating: 7, count: 16)) == .ack)  // part 2 programs the page
        #expect(clock.now == NFCInstant(nanoseconds: 4_100_000))
        #expect(try field.exchange([0xA2, 0x00, 1, 2, 3, 4]) == .nak(0))  // refused: no programming
        #expect(clock.now == NFCInstant(nanoseconds: 4_100_000))
    }

    @Test func frontendLimits() throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field, capabilities: .simulatedACR122U)
        field.place(try Type2Tag.factory(.ntag216, uid: uid(1)))
        _ = try fe.activate(try fe.poll([.nfcA])[0])
        #expect(try fe.exchange([0x3A, 0x00, 0x3E]).description.count == 63 * 8)  // 252 bytes fit
        #expect(throws: RFError(.frameTooLong, "answer of 256 bytes exceeds the frontend's 252-byte limit")) {
            try fe.exchange([0x3A, 0x00, 0x3F])
        }
        #expect(throws: RFError(.frameTooLong, "command of 253 bytes exceeds the frontend's 252-byte limit")) {
            try fe.exchange([UInt8](repeating: 0, count: 253))
        }
        #expect(try fe.poll([.nfcV]).isEmpty)
        var caps = RFCapabilities.simulatedIPhone
        caps.rawFrames = false
        let storageOnly = VirtualFieldFrontend(field: field, capabilities: caps)
        _ = try storageOnly.activate(try storageOnly.poll([.nfcA])[0])
        #expect(throws: RFError(.unsupported, "this frontend cannot send raw frames to a level-3 tag")) {
            try storageOnly.exchange([0x30, 0x00])
        }
    }

    @Test func scheduledArrivalDepartureAndObserver() throws {
        let field = VirtualField(clock: clock)
        var events: [VirtualField.Event] = []
        field.addObserver { events.append($0) }
        let tag = try Type2Tag.factory(.ntag213, uid: uid(1))
        field.place(tag, after: .seconds(2))
        #expect(field.tags.isEmpty)
        clock.advanceToNextTimer()
        #expect(clock.now == NFCInstant(nanoseconds: 2_000_000_000))
        let h = field.tags[0].handle
        #expect(events == [.placed(handle: h)])
        field.moveOut(h, for: .milliseconds(500))
        #expect(field.tags.isEmpty)
        clock.advance(by: .seconds(1))
        #expect(field.tags.count == 1 && field.tags[0].handle != h)
        let h2 = field.tags[0].handle
        field.remove(h2)
        let h3 = field.place(tag, for: .milliseconds(100))
        clock.advance(by: .milliseconds(100))
        #expect(field.tags.isEmpty)
        #expect(
            events == [
                .placed(handle: h), .removed(handle: h), .placed(handle: h2), .removed(handle: h2),
                .placed(handle: h3), .removed(handle: h3),
            ])
    }

    @Test func transcriptRecordsEveryFrameWithTime() throws {
        let field = VirtualField(clock: clock, timing: .instant, recording: true)
        let h = field.place(try Type2Tag.factory(.ntag213, uid: uid(1)))
        _ = try field.activate(h, isoDEP: false)
        _ = try field.exchange([0xA2, 0x04, 1, 2, 3, 4])
        _ = try? field.exchange([0x30, 0x99])
        _ = try? field.exchange([0x30, 0x00])
        #expect(
            field.transcript.frames == [
                .command([0xA2, 0x04, 1, 2, 3, 4]), .answer(.ack), .command([0x30, 0x99]), .answer(.nak(0)),
                .command([0x30, 0x00]), .failure(RFError(.timeout, "no answer")),
            ])
        let text = field.transcript.description
        #expect(text.contains("placed ntag213 UID 04102030405001 at 0"))
        #expect(text.contains("4.1 ms #\(h) < ACK"))
        #expect(text.contains("> 30 99"))
    }

    /// A card that thinks past its FWT sends S(WTX) (ISO/IEC 14443-4 §7.3): the request and the reader's response
    /// are on the air, and the card goes on thinking while they travel, so the exchange lasts its frames plus what
    /// of the thinking outlasts the S(WTX) frames. Within the FWT there is none.
    @Test(arguments: [(12, [UInt8](arrayLiteral: 2)), (3, [])])
    func aSlowISODEPCardAsksForMoreTime(milliseconds: Int, wtxm: [UInt8]) throws {
        let field = VirtualField(clock: clock)
        let fe = VirtualFieldFrontend(field: field)
        field.place(SlowISODEPTag(thinking: .milliseconds(UInt64(milliseconds))))
        let t = try fe.activate(try #require(try fe.poll([.nfcA]).first))
        #expect(t.isISODEP)
        let before = clock.now
        #expect(try fe.exchange([0x00, 0xB0, 0x00, 0x00, 0x00]) == .frame([0x90, 0x00]))
        let air = field.lastExchangeAir
        let requests = air.filter { $0.label == "S(WTX)" }
        #expect(requests.map { $0.bytes[1] } == wtxm)
        #expect(air.filter { $0.label == "S(WTX) answer" }.map(\.bytes) == requests.map(\.bytes))
        let extensions = air.filter { $0.label.hasPrefix("S(WTX)") }.total().duration.nanoseconds
        let thinking = UInt64(milliseconds) * 1_000_000
        let expected = air.total().duration.nanoseconds + (thinking > extensions ? thinking - extensions : 0)
        #expect(clock.now.duration(since: before).nanoseconds == expected)
    }
}
