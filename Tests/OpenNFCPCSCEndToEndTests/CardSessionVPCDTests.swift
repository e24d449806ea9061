import Dispatch
import Foundation
import OpenCoreNFC
import OpenNFCDevices
import OpenNFCPCSC
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

extension EndToEndSuite {
    /// The app's `CardSession` on the `vpcd:` device: a PC/SC client talks to the handler through the real pcscd and
    /// vsmartcard's vpcd (docs/CARD-EMULATION.md, "The app's card on a PC").
    @Suite struct CardSessionVPCDTests {
        @Test func aPCSCClientTalksToTheAppsHandlerThroughPcscd() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            var configuration = AppConfiguration()
            configuration.hostCardEmulation = true
            configuration.hceSelectIdentifierPrefixes = ["F04C4F5941"]
            let opened = try DeviceRegistry.open("vpcd:127.0.0.1:\(EndToEnd.ports[0])")
            let system = NFCSystem.make(opened, configuration: configuration, idleJumps: false)
            let app = VPCDLoyaltyApp()
            let finished = DispatchSemaphore(value: 0)
            Task(executorPreference: HandlerExecutor.shared) {
                await NFCSystem.$current.withValue(system) { await app.run() }
                finished.signal()
            }
            let context = try PCSCContext()
            let reader = EndToEnd.readers[0]
            let atr = try #require(try context.waitForCard(on: reader, timeoutMilliseconds: 10_000))
            // PC/SC Part 3 §9.3: 3B 8N 80 01, the historical bytes (the app's first AID prefix), TCK.
            #expect(Array(atr.prefix(9)) == [0x3B, 0x85, 0x80, 0x01, 0xF0, 0x4C, 0x4F, 0x59, 0x41])
            let card = try context.connect(reader: reader)
            #expect(try card.transmitRaw(h("00A4040007A000000003101000")) == [0x6A, 0x82])  // not the app's AID
            #expect(try card.transmitRaw(h("00A4040006F04C4F59414C00")) == [0x90, 0x00])
            #expect(try card.transmitRaw(h("80CA000000")) == Array("MEMBER-0042".utf8) + [0x90, 0x00])
            #expect(try card.transmitRaw(h("80CA000000")) == Array("MEMBER-0042".utf8) + [0x90, 0x00])
            card.disconnect(.leave)
            app.stop()
            #expect(finished.wait(timeout: .now() + 10) == .success)
            #expect(try context.waitForRemoval(on: reader, timeoutMilliseconds: 10_000))
            #expect(app.log.contains("readerDetected"))
            #expect(app.log.last == "sessionInvalidated userInvalidated")
        }

        /// The whole path with processes: a plain Core NFC program (`opencorenfc-example card`) run with
        /// `OPENCORENFC_DEVICE=vpcd:`, and `opennfc terminal --device pcsc` as the terminal, through the real pcscd.
        @Test func theExampleProgramAnswersOpennfcTerminalThroughPcscd() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hce-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let entitlements = try ExampleCardApp.writeEntitlements(in: dir)
            let app = try WatchedProcess(
                ProductBinary.url("opencorenfc-example"), ["card"],
                environment: [
                    "OPENCORENFC_DEVICE": "vpcd:127.0.0.1:\(EndToEnd.ports[0])",
                    "OPENCORENFC_ENTITLEMENTS": entitlements.path,
                ])
            defer { app.stop() }
            let context = try PCSCContext()
            _ = try #require(try context.waitForCard(on: EndToEnd.readers[0], timeoutMilliseconds: 10_000))
            let terminal = Process()
            terminal.executableURL = ProductBinary.url("opennfc")
            terminal.arguments = [
                "terminal", "--device", "pcsc:\(EndToEnd.readers[0])", "--aid", "F04C4F59414C", "80CA000000",
                "00A4040007A000000003101000", "80CA000000",
            ]
            let out = Pipe()
            terminal.standardOutput = out
            try terminal.run()
            let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            terminal.waitUntilExit()
            #expect(terminal.terminationStatus == 0)
            #expect(printed.contains("00A4040006F04C4F59414C00 -> 9000"))
            // Another AID: the phone answers 6A 82 itself, and the app's AID is no longer selected (6D 00).
            #expect(
                printed.split(separator: "\n").map { $0.split(separator: " ").prefix(3).joined(separator: " ") } == [
                    "00A4040006F04C4F59414C00 -> 9000", "80CA000000 -> 4D454D4245522D303034329000",
                    "00A4040007A000000003101000 -> 6A82", "80CA000000 -> 6D00",
                ])
            // SIGTERM ends the program (it has no handler: the default action); the test support starts children
            // with no signal blocked (ChildSignals).
            kill(app.process.processIdentifier, SIGTERM)
            let ended = app.finish(within: 30)
            #expect(ended.finished, "SIGTERM did not end the program: \(ended.stderr)")
            #expect(app.process.terminationReason == .uncaughtSignal && ended.status == SIGTERM)
            let log = ended.stderr
            #expect(log.contains("emulating") && log.contains("reader detected"))
            #expect(try context.waitForRemoval(on: EndToEnd.readers[0], timeoutMilliseconds: 10_000))
        }
    }
}

/// A loyalty card handler as Apple documents one, for the vpcd end-to-end test.
final class VPCDLoyaltyApp: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    private var session: CardSession?
    var log: [String] { lock.withLock { lines } }

    func stop() { lock.withLock { session }?.invalidate() }

    func run() async {
        do {
            let s = try await CardSession()
            lock.withLock { session = s }
            for try await event in s.eventStream {
                switch event {
                case .sessionStarted:
                    try await s.startEmulation()
                case .received(let apdu):
                    let b = [UInt8](apdu.payload)
                    let answer: [UInt8] =
                        b[1] == 0xA4
                        ? [0x90, 0x00] : b[1] == 0xCA ? Array("MEMBER-0042".utf8) + [0x90, 0x00] : [0x6D, 0x00]
                    try await apdu.respond(response: Data(answer))
                case .readerDetected: lock.withLock { lines.append("readerDetected") }
                case .readerDeselected: lock.withLock { lines.append("readerDeselected") }
                case .sessionInvalidated(let reason): lock.withLock { lines.append("sessionInvalidated \(reason)") }
                }
            }
        } catch {
            lock.withLock { lines.append("error \(error)") }
        }
        lock.withLock { session = nil }
    }
}

/// The handler's executor: a queue outside the cooperative pool, which the test's thread blocks in PC/SC calls.
final class HandlerExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = HandlerExecutor()
    private let queue = DispatchQueue(label: "CardSessionVPCDTests.handler")
    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { unowned.runSynchronously(on: executor) }
    }
}
