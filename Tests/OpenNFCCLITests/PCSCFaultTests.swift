import Foundation
import OpenNFCPCSC
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// PC/SC under load and faults (docs/RELIABILITY.md, "PC/SC under load and faults"), end to end through the real
/// pcscd, the vsmartcard vpcd driver and `opennfc`: several clients at once, the card leaving in the middle of an
/// APDU, and pcscd stopped and started while a program waits. Every program must end with a clear one-line error or
/// its result — never hang (every wait here is bounded) — and `emulate --save` must leave the tag file whole.
///
/// The shared pcscd (scripts/pcscd, `OPENNFC_E2E_PCSCD=1`) serves the load and removal tests, under ``SlotLock``.
/// pcscd 1.9.9 cannot be told another socket (only its client library reads `PCSCLITE_CSOCK_NAME`; the daemon's path
/// `/run/pcscd/pcscd.comm` is compiled in), so the stop/start tests run a private pcscd in its own mount namespace
/// (`unshare -m`) with a private directory bound over `/run/pcscd`: its socket appears in that directory, the clients
/// reach it through `PCSCLITE_CSOCK_NAME`, and the shared daemon and its files are never touched.
@Suite(.serialized) struct PCSCFaultTests {
    static let sharedEnabled = ProcessInfo.processInfo.environment["OPENNFC_E2E_PCSCD"] == "1"
    static let sharedReason = "OPENNFC_E2E_PCSCD is not set: pcscd with the vpcd driver is not running"

    /// A Text record "load test" (NFC Forum RTD Text §3: status byte 02, "en").
    static let message: [UInt8] = [0xD1, 0x01, 0x0C, 0x54, 0x02, 0x65, 0x6E] + Array("load test".utf8)
    static var messageHex: String { message.map { String(format: "%02X", $0) }.joined() }

    static func ntag215() throws -> Type2Tag {
        try Type2Tag.factory(
            Type2ChipProfile.named("ntag215")!, uid: [0x04, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56], holding: message)
    }

    // MARK: load

    /// Four `opennfc read` processes and two in-process clients at once on one emulated tag: every read returns the
    /// message; a client that finds the card held by another gets a clear error naming it, never a hang, and gets
    /// its answers once the holder lets go.
    ///
    /// How many attempts find the card held depends only on scheduling (on a loaded machine the four reads can
    /// hold it one after another for all of a client's first attempts), so the test pins what does not: every
    /// refusal is a sharing violation or a reset, and each client, waiting on the reader's state between attempts
    /// as the CLI does (`PCSCFrontend.connectExclusively`), gets all 20 of its answers within a bounded time.
    @Test(.enabled(if: sharedEnabled, Comment(rawValue: sharedReason)))
    func severalClientsAtOnce() throws {
        let lock = SlotLock()
        defer { withExtendedLifetime(lock) {} }
        let tag = try Self.ntag215()
        let slot = try EmulatedSlot(tag)
        defer { try? slot.remove() }

        let readers = try (0..<4).map { _ in
            try CLIRunner.watch(["read", "--raw", "--timeout", "20", "--device", "pcsc:\(slot.reader)"])
        }
        let uid = [UInt8](tag.activation.uid)
        let answers = Counter()
        let threads = DispatchGroup()
        let wanted = 20
        for _ in 0..<2 {
            DispatchQueue.global().async(group: threads) {
                guard let context = try? PCSCContext() else { return answers.fail("no context") }
                let deadline = DispatchTime.now() + 50
                var got = 0
                while got < wanted {
                    guard DispatchTime.now() < deadline else {
                        return answers.fail("\(got) of \(wanted) answers in 50 s")
                    }
                    do {
                        let card = try context.connect(reader: slot.reader, share: .shared)
                        let r = try card.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
                        card.disconnect()
                        guard r.data == uid && r.sw == 0x9000 else { return answers.fail("answer \(r)") }
                        answers.ok()
                        got += 1
                    } catch {
                        // The card held exclusively by a reading CLI (a sharing violation), or reset by one that
                        // just let it go (SCARD_W_RESET_CARD): each said as such, and expected with several clients.
                        let code = (error as? PCSCError)?.code
                        guard code == .sharingViolation || code == .cardReset else { return answers.fail("\(error)") }
                        answers.busy()
                        // Until the holder lets go (the reader's state changes), at most 50 ms.
                        if var states = try? context.states(of: [slot.reader]) {
                            states[0].acknowledge()
                            _ = try? context.waitForChange(&states, timeoutMilliseconds: 50)
                        }
                    }
                }
            }
        }
        #expect(threads.wait(timeout: .now() + 60) == .success, "the in-process clients did not finish in 60 s")
        var succeeded = 0
        var refusals: [String] = []
        for r in readers {
            let result = r.finish(within: 60)
            #expect(result.finished, "opennfc read did not end within 60 s")
            if result.status == 0 {
                #expect(result.stdout == Self.messageHex + "\n")
                succeeded += 1
            } else {
                #expect(result.status == 1)
                #expect(result.errorLines.count == 1, "\(result.stderr)")
                refusals += result.errorLines.map(String.init)
            }
        }
        #expect(succeeded >= 1, "no read succeeded: \(refusals)")
        #expect(answers.failures == [], "\(answers.failures)")
        #expect(answers.successes == 2 * wanted)
    }

