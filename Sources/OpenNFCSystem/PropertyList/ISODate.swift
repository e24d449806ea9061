/// ISO 8601 `YYYY-MM-DDTHH:MM:SSZ` dates as seconds since 2001-01-01T00:00:00Z (the plist reference date).
enum ISODate {
    static func secondsSinceReferenceDate(_ s: String) -> Double? {
        let u = Array(s.utf8)
        guard u.count == 20, u[4] == UInt8(ascii: "-"), u[7] == UInt8(ascii: "-"), u[10] == UInt8(ascii: "T"),
            u[13] == UInt8(ascii: ":"), u[16] == UInt8(ascii: ":"), u[19] == UInt8(ascii: "Z")
        else { return nil }
        func num(_ r: Range<Int>) -> Int? { Int(String(decoding: u[r], as: UTF8.self)) }
        guard let y = num(0..<4), let mo = num(5..<7), let d = num(8..<10), let h = num(11..<13),
            let mi = num(14..<16), let se = num(17..<19), (1...12).contains(mo), (1...31).contains(d), h < 24,
            mi < 60, se < 61
        else { return nil }
        let days = daysFromCivil(y, mo, d) - daysFromCivil(2001, 1, 1)
        return Double(days * 86400 + h * 3600 + mi * 60 + se)
    }

    static func string(secondsSinceReferenceDate t: Double) -> String {
        let total = Int(t.rounded(.down)) + daysFromCivil(2001, 1, 1) * 86400
        let days = Int((Double(total) / 86400).rounded(.down))
        var rem = total - days * 86400
        let (y, m, d) = civilFromDays(days)
        let h = rem / 3600
        rem %= 3600
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let year = String(y)
        let four = y >= 0 && y < 1000 ? String(repeating: "0", count: 4 - year.count) + year : year
        return "\(four)-\(two(m))-\(two(d))T\(two(h)):\(two(rem / 60)):\(two(rem % 60))Z"
    }

    /// The dates `YYYY-MM-DDTHH:MM:SSZ` can write: years 0000 to 9999, in seconds since the reference date.
    static let writableRange: Range<Double> =
        Double(
            (daysFromCivil(0, 1, 1) - daysFromCivil(2001, 1, 1)) * 86400)..<Double(
            (daysFromCivil(10000, 1, 1) - daysFromCivil(2001, 1, 1)) * 86400)

    /// Days since 1970-01-01 for a proleptic Gregorian date (H. Hinnant's civil-calendar algorithm).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146097 + doe - 719468
    }

    static func civilFromDays(_ z0: Int) -> (Int, Int, Int) {
        let z = z0 + 719468
        let era = (z >= 0 ? z : z - 146096) / 146097
        let doe = z - era * 146097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}
