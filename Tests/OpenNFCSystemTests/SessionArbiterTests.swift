import OpenNFCSystem
import Testing

/// The arbiter's rules as plain event → action sequences.
@Suite struct SessionArbiterTests {
    @Test func firstSessionActivatesAtOnce() {
        var a = SessionArbiter()
        let s = a.create()
        #expect(a.phase(of: s) == .created)
        #expect(a.begin(s) == [.activate(s)])
        #expect(a.active == s)
    }

    @Test func laterSessionsWaitInFIFOOrder() {
        var a = SessionArbiter()
        let (s1, s2, s3) = (a.create(), a.create(), a.create())
        #expect(a.begin(s1) == [.activate(s1)])
        #expect(a.begin(s3) == [])
        #expect(a.begin(s2) == [])
        #expect(a.waiting == [s3, s2])
        #expect(
            a.invalidate(s1) == [.invalidate(s1, .invalidatedByApp, wasActive: true, repeated: false), .activate(s3)])
        #expect(
            a.deadlineExpired(s3) == [
                .invalidate(s3, .sessionTimeout, wasActive: true, repeated: false), .activate(s2),
            ])
        #expect(a.userTappedCancel() == [.invalidate(s2, .userCanceled, wasActive: true, repeated: false)])
        #expect(a.active == nil)
    }

    @Test func beginTwiceWhileRunningDoesNothing() {
        var a = SessionArbiter()
        let s = a.create()
        _ = a.begin(s)
        #expect(a.begin(s) == [])
    }

    @Test func invalidatedSessionNeverRestartsAndRepeatsItsReason() {
        var a = SessionArbiter()
        let s = a.create()
        _ = a.begin(s)
        _ = a.deadlineExpired(s)
        #expect(a.begin(s) == [.invalidate(s, .sessionTimeout, wasActive: false, repeated: true)])
        #expect(a.invalidate(s) == [])
        #expect(a.active == nil)
    }

    @Test func staleDeadlineOfAnEndedSessionIsIgnored() {
        var a = SessionArbiter()
        let (s1, s2) = (a.create(), a.create())
        _ = a.begin(s1)
        _ = a.begin(s2)
        _ = a.invalidate(s1)
        #expect(a.deadlineExpired(s1) == [])
        #expect(a.active == s2)
    }

    @Test func backgroundEndsActiveThenWaitingWith202() {
        var a = SessionArbiter()
        let (s1, s2) = (a.create(), a.create())
        _ = a.begin(s1)
        _ = a.begin(s2)
        #expect(
            a.appDidEnterBackground() == [
                .invalidate(s1, .terminatedUnexpectedly, wasActive: true, repeated: false),
                .invalidate(s2, .terminatedUnexpectedly, wasActive: false, repeated: false),
            ])
        let s3 = a.create()
        #expect(a.begin(s3) == [.invalidate(s3, .terminatedUnexpectedly, wasActive: false, repeated: false)])
        a.appWillEnterForeground()
        let s4 = a.create()
        #expect(a.begin(s4) == [.activate(s4)])
    }

    @Test func refusedSessionEndsWithoutActivating() {
        var a = SessionArbiter()
        let s = a.create()
        let refusal = InvalidationReason.securityViolation("no entitlement")
        #expect(a.begin(s, refusal: refusal) == [.invalidate(s, refusal, wasActive: false, repeated: false)])
        #expect(a.active == nil)
    }

    @Test func invalidateBeforeBeginReportsOnceAndBlocksBegin() {
        var a = SessionArbiter()
        let s = a.create()
        #expect(a.invalidate(s) == [.invalidate(s, .invalidatedByApp, wasActive: false, repeated: false)])
        #expect(a.begin(s) == [.invalidate(s, .invalidatedByApp, wasActive: false, repeated: true)])
    }

    @Test func cancelWithNoActiveSessionDoesNothing() {
        var a = SessionArbiter()
        #expect(a.userTappedCancel() == [])
    }

    @Test func forgettingTheActiveSessionPromotesTheNext() {
        var a = SessionArbiter()
        let (s1, s2) = (a.create(), a.create())
        _ = a.begin(s1)
        _ = a.begin(s2)
        #expect(a.forget(s1) == [.invalidate(s1, .invalidatedByApp, wasActive: true, repeated: false), .activate(s2)])
        #expect(a.phase(of: s1) == nil)
    }
}