    // MARK: the card leaves mid-APDU

    /// `opennfc write` through pcscd while the card leaves in the middle of the first page write: one clear error,
    /// and the tag holds the old message or an empty one (docs/PROCEDURES.md: length 0 first, length last).
    @Test(.enabled(if: sharedEnabled, Comment(rawValue: sharedReason)))
    func cardLeavingMidAPDU() throws {
        let lock = SlotLock()
        defer { withExtendedLifetime(lock) {} }
        let tag = try Self.ntag215()
        // The first Type 2 WRITE (A2) of a user page, whatever APDU carries it (pass-through or pseudo-APDU).
        let slot = try EmulatedSlot(tag) { apdu in
            let isWrite =
                apdu.starts(with: [0xFF, 0xD6])
                || apdu.indices.dropLast().contains { apdu[$0] == 0xA2 && apdu[$0 + 1] >= 4 }
            return isWrite ? .tear(afterBytes: 0) : .none
        }
        defer { try? slot.remove() }

        let w = try CLIRunner.watch([
            "write", "--uri", "https://leaving.example/" + String(repeating: "x", count: 60), "--timeout", "20",
            "--device", "pcsc:\(slot.reader)",
        ])
        let result = w.finish(within: 60)
        #expect(result.finished, "opennfc write did not end within 60 s")
        #expect(result.status == 1)
        #expect(result.errorLines.count == 1, "\(result.stderr)")
        #expect(result.stdout.isEmpty)
        let now = slot.server.withCard { _ in TagFile.ndefMessage(of: tag) }
        #expect(now == Self.message || now == [], "the tag holds \(now.map { "\($0.count) bytes" } ?? "no message")")
    }

    // MARK: pcscd stopped and started

