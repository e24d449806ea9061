import OpenNFCRF
import OpenNFCTags
import OpenNFCTestSupport
import Testing

@testable import OpenNFCSystem

/// The per-session tag lifecycle as plain value transitions: its rules, and its invariants after every step of
/// seeded random sequences.
@Suite struct TagLifecycleTests {
    static let session = SessionID(raw: 7)

    static func entry(_ handle: Int, generation: Int) -> TagLifecycle.Entry {
        let target = RFTarget(
            .nfcA(NFCAActivation(uid: [0x04, UInt8(handle), 2, 3, 4, 5, 6], sensRes: 0x0044, selRes: 0)), handle: handle
        )
        let tag = DeliveredTag(
            reference: TagReference(session: session, generation: generation, handle: handle),
            kind: .miFare(.ultralight), identifier: target.identifier, historicalBytes: nil, applicationData: nil,
            technology: .nfcA)
        return TagLifecycle.Entry(tag: tag, identity: IdentifiedTag(target: target, kind: .type2(.ntag215)))
    }

    /// Polls `handles`, marks them seen and delivers them, as a scan does.
    static func pollAndDeliver(_ t: inout TagLifecycle, _ handles: [Int]) {
        t.forgetLeft(present: Set(handles))
        let new = handles.filter { t.markSeen($0) }
        t.deliver(new.map { entry($0, generation: t.generation) })
    }

    static func ref(_ t: TagLifecycle, _ handle: Int, generation: Int? = nil) -> TagReference {
        TagReference(session: session, generation: generation ?? t.generation, handle: handle)
    }

    static func code(_ body: () throws(SystemError) -> Void) -> SystemError.Code? {
        do {
            try body()
            return nil
        } catch {
            return error.code
        }
    }

    @Test func deliveryStopsPollingUntilARestartMakesOlderTagsStale() throws {
        var t = TagLifecycle()
        #expect(t.isPolling)
        Self.pollAndDeliver(&t, [1, 2])
        #expect(!t.isPolling)
        #expect(t.delivered.keys.sorted() == [1, 2])
        let old = Self.ref(t, 1)
        #expect(t.isAvailable(old))
        let r1 = t.restart()
        #expect(r1 == nil)
        #expect(t.isPolling && t.delivered.isEmpty && t.seen.isEmpty && t.generation == 1)
        #expect(!t.isAvailable(old))
        #expect(
            Self.code { () throws(SystemError) in _ = try t.check(old, requireConnected: false) } == .tagConnectionLost)
    }

    @Test func operationsNeedTheConnectionAndATagThatStayed() throws {
        var t = TagLifecycle()
        Self.pollAndDeliver(&t, [1, 2])
        let one = Self.ref(t, 1)
        #expect(
            Self.code { () throws(SystemError) in _ = try t.check(one, requireConnected: true) } == .tagNotConnected)
        let r2 = t.connect(1)
        #expect(r2)
        #expect(try t.check(one, requireConnected: true).tag.reference == one)
        // Connecting the other tag releases this one (the caller deactivates what disconnect returns).
        let r3 = t.disconnect()
        #expect(r3 == 1)
        let r4 = t.connect(2)
        #expect(r4)
        #expect(
            Self.code { () throws(SystemError) in _ = try t.check(one, requireConnected: true) } == .tagNotConnected)
        t.lose(2)
        #expect(t.connected == nil)
        let r5 = t.connect(2)
        #expect(!r5)
        #expect(
            Self.code { () throws(SystemError) in _ = try t.check(Self.ref(t, 2), requireConnected: false) }
                == .tagConnectionLost)
        let r6 = t.restart()
        #expect(r6 == nil)
    }

    @Test func aTagThatLeftAndCameBackIsNewOnlyWhilePolling() {
        var t = TagLifecycle()
        t.forgetLeft(present: [1])
        let r7 = t.markSeen(1)
        #expect(r7)
        let r8 = t.markSeen(1)
        #expect(!r8)
        t.forgetLeft(present: [])
        let r9 = t.markSeen(1)
        #expect(r9)
        // Delivered: polling waits, so nothing is forgotten.
        t.deliver([Self.entry(1, generation: 0)])
        t.forgetLeft(present: [])
        #expect(t.seen == [1])
    }

    @Test func deliveryRecordsOnlyTagsOfThisRoundThatWereSeen() {
        var t = TagLifecycle()
        let r10 = t.deliver([Self.entry(1, generation: 0)])
        #expect(r10 == 0)
        _ = t.markSeen(1)
        let r11 = t.deliver([Self.entry(1, generation: 3)])
        #expect(r11 == 0)
        #expect(t.isPolling)
        let r12 = t.deliver([Self.entry(1, generation: 0)])
        #expect(r12 == 1)
    }

    @Test func readOnlyFallbackHandsBackTheTagsAndPollsAgain() {
        var t = TagLifecycle()
        Self.pollAndDeliver(&t, [4, 5])
        let (entries, connected) = t.resumeReading()
        #expect(entries.keys.sorted() == [4, 5] && connected == nil)
        #expect(t.isPolling && t.delivered.isEmpty && t.seen == [4, 5])
    }

    @Test func updatesKeepTheReference() {
        var t = TagLifecycle()
        Self.pollAndDeliver(&t, [3])
        t.update(3) { tag in
            tag.feliCa = FeliCaSelection(systemCode: [0x12, 0xFC], idm: [1, 2, 3, 4, 5, 6, 7, 8], pmm: [])
            tag.reference = TagReference(session: SessionID(raw: 99), generation: 42, handle: 9)
        }
        #expect(t.delivered[3]?.tag.feliCa?.systemCode == [0x12, 0xFC])
        #expect(t.delivered[3]?.tag.reference == Self.ref(t, 3))
    }

    /// Seeded random sequences of every transition: the invariants hold after each step, and a restart always
    /// yields an empty round one generation later.
    @Test(arguments: [1, 2, 3, 4, 5, 6, 7, 8] as [UInt64])
    func invariantsHoldAfterEveryStep(seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        var t = TagLifecycle()
        for step in 0..<2_000 {
            let handle = Int.random(in: 1...4, using: &rng)
            switch Int.random(in: 0..<10, using: &rng) {
            case 0:
                let before = t.generation
                _ = t.restart()
                #expect(t.generation == before + 1)
                #expect(t.delivered.isEmpty && t.seen.isEmpty && t.gone.isEmpty && t.connected == nil && t.isPolling)
            case 1: t.forgetLeft(present: Set((1...4).filter { _ in Bool.random(using: &rng) }))
            case 2: _ = t.markSeen(handle)
            case 3: t.deliver([Self.entry(handle, generation: t.generation - Int.random(in: 0...1, using: &rng))])
            case 4: _ = t.connect(handle)
            case 5: _ = t.disconnect()
            case 6: t.lose(handle)
            case 7: _ = t.resumeReading()
            case 8: t.update(handle) { $0.supportsPACE.toggle() }
            default:
                let r = Self.ref(t, handle)
                let available = t.isAvailable(r)
                let passes = (try? t.check(r, requireConnected: false)) != nil
                #expect(available == passes)
            }
            let violations = t.violations
            #expect(violations.isEmpty, "seed \(seed) step \(step): \(violations)")
            if !violations.isEmpty { return }
        }
    }
}
