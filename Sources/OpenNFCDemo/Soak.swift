internal import Dispatch
internal import Foundation
internal import OpenCoreNFC
internal import OpenCoreNFCTesting
internal import OpenNFCRF
internal import OpenNFCSimulation
internal import OpenNFCSystem

/// The seeded soak (docs/RELIABILITY.md, "Soak"): sessions of every kind through ``VirtualPhone``,
/// with the world doing random things to them, and the session invariants checked after each scenario.
///
/// | Varied | How |
/// |---|---|
/// | Session kinds | NDEF read-only (with and without `invalidateAfterFirstRead`), NDEF read-write (query, write, read back), tag sessions polling every combination of ISO 14443, ISO 15693 and ISO 18092, sending one family command and an NDEF query |
/// | Tags | every chip of the tag-file registry (`TagFile.chips`: Type 1–5, MIFARE, DESFire, FeliCa, VAS), factory state, holding a random URI message when the chip takes NDEF |
/// | The world | tags put at random positions and taken away, fault plans (removal after frame n, a tear inside frame n after k bytes, a mute tag, lost or corrupted answers the tag did or did not execute, latency), Cancel, the app backgrounded and brought back, the app invalidating, the clock moved (session timeouts at 60 s) |
/// | Queueing | one to three sessions begun back to back, so the later ones wait for the earlier |
///
/// | Invariant (checked per session) | Violation reported |
/// |---|---|
/// | exactly one `didInvalidateWithError` | none or two |
/// | no delegate callback after it | `didBecomeActive` / `didDetect…` after the invalidation |
/// | one session at a time, in FIFO order | a session active before the one begun earlier ended, or out of order |
/// | nothing stuck | a session not invalidated once the clock passed every timeout; the sheet still up |
/// | tag memory old or new (the tear contract of docs/PROCEDURES.md: old, empty or new message) | an NDEF message that is none of the message the tag held, the one written to it, or empty |
package enum Soak {
    package struct Report: Sendable {
        package var sessions = 0
        package var scenarios = 0
        package var invariantChecks = 0
        package var violations: [String] = []
        /// How the sessions ended: invalidation code (`200` Cancel, `201` timeout, …) → count.
        package var endings: [Int: Int] = [:]
        /// What the world did: action → count.
        package var actions: [String: Int] = [:]
        package var messagesRead = 0
        package var writesCompleted = 0
        package var tagCommandsAnswered = 0
    }

    /// Runs `sessions` sessions (in scenarios of one to three) with randomness from `rng`; the report lists every
    /// invariant violation with the scenario that produced it.
    package static func run(sessions: Int, using rng: inout some RandomNumberGenerator) -> Report {
        var report = Report()
        var phone = makePhone()
        while report.sessions < sessions {
            if report.scenarios % 40 == 39 { phone = makePhone() }
            let count = min(sessions - report.sessions, Int.random(in: 1...3, using: &rng))
            scenario(phone, sessions: count, index: report.scenarios, rng: &rng, report: &report)
            report.scenarios += 1
            report.sessions += count
        }
        return report
    }

    static let systemCode = "12FC"

    static func makePhone() -> VirtualPhone {
        let configuration = AppConfiguration(
            readerSessionFormats: ["NDEF", "TAG"],
            iso7816SelectIdentifiers: ["D2760000850101", "A00000039656434103F0"],
            felicaSystemCodes: [systemCode, "88B4"])
        let phone = VirtualPhone(configuration: configuration)
        phone.system.recordsTranscript = false
        return phone
    }

    // MARK: one scenario

    enum Kind: CaseIterable {
        case ndefReadOnce, ndefReadMany, ndefWrite, tag
    }

    static func scenario(
        _ phone: VirtualPhone, sessions count: Int, index: Int, rng: inout some RandomNumberGenerator,
        report: inout Report
    ) {
        let order = OrderLog()
        // One serial queue for the scenario's sessions: their callbacks arrive in the order the system sent them, so
        // the order log shows the system's order (on separate queues a 200 and the next session's didBecomeActive
        // may be delivered either way round).
        let queue = DispatchQueue(label: "soak scenario \(index)")
        let newMessage = uri(
            "soak.example/\(index)/" + String(repeating: "w", count: Int.random(in: 0...90, using: &rng)))
        var apps: [SoakApp] = []
        for n in 0..<count {
            let kind = Kind.allCases.randomElement(using: &rng)!
            let polling = [
                NFCTagReaderSession.PollingOption.iso14443, .iso15693, .iso18092, [.iso14443, .iso15693],
                [.iso14443, .iso18092], [.iso14443, .iso15693, .iso18092],
            ].randomElement(using: &rng)!
            let restarts = Int.random(in: 0...1, using: &rng) == 0
            let app: SoakApp
            switch kind {
            case .ndefReadOnce, .ndefReadMany:
                app = SoakNDEFReadApp(number: n, kind: kind, order: order, write: newMessage, restarts: restarts)
            case .ndefWrite:
                app = SoakNDEFWriteApp(number: n, kind: kind, order: order, write: newMessage, restarts: restarts)
            case .tag:
                app = SoakApp(number: n, kind: kind, order: order, write: newMessage, restarts: restarts)
            }
            apps.append(app)
            phone.run {
                switch app {
                case let ndefApp as any NFCNDEFReaderSessionDelegate:
                    let session = NFCNDEFReaderSession(
                        delegate: ndefApp, queue: queue, invalidateAfterFirstRead: kind == .ndefReadOnce)
                    app.setInvalidate { session.invalidate() }
                    session.begin()
                default:
                    let session = NFCTagReaderSession(
                        configuration: .init(pollingOption: polling), delegate: app, queue: queue)
                    app.setInvalidate { session.invalidate() }
                    session.begin()
                }
            }
        }
        phone.settle()

        // The tags of this scenario and the messages each may hold afterwards (old, written, or empty).
        var placed: [(handle: Int, tag: any VirtualTag, old: [UInt8]?)] = []
        var history: [String] = ["\(apps.map { "\($0.kind)" }.joined(separator: "+"))"]
        let steps = Int.random(in: 2...8, using: &rng)
        for _ in 0..<steps {
            let action = Int.random(in: 0..<100, using: &rng)
            switch action {
            case 0..<34:
                let (tag, old) = randomTag(&rng)
                let position = Int.random(in: 0...2, using: &rng)
                placed.append((phone.put(tag, at: position), tag, old))
                history.append("put \(tag.chip)")
                report.actions["put", default: 0] += 1
            case 34..<46:
                guard let victim = placed.randomElement(using: &rng) else { continue }
                phone.remove(victim.handle)
                history.append("remove \(victim.tag.chip)")
                report.actions["remove", default: 0] += 1
            case 46..<64:
                let plan = randomFaults(&rng)
                phone.inject(plan)
                history.append("\(plan.faults)")
                report.actions["fault plan", default: 0] += 1
            case 64..<72:
                phone.tapCancel()
                history.append("cancel")
                report.actions["cancel", default: 0] += 1
            case 72..<78:
                phone.backgroundApp()
                phone.foregroundApp()
                history.append("background")
                report.actions["background", default: 0] += 1
            case 78..<84:
                let app = apps.randomElement(using: &rng)!
                app.invalidateFromApp()
                history.append("app \(app.number) invalidates")
                report.actions["app invalidates", default: 0] += 1
            default:
                let seconds = UInt64.random(in: 1...70, using: &rng)
                phone.advance(by: .seconds(seconds))
                history.append("+\(seconds) s")
                report.actions["clock", default: 0] += 1
            }
        }
        // Let every session run out: each waits at most its 60 s timeout once it is active.
        phone.inject(.none)
        for _ in 0...count { phone.advance(by: .seconds(61)) }
        phone.removeAllTags()
        phone.settle()

        check(apps, order: order, phone: phone, scenario: index, report: &report)
        for p in placed {
            report.invariantChecks += 1
            let now = storedMessage(p.tag)
            let allowed: [[UInt8]?] = [p.old, newMessage, []]
            if !allowed.contains(where: { $0 == now }) && p.old != nil {
                var memory = ""
                if let t2 = p.tag as? Type2Tag {
                    memory =
                        "; pages 3–8: "
                        + stride(from: 12, to: 36, by: 4).map { i in
                            t2.memory[i..<i + 4].map { String($0, radix: 16) }.joined(separator: " ")
                        }.joined(separator: " | ")
                }
                report.violations.append(
                    "scenario \(index): \(p.tag.chip) holds \(now.map { "\($0.count) bytes" } ?? "no NDEF message"), "
                        + "neither its old message, the one written nor empty (tear contract)\(memory); world: "
                        + history.joined(separator: ", "))
            }
        }
    }

    static func check(
        _ apps: [SoakApp], order: OrderLog, phone: VirtualPhone, scenario: Int, report: inout Report
    ) {
        for app in apps {
            let s = app.snapshot()
            report.invariantChecks += 3
            if s.invalidations != 1 {
                report.violations.append(
                    "scenario \(scenario) session \(app.number) (\(app.kind)): \(s.invalidations) invalidations")
            }
            if s.callbacksAfterInvalidation > 0 {
                report.violations.append(
                    "scenario \(scenario) session \(app.number) (\(app.kind)): \(s.callbacksAfterInvalidation) "
                        + "delegate callbacks after didInvalidateWithError")
            }
            if let code = s.code { report.endings[code, default: 0] += 1 }
            report.messagesRead += s.messages
            report.writesCompleted += s.writes
            report.tagCommandsAnswered += s.answers
        }
        // One session at a time, in the order begun: each activation comes after every earlier session ended.
        report.invariantChecks += 1
        let events = order.events
        for (i, e) in events.enumerated() where e.active {
            let earlierStillOpen = apps.prefix(e.session).contains { earlier in
                !events.prefix(i).contains { $0.session == earlier.number && !$0.active }
            }
            if earlierStillOpen {
                report.violations.append(
                    "scenario \(scenario): session \(e.session) became active while an earlier one had not ended "
                        + "(\(events.map { "\($0.session)\($0.active ? "+" : "-")" }.joined(separator: " ")))")
            }
        }
        report.invariantChecks += 1
        if phone.sheet.isPresented {
            report.violations.append("scenario \(scenario): the sheet is still up after every session ended")
        }
    }

    /// The message a tag stores: `[]` for an empty one. The tag-file registry reports an empty message as none; a
    /// Type 2 tag is told apart exactly (an NDEF TLV of length 0 is empty, no NDEF TLV at all is broken), the other
    /// families' "none" counts as empty.
    static func storedMessage(_ tag: any VirtualTag) -> [UInt8]? {
        if let m = TagFile.ndefMessage(of: tag) { return m }
        if let t2 = tag as? Type2Tag { return t2.tlvs.contains { $0.type == 0x03 } ? [] : nil }
        return []
    }

    // MARK: random tags and faults

    static func uri(_ rest: String) -> [UInt8] {
        let payload = [UInt8(0x04)] + Array(rest.utf8)
        return [0xD1, 0x01, UInt8(payload.count), 0x55] + payload
    }

    /// A factory chip of a random registered family, holding a short URI message when it takes one.
    static func randomTag(_ rng: inout some RandomNumberGenerator) -> (any VirtualTag, [UInt8]?) {
        while true {
            let chip = TagFile.chips.randomElement(using: &rng)!
            var uid = chip.uidPrefix
            while uid.count < chip.uidLength { uid.append(UInt8.random(in: 0...255, using: &rng)) }
            let message = uri("tag.example/" + String(repeating: "o", count: Int.random(in: 0...20, using: &rng)))
            if let tag = try? chip.factory(uid, message) { return (tag, TagFile.ndefMessage(of: tag)) }
            if let tag = try? chip.factory(uid, nil) { return (tag, nil) }
        }
    }

    static func randomFaults(_ rng: inout some RandomNumberGenerator) -> FaultPlan {
        var faults: [FaultPlan.Fault] = []
        for _ in 0..<Int.random(in: 1...2, using: &rng) {
            let frame = Int.random(in: 1...12, using: &rng)
            switch Int.random(in: 0..<6, using: &rng) {
            case 0: faults.append(.removeAfter(frame: frame))
            case 1: faults.append(.tear(frame: frame, afterBytes: Int.random(in: 0...16, using: &rng)))
            case 2: faults.append(.mute(fromFrame: frame))
            case 3: faults.append(.error(frame: frame, code: .timeout, tagProcesses: Bool.random(using: &rng)))
            case 4: faults.append(.error(frame: frame, code: .transmission, tagProcesses: Bool.random(using: &rng)))
            default: faults.append(.latency(.milliseconds(UInt64.random(in: 1...400, using: &rng)), frame: frame))
            }
        }
        return FaultPlan(faults)
    }
}
