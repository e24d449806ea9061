import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The 1, 5 and 15 minute load averages (`getloadavg`, in glibc, musl and Darwin's libc alike), for reading the
/// figures of a shared machine; "unknown" when the system does not say.
func loadAverage() -> String {
    var loads = [Double](repeating: 0, count: 3)
    guard getloadavg(&loads, 3) == 3 else { return "unknown" }
    return loads.map { String(format: "%.2f", $0) }.joined(separator: " ")
}

/// This thread's CPU time in seconds: the machine is shared, so wall-clock rates would measure the other
/// processes too; both our figures and ndeflib's (Python's `time.thread_time`) use thread CPU time.
func threadCPUSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}

/// SIGPIPE ignored for the whole process: a child that stops reading makes writes fail with EPIPE instead of
/// killing the benchmark.
func ignoreBrokenPipes() { signal(SIGPIPE, SIG_IGN) }
