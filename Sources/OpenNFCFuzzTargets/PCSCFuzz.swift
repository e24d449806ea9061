internal import Foundation
internal import OpenNFCPCSC
internal import OpenNFCRF
internal import OpenNFCSimulation
internal import OpenNFCTags
internal import OpenNFCTestSupport
internal import OpenNFCVPCD

/// PC/SC reader answers: `PCSCFrontend` and its reader profiles (storage-card pseudo-APDUs, ACR122U/ACR1252U
/// pass-through, FeliCa and ISO 15693 profiles, PC/SC Part 3 and the ACS reader manuals) over an in-process fake
/// binding whose card has the ATR and answers the fuzz input gives, then identification and the NDEF read through it.
///
/// Input: byte 0 chooses the reader name (a plain Part 3 reader, ACR122U, ACR1252U); byte 1 is the ATR length, then
/// the ATR; the rest answers each transmitted APDU in turn (a length byte then that many bytes; the script used up,
/// every APDU gets `6F 00`).
///
/// Invariants: every failure is an `RFError` or a `TagError` with a reason; a detection never reports a message
/// longer than its capacity, nor a read more than it; nothing hangs.
enum PCSCFuzz {
    static let target = FuzzTarget(
        "pcsc", "PC/SC reader answers through every reader profile, then identification and NDEF read",
        seeds: seeds, run: run)

    static let readers = [
        "Virtual PCD 00 00", "ACS ACR122U PICC Interface 00 00", "ACS ACR1252 1S CL Reader PICC 00 00",
    ]

    /// The answers left to give, shared with the fake card's responder.
    final class Script: @unchecked Sendable {
        let lock = NSLock()
        var input: FuzzInput
        var transmits = 0
        init(_ input: FuzzInput) { self.input = input }

        func next() -> [UInt8] {
            lock.lock()
            defer { lock.unlock() }
            transmits += 1
            guard !input.isAtEnd, transmits <= ScriptedFrontend.maxExchanges else { return [0x6F, 0x00] }
            return input.take(Int(input.byte()))
        }
    }

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let reader = readers[Int(input.byte()) % readers.count]
        let atr = input.take(Int(input.byte()))
        let script = Script(FuzzInput(input.rest()))
        let fake = FakePCSCBinding(readers: [reader])
        fake.insert(FakePCSCBinding.Card(atr: atr) { _ in script.next() }, into: reader)
        let frontend: PCSCFrontend
        do {
            frontend = PCSCFrontend(context: try PCSCContext(binding: fake))
        } catch {
            fuzzRequire(false, "the fake PC/SC service did not start: \(error)")
            return
        }
        do throws(RFError) {
            guard let first = try frontend.poll([.nfcA, .nfcB, .nfcF, .nfcV]).first else { return }
            let target = try frontend.activate(first)
            do throws(TagError) {
                let identified = try TagIdentifier.identify(target: target, frontend: frontend)
                guard let procedure = identified.ndefProcedure(frontend: frontend) else { return }
                let d = try procedure.detect()
                ReaderFuzz.check(d)
                let message = try procedure.readMessage()
                if d.status != .notSupported {
                    fuzzRequire(message.count <= d.capacity, "read \(message.count) bytes, capacity \(d.capacity)")
                }
            } catch {
                fuzzRequire(!error.reason.isEmpty, "a TagError without a reason")
            }
            frontend.deactivate()
        } catch {
            fuzzRequire(!error.description.isEmpty, "an RFError without a description")
        }
        fuzzRequire(script.transmits <= ScriptedFrontend.maxExchanges * 4, "\(script.transmits) APDUs")
    }

    /// The vpcd card server's own ATR and answers for every registered chip, read through each reader name.
    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for tag in CardFuzz.factoryTags() {
            for (r, reader) in readers.enumerated() {
                let (atr, _, answers) = recordedSession(tag, reader: reader)
                let script = answers.flatMap { [UInt8(min($0.count, 255))] + $0.prefix(255) }
                out.append([UInt8(r), UInt8(atr.count)] + atr + script)
            }
        }
        return out
    }

    /// The ATR and the APDU answers the vpcd card emulation (``VPCDCard``) gives `tag` while the frontend polls,
    /// identifies and reads it.
    static func recordedSession(
        _ tag: any VirtualTag, reader: String
    ) -> (atr: [UInt8], commands: [[UInt8]], answers: [[UInt8]]) {
        final class Log: @unchecked Sendable {
            let lock = NSLock()
            let card: VPCDCard
            init(_ card: VPCDCard) { self.card = card }
            var commands: [[UInt8]] = []
            var answers: [[UInt8]] = []
        }
        let card = VPCDCard(tag: tag)
        card.powerOn()
        let log = Log(card)
        let fake = FakePCSCBinding(readers: [reader])
        fake.insert(
            FakePCSCBinding.Card(atr: card.atr) { apdu in
                let answer = log.card.respond(to: apdu) ?? []
                log.lock.lock()
                log.commands.append(apdu)
                log.answers.append(answer)
                log.lock.unlock()
                return answer
            }, into: reader)
        guard let context = try? PCSCContext(binding: fake) else { return (card.atr, [], []) }
        let frontend = PCSCFrontend(context: context)
        if let first = try? frontend.poll([.nfcA, .nfcB, .nfcF, .nfcV]).first,
            let target = try? frontend.activate(first),
            let identified = try? TagIdentifier.identify(target: target, frontend: frontend),
            let procedure = identified.ndefProcedure(frontend: frontend)
        {
            _ = try? procedure.detect()
            _ = try? procedure.readMessage()
        }
        return (card.atr, log.commands, log.answers)
    }
}
