/// A span of time on the air, counted in carrier cycles of fc = 13.56 MHz: every NFC standard states its bit
/// durations and delays in those units (ISO/IEC 14443-2 §6.1, ISO/IEC 15693-2 §6, JIS X 6319-4 §7), so sums
/// stay exact and round only once, when they become an ``NFCDuration``. The model is described in docs/TIMING.md.
package struct AirTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The carrier frequency fc in hertz.
    package static let carrierHz: UInt64 = 13_560_000
    package static let zero = AirTime(cycles: 0)

    /// Carrier cycles (1/fc ≈ 73.746 ns each).
    package var cycles: UInt64

    package init(cycles: UInt64) { self.cycles = cycles }

    /// The span rounded to the nearest nanosecond.
    package var nanoseconds: UInt64 {
        let whole = cycles / Self.carrierHz
        let rest = cycles % Self.carrierHz
        return whole * 1_000_000_000 + (rest * 1_000_000_000 + Self.carrierHz / 2) / Self.carrierHz
    }

    /// The span as a clock duration (rounded to the nanosecond).
    package var duration: NFCDuration { NFCDuration(nanoseconds: nanoseconds) }

    /// Microseconds, for people.
    package var microseconds: Double { Double(cycles) * 1e6 / Double(Self.carrierHz) }

    package static func + (a: AirTime, b: AirTime) -> AirTime { AirTime(cycles: a.cycles + b.cycles) }
    package static func * (a: AirTime, n: Int) -> AirTime { AirTime(cycles: a.cycles * UInt64(n)) }
    package static func < (a: AirTime, b: AirTime) -> Bool { a.cycles < b.cycles }

    /// `123.4 µs`, or `1.234 ms` from a millisecond on.
    package var description: String {
        let us = microseconds
        if us >= 1000 { return String(format3(us / 1000)) + " ms" }
        return String(format1(us)) + " µs"
    }

    private func format1(_ v: Double) -> String {
        let tenths = (v * 10).rounded()
        return "\(Int(tenths) / 10).\(Int(tenths) % 10)"
    }

    private func format3(_ v: Double) -> String {
        let thousandths = Int((v * 1000).rounded())
        let frac = String(thousandths % 1000)
        return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - frac.count) + frac
    }
}

extension Sequence where Element == AirTime {
    /// The sum of the spans.
    package func total() -> AirTime { reduce(.zero, +) }
}
