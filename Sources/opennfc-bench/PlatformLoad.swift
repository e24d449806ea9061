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
