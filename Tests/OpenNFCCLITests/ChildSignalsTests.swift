import Foundation
import OpenNFCTestSupport
import Testing

/// A child started by the test support hears SIGTERM and SIGINT whatever the starting thread blocks: the threads that
/// run tests block every asynchronous signal, and a child inherits its spawning thread's mask (POSIX `posix_spawn`),
/// which made programs without a handler of their own (`opencorenfc-example card`) deaf to SIGTERM.
@Suite struct ChildSignalsTests {
    /// A program that waits until it is stopped, with no signal handling of its own.
    static let waiter = URL(fileURLWithPath: "/usr/bin/tail")
    static let waiterArguments = ["-f", "/dev/null"]

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "Linux /proc only"))
    func aWatchedChildStartsWithNothingBlockedAndEndsOnSIGTERM() throws {
        let child = try ChildSignals.withEverySignalBlocked {
            #expect(ChildSignals.callingThreadBlocks(SIGTERM))
            return try WatchedProcess(Self.waiter, Self.waiterArguments)
        }
        defer { child.stop() }
        let state = try #require(ChildSignals.state(of: child.process.processIdentifier))
        #expect(state.blocked.isEmpty, "SigBlk: \(state.blocked.sorted())")
        #expect(!state.ignored.contains(SIGTERM) && !state.ignored.contains(SIGINT), "\(state.ignored.sorted())")
        kill(child.process.processIdentifier, SIGTERM)
        let out = child.finish(within: 30)
        #expect(out.finished, "SIGTERM did not end the child")
        #expect(child.process.terminationReason == .uncaughtSignal && out.status == SIGTERM)
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/status"), "Linux /proc only"))
    func runAndStartPassNoMaskOnEither() throws {
        let grep = URL(fileURLWithPath: "/bin/grep")
        let out = try ChildSignals.withEverySignalBlocked {
            try TestProcess.run(grep, ["-E", "^Sig(Blk|Ign):", "/proc/self/status"], timeout: 30)
        }
        let state = try #require(ChildSignals.state(status: out.stdout), "\(out.stdout)")
        #expect(state.blocked.isEmpty && !state.ignored.contains(SIGTERM), "\(out.stdout)")
        let started = try ChildSignals.withEverySignalBlocked {
            try TestProcess.start(Self.waiter, Self.waiterArguments)
        }
        defer { if started.process.isRunning { kill(started.process.processIdentifier, SIGKILL) } }
        // Only the mask here: with SIGTERM blocked, an unbounded waitUntilExit after SIGTERM would never return.
        #expect(ChildSignals.state(of: started.process.processIdentifier)?.blocked.isEmpty == true)
    }

    @Test func theStatusMasksAreReadBitForSignal() throws {
        // Bit n-1 is signal n: 0x4002 is SIGINT (2) and SIGTERM (15); 0x1000 is SIGPIPE (13).
        let state = try #require(
            ChildSignals.state(status: "Name:\tx\nSigBlk:\t0000000000004002\nSigIgn:\t0000000000001000\n"))
        #expect(state.blocked == [SIGINT, SIGTERM] && state.ignored == [SIGPIPE])
        #expect(ChildSignals.state(status: "Name:\tx\n") == nil)
    }
}
