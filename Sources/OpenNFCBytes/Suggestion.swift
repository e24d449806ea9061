/// "Did you mean …?" for a mistyped name among known ones (chips, device schemes, subcommands): the closest name by
/// edit distance (Levenshtein, with a swap of two neighbours counted as one edit), compared case-folded.
package enum Suggestion {
    /// The known name closest to `typed`, when it is close enough to be what was meant: at most one edit for short
    /// names, up to a third of the name's length for longer ones. Nil when none is, or two are equally close.
    package static func closest(to typed: String, among known: some Sequence<String>) -> String? {
        let a = Array(typed.lowercased())
        guard !a.isEmpty else { return nil }
        var best: (name: String, distance: Int)? = nil
        var tie = false
        for name in known {
            let d = distance(a, Array(name.lowercased()))
            if best == nil || d < best!.distance {
                best = (name, d)
                tie = false
            } else if d == best!.distance, name != best!.name {
                tie = true
            }
        }
        guard let best, !tie else { return nil }
        return best.distance <= max(1, a.count / 3) ? best.name : nil
    }

    /// ` (did you mean 'x'?)`, or nothing.
    package static func hint(for typed: String, among known: some Sequence<String>) -> String {
        closest(to: typed, among: known).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
    static func distance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
