internal import OpenNFCBytes

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

    static func daysFromCivil(_ y: Int, _ m: Int, _ d: Int) -> Int { CivilCalendar.days(year: y, month: m, day: d) }

    static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let date = CivilCalendar.date(days: days)
        return (date.year, date.month, date.day)
    }
}
