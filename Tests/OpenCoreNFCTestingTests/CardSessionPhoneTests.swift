import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import Testing

func hceConfiguration(_ prefixes: [String]) -> AppConfiguration {
    var c = AppConfiguration()
    c.hostCardEmulation = true
    c.hceSelectIdentifierPrefixes = prefixes
    return c
}

/// A short name for an event (its case, and the reason of the last one).
func name(_ e: CardSession.Event?) -> String {
    switch e {
    case nil: "end"
    case .sessionStarted?: "sessionStarted"
    case .readerDetected?: "readerDetected"
    case .readerDeselected?: "readerDeselected"
    case .received?: "received"
    case .sessionInvalidated(let reason)?: "sessionInvalidated(\(reason))"
    }
}

func hex(_ s: String) -> [UInt8] {
    var out: [UInt8] = []
    var k = s.startIndex
    let t = s.filter { !$0.isWhitespace }
    k = t.startIndex
    while k < t.endIndex {
        let n = t.index(k, offsetBy: 2)
        out.append(UInt8(t[k..<n], radix: 16)!)
        k = n
    }
    return out
}

/// The iPhone's card-emulation rules on the virtual phone, each pinned against the virtual terminal.
@Suite struct CardSessionPhoneTests {
    @Test func aHandlerWrittenFromApplesDocumentationAnswersTheTerminal() throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]))
        let app = LoyaltyCardApp()
        phone.launch { await app.run() }
        phone.settle()
        #expect(phone.isEmulatingCard)
        #expect(phone.sheet.isPresented && phone.sheet.title == "Hold Near Reader")
        #expect(phone.sheetText == "Hold near the loyalty reader.")
        let terminal = VirtualTerminal(phone: phone)
        terminal.bringField()
        #expect(try terminal.select(aid: LoyaltyCardApp.aid).statusWord == 0x9000)
        let member = try terminal.send([0x80, 0xCA, 0x00, 0x00, 0x00])
        #expect(member.data == Array("MEMBER-0042".utf8) && member.statusWord == 0x9000)
        terminal.removeField()
        #expect(!phone.isEmulatingCard)
        #expect(
            app.log.all == [
                "started", "reader detected", "reader deselected", "invalidated userInvalidated assertion valid true",
            ])
        #expect(terminal.transcriptText == "00A4040006F04C4F59414C00 -> 9000\n80CA000000 -> 4D454D4245522D303034329000")
        #expect(phone.transcriptText([.sheet]).contains("success"))
    }

    @Test func aSelectForAnotherAIDNeverReachesTheApp() throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]))
        let app = LoyaltyCardApp()
        phone.launch { await app.run() }
        let terminal = VirtualTerminal(phone: phone)
        terminal.bringField()
        // A payment AID the app did not declare: the system answers 6A 82 itself.
        #expect(try terminal.select(aid: hex("A0000000031010")).statusWord == 0x6A82)
        #expect(try terminal.send([0x80, 0xCA, 0x00, 0x00, 0x00]).statusWord == 0x6D00)
        #expect(!phone.transcriptText([.app]).contains("received"))
        #expect(try terminal.select(aid: LoyaltyCardApp.aid).statusWord == 0x9000)
        #expect(phone.transcriptText([.app]).contains("received APDU 1"))
    }

    @Test func initTrapsWithoutTheEntitlementOrOnAnUnsupportedPhone() async {
        let phone = VirtualPhone()
        _ = await phone.run {
            await #expect(throws: CardSession.Error.systemNotAvailable) { _ = try await CardSession() }
        }
        #expect(phone.traps == ["CardSession: missing entitlement com.apple.developer.nfc.hce"])
        var noPrefix = AppConfiguration()
        noPrefix.hostCardEmulation = true
        noPrefix.hceSelectIdentifierPrefixes = ["F0"]  // shorter than a RID: skipped
        let second = VirtualPhone(configuration: noPrefix)
        await second.run { _ = try? await CardSession() }
        #expect(second.traps.first?.contains("select-identifier-prefixes") == true)
        let unsupported = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]))
        unsupported.cardEmulation = .unsupported
        let supported = unsupported.run { CardSession.isSupported }
        #expect(!supported)
        await unsupported.run { _ = try? await CardSession() }
        #expect(unsupported.traps.first?.contains("not supported") == true)
        let withoutNFC = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]), hasReader: false)
        #expect(!withoutNFC.run { CardSession.isSupported })
    }

    @Test func eligibilityComesFromThePhone() async throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]))
        #expect(await phone.run { await CardSession.isEligible })
        phone.cardEmulation = .ineligible
        #expect(await !phone.run { await CardSession.isEligible })
        let session = try await phone.run { try await CardSession() }
        await #expect(throws: CardSession.Error.systemEligibilityFailed) { try await session.startEmulation() }
        phone.cardEmulation = .accessNotAccepted
        await #expect(throws: CardSession.Error.accessNotAccepted) { try await session.startEmulation() }
        phone.cardEmulation = .eligible
        try await session.startEmulation()
        #expect(await session.isEmulationInProgress)
        session.invalidate()
        _ = session.eventStream.makeAsyncIterator()
    }

    @Test func oneSessionAtATimeAndRestartOnlyWithANewInstance() async throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]))
        let first = try await phone.run { try await CardSession() }
        _ = first.eventStream.makeAsyncIterator()
        _ = await phone.run {
            await #expect(throws: CardSession.Error.systemNotAvailable) { _ = try await CardSession() }
        }
        first.invalidate()
        await #expect(throws: CardSession.Error.systemNotAvailable) { try await first.startEmulation() }
        let second = try await phone.run { try await CardSession() }
        _ = second.eventStream.makeAsyncIterator()
        try await second.startEmulation()
        #expect(await second.isEmulationInProgress)
        second.invalidate()
    }

    @Test func emulationLastsSixtySecondsAndStoppingStartsACoolDown() async throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]))
        let session = try await phone.run { try await CardSession() }
        let events = session.eventStream.makeAsyncIterator()
        #expect(name(try await events.next()) == "sessionStarted")
        try await session.startEmulation()
        await session.stopEmulation(status: .failure)
        #expect(phone.transcriptText([.sheet]).contains("failure"))
        phone.advance(by: .seconds(14))
        await #expect(throws: CardSession.Error.systemNotAvailable) { try await session.startEmulation() }
        phone.advance(by: .seconds(1))
        try await session.startEmulation()
        phone.advance(by: .seconds(60))
        #expect(name(try await events.next()) == "sessionInvalidated(maxSessionDurationReached)")
        #expect(name(try await events.next()) == "end")
        #expect(!phone.sheet.isPresented)
    }

    @Test func respondTwiceTraps() throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]))
        let app = doubleResponder()
        phone.launch { await app.run() }
        let terminal = VirtualTerminal(phone: phone)
        terminal.bringField()
        #expect(try terminal.select(aid: LoyaltyCardApp.aid).statusWord == 0x9000)
        #expect(phone.traps.count == 1 && phone.traps[0].contains("more than once"))
    }

    @Test func aTornExchangeMakesRespondATransmissionErrorThatMayBeRetried() throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]))
        let app = TearRecorder()
        phone.launch { await app.run() }
        let terminal = VirtualTerminal(phone: phone)
        terminal.bringField()
        terminal.sendAndTear([0x00, 0xA4, 0x04, 0x00, 0x06] + LoyaltyCardApp.aid + [0x00])
        phone.launch { await app.answerTwice() }
        phone.settle()
        #expect(app.log.all == ["transmissionError", "transmissionError"])
        #expect(terminal.exchanges.last?.response == nil)
    }

    @Test func anAPDULeftUnansweredEndsEmulation() throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]))
        let app = droppingApp()
        phone.launch { await app.run() }
        let terminal = VirtualTerminal(phone: phone)
        terminal.bringField()
        #expect(throws: VirtualTerminal.Failure.noAnswer) { try terminal.select(aid: LoyaltyCardApp.aid) }
        #expect(!phone.isEmulatingCard)
        #expect(phone.transcriptText([.system]).contains("released unanswered"))
    }

    @Test func theFieldOpensWalletWithoutAnAssertionAndTheAssertionLasts15s() async throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]))
        let session = try await phone.run { try await CardSession() }
        let events = session.eventStream.makeAsyncIterator()
        _ = try await events.next()
        let terminal = VirtualTerminal(phone: phone)
        terminal.bringField()
        #expect(phone.transcriptText([.system]).contains("Wallet opens"))
        #expect(name(try await events.next()) == "sessionInvalidated(invalidated)")
        terminal.removeField()
        phone.foregroundApp()
        let assertion = try await phone.run { try await NFCPresentmentIntentAssertion.acquire() }
        #expect(assertion.isValid)
        phone.advance(by: .seconds(15))
        #expect(!assertion.isValid)
        _ = await phone.run {
            await #expect(throws: NFCPresentmentIntentAssertion.Error.systemNotAvailable) {
                _ = try await NFCPresentmentIntentAssertion.acquire()
            }
        }
        phone.advance(by: .seconds(15))
        let again = try await phone.run { try await NFCPresentmentIntentAssertion.acquire() }
        phone.backgroundApp()
        #expect(!again.isValid)
    }

    /// `startEmulation()` shows the card-emulation sheet with `alertMessage` (updated live), `stopEmulation(status:)`
    /// closes it with its mark; sending the app to the background ends the session with `invalidated`.
    @Test func theSheetShowsTheAlertMessageAndBackgroundingEndsTheSession() async throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]))
        let session = try await phone.run { try await CardSession() }
        let events = session.eventStream.makeAsyncIterator()
        #expect(name(try await events.next()) == "sessionStarted")
        session.alertMessage = "Hold near the reader."
        try await session.startEmulation()
        #expect(phone.sheet.isPresented && phone.sheet.title == "Hold Near Reader")
        #expect(phone.sheet.message == "Hold near the reader.")
        session.alertMessage = "Keep holding."
        #expect(phone.sheet.message == "Keep holding.")
        await session.stopEmulation(status: .success)
        #expect(phone.transcriptText([.sheet]).contains("success"))
        phone.backgroundApp()
        #expect(name(try await events.next()) == "sessionInvalidated(invalidated)")
        #expect(name(try await events.next()) == "end")
        #expect(!phone.sheet.isPresented)
    }

    @Test func lockingThePhoneEndsTheSessionAndAReaderSessionIsBusyMeanwhile() async throws {
        let phone = VirtualPhone(configuration: hceConfiguration(["F04C4F5941"]))
        let session = try await phone.run { try await CardSession() }
        let events = session.eventStream.makeAsyncIterator()
        _ = try await events.next()
        let recorder = NDEFMessageRecorder()
        phone.run { NFCNDEFReaderSession(delegate: recorder, queue: nil, invalidateAfterFirstRead: true).begin() }
        phone.settle()
        #expect(recorder.invalidationCode == .readerSessionInvalidationErrorSystemIsBusy)
        phone.lock()
        #expect(name(try await events.next()) == "sessionInvalidated(invalidated)")
    }
}

