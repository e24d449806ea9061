/// The one hex memory map of every family (`opennfc dump`, `tag show`, the field page's memory panel; docs/CLI.md
/// "Memory maps"): one line a page, block or row of bytes, numbered in hex as the family counts them, the bytes in
/// spaced hex, optionally their ASCII, and what the line holds. A run of lines identical to the one before (same
/// bytes, nothing to say about them) is collapsed into one `*` line, as `hexdump` and `xxd -a` do; the last line
/// is always shown, so the map ends at the memory's end.
///
/// ```
/// 00  04 A1 B2 9F  ....  UID0-2, BCC0
/// 04  03 00 FE 00  ....
/// 05  00 00 00 00  ....
/// *
/// 81  00 00 00 00  ....
/// ```
package struct MemoryMap: Sendable {
    package struct Row: Sendable, Hashable {
        /// The page, block or byte offset, as the family counts.
        package var number: Int
        /// nil: the bytes could not be read (printed as `--`).
        package var bytes: [UInt8]?
        /// What the line holds (`UID0-2, BCC0`, `capability container`); empty for plain data.
        package var note: String
        package init(number: Int, bytes: [UInt8]?, note: String = "") {
            self.number = number
            self.bytes = bytes
            self.note = note
        }
    }

    package var rows: [Row]
    /// How many bytes a full row has (rows shorter than this are padded so that columns line up).
    package var rowWidth: Int
    /// Show the bytes as ASCII too (`.` for anything that is not printable).
    package var ascii: Bool
    /// The fewest hex digits of a number (byte offsets: 4).
    package var minimumDigits: Int

    package init(rows: [Row], rowWidth: Int, ascii: Bool = true, minimumDigits: Int = 2) {
        self.rows = rows
        self.rowWidth = rowWidth
        self.ascii = ascii
        self.minimumDigits = minimumDigits
    }

    /// Rows of `width` bytes cut from `bytes`, numbered by `numbering` (the row's index → its number: a page, a
    /// block, a byte offset), with notes from `note`.
    package init(
        bytes: [UInt8], width: Int, ascii: Bool = true, minimumDigits: Int = 2, numbering: (Int) -> Int = { $0 },
        note: (Int) -> String = { _ in "" }
    ) {
        var rows: [Row] = []
        var i = 0
        while i * width < bytes.count {
            rows.append(
                Row(
                    number: numbering(i), bytes: Array(bytes[i * width..<min(bytes.count, (i + 1) * width)]),
                    note: note(i)))
            i += 1
        }
        self.init(rows: rows, rowWidth: width, ascii: ascii, minimumDigits: minimumDigits)
    }

    /// Hex digits of the numbers: at least ``minimumDigits``, an even number enough for the largest.
    package var digits: Int {
        let largest = rows.map(\.number).max() ?? 0
        var d = max(2, minimumDigits)
        while largest >> (4 * d) > 0 { d += 2 }
        return d
    }

    /// The map's lines, each starting with `indent`; runs of identical lines collapsed into `*`.
    package func lines(indent: String = "") -> [String] {
        var out: [String] = []
        var previous: Row?
        var collapsed = false
        for (k, row) in rows.enumerated() {
            if let p = previous, k != rows.count - 1, row.note.isEmpty, p.note.isEmpty, row.bytes == p.bytes {
                if !collapsed { out.append(indent + "*") }
                collapsed = true
                continue
            }
            collapsed = false
            previous = row
            out.append(indent + line(row))
        }
        return out
    }

    /// The map as text, one line each, ending with a newline.
    package func text(indent: String = "") -> String {
        lines(indent: indent).map { $0 + "\n" }.joined()
    }

    private func line(_ row: Row) -> String {
        let n = String(row.number, radix: 16, uppercase: true)
        var s = String(repeating: "0", count: max(0, digits - n.count)) + n + "  "
        let bytes = row.bytes ?? [UInt8](repeating: 0, count: rowWidth)
        var hex =
            row.bytes == nil
            ? Array(repeating: "--", count: rowWidth).joined(separator: " ") : Hex.encode(bytes, separator: " ")
        if bytes.count < rowWidth { hex += String(repeating: " ", count: 3 * (rowWidth - bytes.count)) }
        s += hex
        if ascii {
            var a =
                row.bytes == nil
                ? String(repeating: " ", count: rowWidth)
                : String(bytes.map { (0x20...0x7E).contains($0) ? Character(UnicodeScalar($0)) : "." })
            if a.count < rowWidth { a += String(repeating: " ", count: rowWidth - a.count) }
            s += "  " + a
        }
        if !row.note.isEmpty { s += "  " + row.note }
        while s.last == " " { s.removeLast() }
        return s
    }
}
