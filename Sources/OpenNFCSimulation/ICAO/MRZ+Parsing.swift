/// Reading printed MRZ lines back into fields, and checking the fields a holder gives (ICAO Doc 9303 Part 3 §4.3:
/// the character set `A`–`Z`, `0`–`9`, `<`).
extension MRZ {
    /// Why an MRZ or one of its fields is not valid; `reason` names the field or the column.
    package struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        package var reason: String
        package init(_ reason: String) { self.reason = reason }
        package var description: String { reason }
    }

    /// Parses 2 × 44 (TD3) or 3 × 30 (TD1) characters, with or without line breaks, checking every check digit.
    package init(parsing text: String) throws(Invalid) {
        let chars = text.filter { !$0.isNewline && $0 != " " }
        let format: Format
        switch chars.count {
        case 88: format = .td3
        case 90: format = .td1
        default:
            throw Invalid(
                "an MRZ has 88 characters (TD3 passport, 2 × 44) or 90 (TD1 card, 3 × 30), not \(chars.count)")
        }
        if let bad = chars.firstIndex(where: { !Self.isMRZCharacter($0) }) {
            let at = chars.distance(from: chars.startIndex, to: bad)
            throw Invalid(
                "character '\(chars[bad])' at line \(at / format.lineLength + 1) column \(at % format.lineLength + 1) "
                    + "is not A–Z, 0–9 or <")
        }
        let all = Array(chars)
        let n = format.lineLength
        let lines = (0..<format.lineCount).map { String(all[$0 * n..<($0 + 1) * n]) }
        func field(_ line: Int, _ from: Int, _ to: Int) -> String {
            let l = Array(lines[line - 1])
            return String(l[(from - 1)..<to])
        }
        func trimmed(_ s: String) -> String {
            var s = s
            while s.hasSuffix("<") { s.removeLast() }
            return s
        }
        let names: String
        let parsed: MRZ
        switch format {
        case .td3:
            names = field(1, 6, 44)
            parsed = MRZ(
                format: .td3, documentCode: field(1, 1, 2), issuingState: trimmed(field(1, 3, 5)), surname: "",
                givenNames: "", documentNumber: trimmed(field(2, 1, 9)), nationality: trimmed(field(2, 11, 13)),
                dateOfBirth: field(2, 14, 19), sex: field(2, 21, 21), dateOfExpiry: field(2, 22, 27),
                optionalData: trimmed(field(2, 29, 42)))
        case .td1:
            names = lines[2]
            var number = trimmed(field(1, 6, 14))
            var optional = field(1, 16, 30)
            if field(1, 15, 15) == "<" && trimmed(optional) != "" {
                // Part 5 §4.2.2: a long number continues in the optional data, followed by its check digit.
                let rest = trimmed(optional)
                let end = rest.firstIndex(of: "<") ?? rest.endIndex
                let tail = rest[rest.startIndex..<end]
                number += tail.dropLast()
                optional = String(rest[end...])
            }
            parsed = MRZ(
                format: .td1, documentCode: field(1, 1, 2), issuingState: trimmed(field(1, 3, 5)), surname: "",
                givenNames: "", documentNumber: number, nationality: trimmed(field(2, 16, 18)),
                dateOfBirth: field(2, 1, 6), sex: field(2, 8, 8), dateOfExpiry: field(2, 9, 14),
                optionalData: trimmed(optional.hasPrefix("<") ? String(optional.drop { $0 == "<" }) : optional),
                optionalData2: trimmed(field(2, 19, 29)))
        }
        self = parsed
        (surname, givenNames) = Self.splitName(names)
        try validate()
        guard self.lines == lines else {
            let mismatch = zip(self.lines, lines).enumerated().first { $0.element.0 != $0.element.1 }
            let line = (mismatch?.offset ?? 0) + 1
            let column =
                mismatch.map { m in zip(m.element.0, m.element.1).enumerated().first { $0.element.0 != $0.element.1 } }
                .flatMap { $0?.offset }.map { $0 + 1 } ?? 0
            throw Invalid(
                "line \(line) column \(column): check digit or filler does not match the fields (expected "
                    + "\(self.lines[line - 1]))")
        }
    }

    /// The surname and given names of a name field: primary and secondary identifiers separated by `<<`, words
    /// by `<` (Part 3 §4.6).
    static func splitName(_ field: String) -> (String, String) {
        var parts: [String] = []
        var current = ""
        var fillers = 0
        for c in field {
            if c == "<" {
                fillers += 1
                continue
            }
            if fillers >= 2 && parts.isEmpty {
                parts.append(current)
                current = ""
            } else if fillers >= 1 && !current.isEmpty {
                current += " "
            }
            fillers = 0
            current.append(c)
        }
        parts.append(current)
        return (parts[0], parts.count > 1 ? parts[1] : "")
    }

    /// Whether `c` belongs to the MRZ character set.
    static func isMRZCharacter(_ c: Character) -> Bool {
        ("A"..."Z").contains(c) || ("0"..."9").contains(c) || c == "<"
    }

    /// Checks every field against the layout: character set, lengths, dates, sex.
    package func validate() throws(Invalid) {
        func check(_ name: String, _ value: String, max: Int, min: Int = 1, allowSpaces: Bool = false)
            throws(Invalid)
        {
            guard (min...max).contains(value.count) else {
                throw Invalid("\(name) '\(value)' has \(value.count) characters; it takes \(min)…\(max)")
            }
            for c in value.uppercased() where !Self.isMRZCharacter(c) && !(allowSpaces && (c == " " || c == "-")) {
                throw Invalid("\(name) '\(value)': character '\(c)' is not A–Z, 0–9 or <")
            }
        }
        try check("document code", documentCode, max: 2, min: 2)
        try check("issuing state", issuingState, max: 3)
        try check("nationality", nationality, max: 3)
        try check("surname", surname, max: format == .td3 ? 37 : 28, allowSpaces: true)
        try check("given names", givenNames, max: format == .td3 ? 37 : 28, min: 0, allowSpaces: true)
        try check("document number", documentNumber, max: format == .td3 ? 9 : 22)
        try check("optional data", optionalData, max: format == .td3 ? 14 : 15, min: 0)
        try check("optional data 2", optionalData2, max: format == .td3 ? 0 : 11, min: 0)
        if format == .td1, documentNumber.count > 9, documentNumber.count - 9 + 2 + optionalData.count > 15 {
            throw Invalid(
                "document number '\(documentNumber)' continues in the optional data, which leaves room for "
                    + "\(15 - (documentNumber.count - 9) - 2) optional characters, not \(optionalData.count)")
        }
        for (name, date) in [("date of birth", dateOfBirth), ("date of expiry", dateOfExpiry)] {
            guard date.count == 6, date.allSatisfy({ $0.isASCII && $0.isNumber }),
                let month = Int(date.dropFirst(2).prefix(2)), let day = Int(date.suffix(2)), (1...12).contains(month),
                (1...31).contains(day)
            else { throw Invalid("\(name) '\(date)' is not a date YYMMDD") }
        }
        guard ["M", "F", "<"].contains(sex) else {
            throw Invalid("sex '\(sex)' is not M, F or < (unspecified)")
        }
    }
}
