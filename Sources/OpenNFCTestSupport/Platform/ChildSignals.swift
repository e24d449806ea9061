package import Foundation

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Starting a child so that SIGTERM and SIGINT reach it. A child inherits the signal mask of the thread that spawns
/// it (POSIX `posix_spawn`, `fork`): Foundation's `Process.run()` neither resets the mask nor the dispositions, and
/// the threads that run tests (Swift concurrency's pool, libdispatch's workers) block every asynchronous signal, so a
/// program started from a test had SIGTERM and SIGINT blocked: one with no handler of its own never ended on SIGTERM,
/// and the signal stayed pending. Every launcher of the test support starts its children through ``run(_:)``.
package enum ChildSignals {
    /// Runs `process` from a thread of its own whose signal mask blocks nothing, so the child starts with an empty
    /// mask. Dispositions: a child inherits only the signals this process ignores (SIG_IGN survives exec, handlers do
    /// not); the test processes ignore neither SIGTERM nor SIGINT (a test checks it on a child).
    package static func run(_ process: Process) throws {
        final class Outcome: @unchecked Sendable {
            var error: (any Error)?
            var finished = false
        }
        let outcome = Outcome()
        let done = NSCondition()
        let thread = Thread {
            var none = sigset_t()
            sigemptyset(&none)
            pthread_sigmask(SIG_SETMASK, &none, nil)
            do { try process.run() } catch { outcome.error = error }
            // The thread ends here; blocking everything again first keeps it from taking a signal meant for the
            // test process while it winds down.
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_SETMASK, &all, nil)
            done.lock()
            outcome.finished = true
            done.broadcast()
            done.unlock()
        }
        thread.name = "spawn \(process.executableURL?.lastPathComponent ?? "child")"
        thread.start()
        done.lock()
        while !outcome.finished { done.wait() }
        done.unlock()
        if let error = outcome.error { throw error }
    }

    /// The signals a running process blocks and ignores, as Linux shows them in `/proc/<pid>/status`; nil where
    /// there is no such file (macOS) or the process is gone.
    package static func state(of pid: Int32) -> (blocked: Set<Int32>, ignored: Set<Int32>)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return state(status: text)
    }

    /// The `SigBlk` and `SigIgn` lines of a Linux process status text (bit n-1 of each hexadecimal mask is signal n).
    package static func state(status text: String) -> (blocked: Set<Int32>, ignored: Set<Int32>)? {
        func mask(_ field: String) -> Set<Int32>? {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(field + ":") }),
                let bits = UInt64(line.dropFirst(field.count + 1).trimmingCharacters(in: .whitespaces), radix: 16)
            else { return nil }
            return Set((1...64).filter { bits & (1 << UInt64($0 - 1)) != 0 }.map { Int32($0) })
        }
        guard let blocked = mask("SigBlk"), let ignored = mask("SigIgn") else { return nil }
        return (blocked, ignored)
    }

    /// Runs `body` with every signal blocked on the calling thread (as on a libdispatch worker), then restores the
    /// thread's mask: a test starts children from there to show that the launcher does not pass its mask on.
    package static func withEverySignalBlocked<T>(_ body: () throws -> T) rethrows -> T {
        var all = sigset_t()
        sigfillset(&all)
        var previous = sigset_t()
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Whether the calling thread blocks `signal` now.
    package static func callingThreadBlocks(_ signal: Int32) -> Bool {
        var current = sigset_t()
        sigemptyset(&current)
        pthread_sigmask(SIG_BLOCK, nil, &current)
        return sigismember(&current, signal) == 1
    }

    /// Ends `process` at once (SIGKILL: it cannot be caught), for a child a test is done with or that overran.
    package static func kill(_ process: Process) {
        #if canImport(Glibc)
            _ = Glibc.kill(process.processIdentifier, SIGKILL)
        #elseif canImport(Darwin)
            _ = Darwin.kill(process.processIdentifier, SIGKILL)
        #endif
    }
}
