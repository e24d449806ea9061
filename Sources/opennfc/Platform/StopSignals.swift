import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM turned into a call of `stop` on a thread of its own, through a pipe: the handler, run by
/// whichever thread the kernel picks, only writes the signal's number as one byte (write(2) is async-signal-safe,
/// POSIX.1-2017 §2.4.3), and the thread reading the pipe calls `stop` with it. Unlike a dispatch signal source, this
/// does not depend on which threads block the signal. Used by every long-running command (`emulate`, `field serve`,
/// `watch`); one per process, since the handler (a C function) cannot capture and finds the pipe in a static.
/// After ``cancel()`` both signals are ignored (a second Ctrl-C while the tag is being saved does not cut the save).
final class StopSignals: @unchecked Sendable {
    /// The pipe's write end, for the handler.
    nonisolated(unsafe) private static var writeEnd: Int32 = -1
    private let pipeEnds: [Int32]

    /// Installs the handlers, then unblocks both signals in the calling thread: a parent may have started us with
    /// them blocked (test runners do), and a signal that comes as soon as they are unblocked finds the handler.
    init(name: String, _ stop: @escaping @Sendable (Int32) -> Void) {
        var fds: [Int32] = [-1, -1]
        if pipe(&fds) != 0 { fds = [-1, -1] }
        pipeEnds = fds
        Self.writeEnd = fds[1]
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGINT, SIGTERM] {
            _ = signal(sig) { sig in
                var byte = UInt8(truncatingIfNeeded: sig)
                _ = write(StopSignals.writeEnd, &byte, 1)
            }
            sigaddset(&set, sig)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
        let readEnd = fds[0]
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let n = read(readEnd, &byte, 1)
                if n < 0 && errno == EINTR { continue }
                break
            }
            if byte != 0 { stop(Int32(byte)) }
        }
        thread.name = name
        thread.start()
    }

    /// Ignores SIGINT and SIGTERM from now on and ends the reading thread.
    func cancel() {
        for sig in [SIGINT, SIGTERM] { _ = signal(sig, SIG_IGN) }
        var byte: UInt8 = 0
        _ = write(pipeEnds[1], &byte, 1)
    }

    /// The signal's name for logs.
    static func name(_ signal: Int32) -> String {
        switch signal {
        case SIGINT: "SIGINT"
        case SIGTERM: "SIGTERM"
        default: "signal \(signal)"
        }
    }
}