/// A card app that emulates as soon as its session starts and hands each APDU to `onAPDU` (the rule tests vary only
/// that): optionally holding a presentment assertion first.
final class EmulatingApp: @unchecked Sendable {
    let log = HandlerLog()
    private let lock = NSLock()
    private var session: CardSession?
    private let withAssertion: Bool
    private let onAPDU: @Sendable (CardSession.APDU) async throws -> Void

    init(withAssertion: Bool = false, onAPDU: @escaping @Sendable (CardSession.APDU) async throws -> Void) {
        self.withAssertion = withAssertion
        self.onAPDU = onAPDU
    }

    func invalidate() { lock.withLock { session }?.invalidate() }

    func run() async {
        do {
            let assertion = withAssertion ? try await NFCPresentmentIntentAssertion.acquire() : nil
            let s = try await CardSession()
            lock.withLock { session = s }
            for try await event in s.eventStream {
                switch event {
                case .sessionStarted: try await s.startEmulation()
                case .received(let apdu): try await onAPDU(apdu)
                default: break
                }
            }
            _ = assertion
        } catch {
            log.add("error \(error)")
        }
    }
}

/// Holds the first APDU until told, then answers it twice (after the terminal tore the exchange).
final class TearRecorder: @unchecked Sendable {
    let held = Held()
    let app: EmulatingApp
    var log: HandlerLog { app.log }

    init() { app = EmulatingApp(withAssertion: true) { [held] apdu in held.set(apdu) } }

    final class Held: @unchecked Sendable {
        private let lock = NSLock()
        private var apdu: CardSession.APDU?
        func set(_ a: CardSession.APDU) { lock.withLock { apdu = a } }
        func get() -> CardSession.APDU? { lock.withLock { apdu } }
    }

    func run() async { await app.run() }

    /// Answers the held APDU twice: both throw transmissionError (a retry is allowed, and never traps).
    func answerTwice() async {
        let apdu = held.get()
        for _ in 0..<2 {
            do {
                try await apdu?.respond(response: Data([0x90, 0x00]))
            } catch {
                log.add("\(error)")
            }
        }
        app.invalidate()
    }
}

/// Answers every APDU twice (the second answer traps).
func doubleResponder() -> EmulatingApp {
    EmulatingApp { apdu in
        try await apdu.respond(response: Data([0x90, 0x00]))
        try await apdu.respond(response: Data([0x90, 0x00]))
    }
}

/// Drops every APDU unanswered (released when the handler returns).
func droppingApp() -> EmulatingApp { EmulatingApp { _ in } }
