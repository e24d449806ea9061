import OpenNFCBytes
import Testing

/// Days since 1970-01-01 and back, the one calendar of DER times and property-list dates.
@Suite struct CivilCalendarTests {
    /// Dates whose day numbers follow from counting: the epoch, the day before it, a leap day, the first day after
    /// 2000's leap day, year 0's 1 March (719,468 days before the epoch: the algorithm's own era origin).
    @Test func knownDays() {
        #expect(CivilCalendar.days(year: 1970, month: 1, day: 1) == 0)
        #expect(CivilCalendar.days(year: 1969, month: 12, day: 31) == -1)
        #expect(CivilCalendar.days(year: 1972, month: 2, day: 29) == 365 + 365 + 31 + 28)
        #expect(CivilCalendar.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(CivilCalendar.days(year: 2001, month: 1, day: 1) == 11_323)
        #expect(CivilCalendar.days(year: 0, month: 3, day: 1) == -719_468)
    }

    /// Every day from year -1 to 2400 comes back as the date it was made from, and consecutive days are consecutive
    /// dates (months of 28–31 days, leap years by the Gregorian rule).
    @Test func roundTripsAndSteps() {
        let first = CivilCalendar.days(year: -1, month: 1, day: 1)
        let last = CivilCalendar.days(year: 2400, month: 12, day: 31)
        var previous = CivilCalendar.date(days: first - 1)
        for n in first...last {
            let d = CivilCalendar.date(days: n)
            #expect(CivilCalendar.days(year: d.year, month: d.month, day: d.day) == n)
            let leap = previous.year % 4 == 0 && (previous.year % 100 != 0 || previous.year % 400 == 0)
            let length = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][previous.month - 1]
            let expected =
                previous.day < length
                ? (previous.year, previous.month, previous.day + 1)
                : previous.month < 12 ? (previous.year, previous.month + 1, 1) : (previous.year + 1, 1, 1)
            if d != expected { Issue.record("day \(n): \(d) after \(previous)") }
            previous = d
        }
    }
}
