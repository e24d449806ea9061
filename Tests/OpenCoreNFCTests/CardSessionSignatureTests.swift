import Foundation
import OpenCoreNFC
import Testing

/// Compile-only bindings of Core NFC's card-emulation surface (iOS 17.4) to Apple's exact types: a drift in a name,
/// label, `async`/`throws`, optionality or conformance breaks the build. Also typechecked in Swift 5 mode by
/// `scripts/check-public-surface`.
@Suite struct CardSessionSignatureTests {
    @Test func errorAndStatusCasesAreApples() {
        let errors: [CardSession.Error] = [
            .invalidated, .userInvalidated, .maxSessionDurationReached, .transmissionError, .systemNotAvailable,
            .accessNotAccepted, .systemEligibilityFailed, .emulationStopped, .radioDisabled,
        ]
        #expect(Set(errors).count == 9)
        let statuses: Set<CardSession.EmulationUIStatus> = [.success, .failure]
        #expect(statuses.count == 2)
        let assertionErrors: Set<NFCPresentmentIntentAssertion.Error> = [.systemEligibilityFailed, .systemNotAvailable]
        #expect(assertionErrors.count == 2)
    }
}

// MARK: - Compile-only bindings (never called)

func bindCardSession(_ session: CardSession, _ apdu: CardSession.APDU) async throws {
    let _: Bool = CardSession.isSupported
    let _: Bool = await CardSession.isEligible
    let _: Bool = await session.isEmulationInProgress
    let _: () async throws -> CardSession = CardSession.init
    let _: CardSession.EventStream = session.eventStream
    var message: String = session.alertMessage
    message += ""
    session.alertMessage = message
    let _: () async throws -> Void = session.startEmulation
    let _: (CardSession.EmulationUIStatus) async -> Void = session.stopEmulation(status:)
    let _: () -> Void = session.invalidate
    let _: Data = apdu.payload
    let _: (Data) async throws -> Void = apdu.respond(response:)
    let _: String = apdu.debugDescription
    let _: Bool = apdu == apdu
    let iterator: CardSession.EventStream.Iterator = session.eventStream.makeAsyncIterator()
    let _: CardSession.Event? = try await iterator.next()
    for try await event in session.eventStream {
        switch event {
        case .sessionStarted, .readerDetected, .readerDeselected: break
        case .received(let a): let _: CardSession.APDU = a
        case .sessionInvalidated(let reason): let _: CardSession.Error = reason
        }
    }
    let _: () async throws -> NFCPresentmentIntentAssertion = NFCPresentmentIntentAssertion.acquire
    let assertion = try await NFCPresentmentIntentAssertion.acquire()
    let _: Bool = assertion.isValid
}

func bindCardSessionConformances() {
    func sendable<T: Sendable>(_: T.Type) {}
    func hashableError<T: Error & Sendable & Hashable>(_: T.Type) {}
    sendable(CardSession.APDU.self)
    sendable(CardSession.Event.self)
    sendable(NFCPresentmentIntentAssertion.self)
    hashableError(CardSession.Error.self)
    hashableError(NFCPresentmentIntentAssertion.Error.self)
    func equatable<T: Equatable & CustomDebugStringConvertible>(_: T.Type) {}
    equatable(CardSession.APDU.self)
    func sequence<S: AsyncSequence>(_: S.Type) where S.Element == CardSession.Event {}
    sequence(CardSession.EventStream.self)
    func iterator<I: AsyncIteratorProtocol>(_: I.Type) where I.Element == CardSession.Event {}
    iterator(CardSession.EventStream.Iterator.self)
}
