import Foundation
import OpenCoreNFC

/// What an app's handler saw, for the tests to read.
final class HandlerLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ s: String) { lock.withLock { lines.append(s) } }
    var all: [String] { lock.withLock { lines } }
}

/// A loyalty card, written the way Apple's `CardSession` documentation shows a handler: check support and
/// eligibility, acquire the presentment assertion, create the session, start emulating when it starts, answer every
/// APDU, stop on `readerDeselected`.
final class LoyaltyCardApp: Sendable {
    static let aid: [UInt8] = [0xF0, 0x4C, 0x4F, 0x59, 0x41, 0x4C]  // F0 "LOYAL"
    let log = HandlerLog()
    let member: [UInt8] = Array("MEMBER-0042".utf8)

    func process(_ apdu: Data) -> Data {
        let b = [UInt8](apdu)
        if b.count >= 4, b[1] == 0xA4, b[2] == 0x04 { return Data([0x90, 0x00]) }  // SELECT by name
        if b.count >= 4, b[0] == 0x80, b[1] == 0xCA { return Data(member + [0x90, 0x00]) }  // GET DATA: member id
        return Data([0x6D, 0x00])
    }

    func run() async {
        guard NFCReaderSession.readingAvailable, CardSession.isSupported, await CardSession.isEligible else {
            log.add("not available")
            return
        }
        let assertion: NFCPresentmentIntentAssertion
        let cardSession: CardSession
        do {
            assertion = try await NFCPresentmentIntentAssertion.acquire()
            cardSession = try await CardSession()
        } catch {
            log.add("error \(error)")
            return
        }
        do {
            for try await event in cardSession.eventStream {
                switch event {
                case .sessionStarted:
                    cardSession.alertMessage = "Hold near the loyalty reader."
                    try await cardSession.startEmulation()
                    log.add("started")
                case .readerDetected:
                    log.add("reader detected")
                case .readerDeselected:
                    log.add("reader deselected")
                    await cardSession.stopEmulation(status: .success)
                    cardSession.invalidate()
                case .received(let cardAPDU):
                    do {
                        try await cardAPDU.respond(response: process(cardAPDU.payload))
                    } catch {
                        log.add("respond failed \(error)")
                    }
                case .sessionInvalidated(let reason):
                    log.add("invalidated \(reason) assertion valid \(assertion.isValid)")
                }
            }
        } catch {
            log.add("stream error \(error)")
        }
    }
}

/// An access badge: emulates at once (no assertion), answers SELECT and an INTERNAL AUTHENTICATE-like challenge
/// with a value derived from it, and keeps emulating across readers until told to stop.
final class AccessBadgeApp: Sendable {
    static let aid: [UInt8] = [0xF0, 0x42, 0x41, 0x44, 0x47, 0x45, 0x01]  // F0 "BADGE" 01
    let log = HandlerLog()

    func run() async {
        do {
            let session = try await CardSession()
            for try await event in session.eventStream {
                switch event {
                case .sessionStarted:
                    session.alertMessage = "Hold near the door."
                    try await session.startEmulation()
                case .received(let apdu):
                    let b = [UInt8](apdu.payload)
                    let answer: [UInt8]
                    if b.count >= 4, b[1] == 0xA4 {
                        answer = [0x90, 0x00]
                    } else if b.count >= 6, b[1] == 0x88 {  // INTERNAL AUTHENTICATE: the challenge, each byte + 1
                        answer = b[5..<(5 + Int(b[4]))].map { $0 &+ 1 } + [0x90, 0x00]
                    } else {
                        answer = [0x6D, 0x00]
                    }
                    try await apdu.respond(response: Data(answer))
                case .readerDetected, .readerDeselected:
                    log.add("\(event)")
                case .sessionInvalidated(let reason):
                    log.add("invalidated \(reason)")
                }
            }
        } catch {
            log.add("error \(error)")
        }
    }
}

/// An NFC Forum Type 4 tag emulated by the app (NFC Forum Type 4 Tag Technical Specification 2.0 §5: the NDEF Tag
/// Application D2760000850101, a Capability Container file E103 and an NDEF file E104), holding one URI record.
final class NDEFTagApp: Sendable {
    static let aid: [UInt8] = [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]
    let log = HandlerLog()
    /// The NDEF file: NLEN (2 bytes) and the message (a well-known URI record "https://example.com").
    let ndefFile: [UInt8] = {
        let message: [UInt8] = [0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8)
        return [0x00, UInt8(message.count)] + message
    }()
    /// CC: CCLEN 000F, version 2.0, MLe 00FF, MLc 00FF, the NDEF File Control TLV (04 06 E104 0400 00 FF).
    let ccFile: [UInt8] = [0x00, 0x0F, 0x20, 0x00, 0xFF, 0x00, 0xFF, 0x04, 0x06, 0xE1, 0x04, 0x04, 0x00, 0x00, 0xFF]

    final class State: @unchecked Sendable {
        var file: [UInt8]?
    }

    func answer(_ b: [UInt8], _ state: State) -> [UInt8] {
        guard b.count >= 4 else { return [0x67, 0x00] }
        switch (b[1], b[2]) {
        case (0xA4, 0x04): return [0x90, 0x00]
        case (0xA4, 0x00):
            guard b.count >= 7 else { return [0x67, 0x00] }
            switch (b[5], b[6]) {
            case (0xE1, 0x03): state.file = ccFile
            case (0xE1, 0x04): state.file = ndefFile
            default: return [0x6A, 0x82]
            }
            return [0x90, 0x00]
        case (0xB0, _):
            guard let f = state.file else { return [0x69, 0x86] }
            let offset = Int(b[2]) << 8 | Int(b[3])
            let le = b.count > 4 ? (b[4] == 0 ? 256 : Int(b[4])) : 256
            guard offset <= f.count else { return [0x6B, 0x00] }
            return Array(f[offset..<min(f.count, offset + le)]) + [0x90, 0x00]
        default: return [0x6D, 0x00]
        }
    }

    func run() async {
        let state = State()
        do {
            let session = try await CardSession()
            for try await event in session.eventStream {
                switch event {
                case .sessionStarted: try await session.startEmulation()
                case .received(let apdu): try await apdu.respond(response: Data(answer([UInt8](apdu.payload), state)))
                case .readerDeselected: state.file = nil
                case .readerDetected: break
                case .sessionInvalidated(let reason): log.add("invalidated \(reason)")
                }
            }
        } catch {
            log.add("error \(error)")
        }
    }
}