    /// A program waiting for a tag when pcscd stops fails at once with a clear error; a program started while
    /// pcscd is down says so; after pcscd starts again a new program and `emulate` work, and when pcscd stops under
    /// `emulate --save` the tag file is saved whole (atomically) with what was written.
    @Test(.enabled(if: PrivatePCSCD.available, Comment(rawValue: PrivatePCSCD.unavailableReason)))
    func pcscdStoppedAndStartedWhileProgramsWait() throws {
        let pcscd = try PrivatePCSCD()
        let dir = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let reader = "pcsc:\(PrivatePCSCD.readerName) 00 00"

        // Down: a clear error at once.
        let down = try CLIRunner.watch(["readers"], environment: pcscd.environment).finish(within: 30)
        #expect(down.finished && down.status == 1)
        #expect(down.errorLines.count == 1 && down.stderr.contains("pcscd"), "\(down.stderr)")

        // Up, a program waits for a tag; pcscd stops under it.
        try pcscd.start()
        let waiting = try CLIRunner.watch(
            ["read", "--timeout", "120", "--device", reader], environment: pcscd.environment)
        #expect(waiting.waitForStderr("Hold a tag near the reader", seconds: 30), "\(waiting.stderrText)")
        pcscd.stop()
        let stopped = waiting.finish(within: 30)
        #expect(stopped.finished, "opennfc read still waiting 30 s after pcscd stopped")
        #expect(stopped.status == 1)
        #expect(stopped.errorLines.count == 1, "\(stopped.stderr)")
        #expect(stopped.errorLines.first?.contains("pcscd") == true, "\(stopped.stderr)")

        // Up again: emulate a tag file with --save, write to it through pcscd, then stop pcscd under emulate.
        try pcscd.start()
        let file = dir.appendingPathComponent("poster.json").path
        let made = try CLIRunner.run(["tag", "new", "--chip", "ntag215", "--text", "before", "-o", file])
        #expect(made.status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let emulator = try CLIRunner.watch(
            ["emulate", "--vpcd", "127.0.0.1:\(PrivatePCSCD.ports[0])", "--save", file], environment: pcscd.environment)
        #expect(emulator.waitForStderr("Emulating", seconds: 30), "\(emulator.stderrText)")
        let write = try CLIRunner.watch(
            ["write", "--text", "after the restart", "--timeout", "30", "--device", reader],
            environment: pcscd.environment
        ).finish(within: 60)
        #expect(write.finished && write.status == 0, "\(write.stderr)")
        pcscd.stop()
        let ended = emulator.finish(within: 30)
        #expect(ended.finished, "opennfc emulate still running 30 s after pcscd stopped")
        #expect(ended.stderr.contains("Saved \(file)"), "\(ended.stderr)")
        // Whole and new: the saved file loads and holds the message written; no temporary file beside it.
        let show = try CLIRunner.run(["tag", "show", file])
        #expect(show.status == 0)
        #expect(show.stdout.contains("after the restart"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) != before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["poster.json"])
    }

    /// `emulate --save` killed (SIGKILL, nothing can run) in the middle of a client's writes: the file is byte for
    /// byte what it was, never half written, and no temporary file is left.
    @Test(.enabled(if: PrivatePCSCD.available, Comment(rawValue: PrivatePCSCD.unavailableReason)))
    func emulatorKilledDuringWritesLeavesTheFileWhole() throws {
        let pcscd = try PrivatePCSCD()
        try pcscd.start()
        defer { pcscd.stop() }
        let dir = try CLIRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("t.json").path
        #expect(try CLIRunner.run(["tag", "new", "--chip", "ntag216", "--text", "old", "-o", file]).status == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: file))
        let emulator = try CLIRunner.watch(
            ["emulate", "--vpcd", "127.0.0.1:\(PrivatePCSCD.ports[0])", "--save", file], environment: pcscd.environment)
        #expect(emulator.waitForStderr("Emulating", seconds: 30), "\(emulator.stderrText)")
        let writer = try CLIRunner.watch(
            [
                "write", "--trace", "--text", String(repeating: "long message ", count: 60), "--timeout", "30",
                "--device", "pcsc:\(PrivatePCSCD.readerName) 00 00",
            ], environment: pcscd.environment)
        // Kill the card once the writes have begun (the trace shows the first WRITE going out).
        #expect(writer.waitForStderr("> A2", seconds: 30), "\(writer.stderrText)")
        kill(emulator.process.processIdentifier, SIGKILL)
        let killed = emulator.finish(within: 30)
        #expect(killed.finished)
        let w = writer.finish(within: 60)
        #expect(w.finished, "opennfc write did not end within 60 s of the card's death")
        if w.status != 0 {
            #expect(w.status == 1)
            #expect(w.errorLines.count == 1, "\(w.stderr)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == before)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["t.json"])
    }
}

