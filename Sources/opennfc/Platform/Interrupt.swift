import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ctrl-C (SIGINT) for long runs: the first one only raises a flag that the batch loop checks between tags, so the
/// tag in hand is finished and its report line written; a second one ends the process at once (the report is
/// still consistent: its lines are appended whole).
enum Interrupt {
    private static let flag = Atomic<Bool>(false)

    static var requested: Bool { flag.load(ordering: .relaxed) }

    /// Installs the handler. Call once, before the first tag.
    static func install() {
        signal(SIGINT) { _ in
            Interrupt.flag.store(true, ordering: .relaxed)
            signal(SIGINT, SIG_DFL)
        }
        // A parent may have started us with SIGINT blocked (test runners do); Ctrl-C must reach the handler.
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Behaves exactly as a Ctrl-C from the terminal (used by the test hook `OPENNFC_TEST_INTERRUPT_AFTER`).
    static func raiseNow() { raise(SIGINT) }
}