/// Counts the in-process clients' outcomes from several threads.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var s = 0
    private var b = 0
    private var f: [String] = []
    func ok() { lock.withLock { s += 1 } }
    func busy() { lock.withLock { b += 1 } }
    func fail(_ why: String) { lock.withLock { f.append(why) } }
    var successes: Int { lock.withLock { s } }
    var busyCount: Int { lock.withLock { b } }
    var failures: [String] { lock.withLock { f } }
}

/// A pcscd of this test's own: `/usr/sbin/pcscd --foreground` in a private mount namespace where `/run/pcscd` is a
/// private directory, with its own reader.conf for the vpcd driver on ports 35984/35985 (never the shared 35963/4).
/// Clients reach it with `PCSCLITE_CSOCK_NAME` set to its socket. A file lock keeps two test runs on one machine from
/// using the ports at once. Stopped by its own pid only.
final class PrivatePCSCD {
    static let ports: [UInt16] = [35984, 35985]
    static let readerName = "Private PCD"
    static let driver = "/usr/lib/pcsc/drivers/serial/libifdvpcd.so"
    static let lockPath = "/tmp/opennfc-private-pcscd.lock"
    static let unavailableReason =
        "a private pcscd needs root, unshare(1), /usr/sbin/pcscd and the vpcd driver (scripts/pcscd install)"

    static let available: Bool = {
        guard getuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/sbin/pcscd"),
            FileManager.default.fileExists(atPath: driver),
            let unshare = ["/usr/bin/unshare", "/bin/unshare"].first(where: {
                FileManager.default.isExecutableFile(atPath: $0)
            })
        else { return false }
        // Mount namespaces may be forbidden (an unprivileged container): try one.
        let probe = try? TestProcess.run(URL(fileURLWithPath: unshare), ["-m", "--propagation", "private", "true"])
        return probe?.status == 0
    }()

    let directory: URL
    var socket: String { directory.appendingPathComponent("run/pcscd.comm").path }
    var environment: [String: String] { ["PCSCLITE_CSOCK_NAME": socket] }
    private var daemon: WatchedProcess?
    private let lockFD: Int32

    init() throws {
        lockFD = open(Self.lockPath, O_CREAT | O_RDWR, 0o666)
        if lockFD >= 0 { _ = flock(lockFD, LOCK_EX) }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("opennfc-pcscd-\(UUID().uuidString)")
        let conf = directory.appendingPathComponent("conf")
        try FileManager.default.createDirectory(at: conf, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(
            at: directory.appendingPathComponent("run"), withIntermediateDirectories: true)
        let channel = String(Self.ports[0], radix: 16, uppercase: true)
        try """
        FRIENDLYNAME "\(Self.readerName)"
        DEVICENAME   /dev/null:0x\(channel)
        LIBPATH      \(Self.driver)
        CHANNELID    0x\(channel)

        """.write(to: conf.appendingPathComponent("vpcd"), atomically: true, encoding: .utf8)
    }

    /// Starts the daemon and waits (at most 30 s) for its "daemon ready." line, which it prints after the vpcd
    /// driver listens.
    func start() throws {
        let run = directory.appendingPathComponent("run").path
        let conf = directory.appendingPathComponent("conf").path
        let d = try WatchedProcess(
            URL(fileURLWithPath: "/usr/bin/unshare"),
            [
                "-m", "--propagation", "private", "sh", "-c",
                "mount --bind '\(run)' /run/pcscd && exec /usr/sbin/pcscd --foreground --debug --config '\(conf)'",
            ])
        daemon = d
        guard d.waitForStderr("daemon ready", seconds: 30) else {
            stop()
            throw PCSCFaultError(description: "the private pcscd did not start: \(d.stderrText)")
        }
    }

    /// Stops the daemon (SIGTERM, SIGKILL after 10 s) and waits for it to exit.
    func stop() {
        guard let d = daemon else { return }
        daemon = nil
        d.process.terminate()
        if !d.finish(within: 10).finished { kill(d.process.processIdentifier, SIGKILL) }
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
        if lockFD >= 0 {
            _ = flock(lockFD, LOCK_UN)
            close(lockFD)
        }
    }
}

struct PCSCFaultError: Error, CustomStringConvertible {
    var description: String
}
