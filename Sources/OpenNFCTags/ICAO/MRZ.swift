/// A machine readable zone (ICAO Doc 9303 Part 3 §4.9 check digits; Part 4 TD3, Part 5 TD1, Part 6 TD2), parsed
/// and checked, and the "MRZ information" BAC and PACE derive their keys from (Part 11 §9.7.2: document number,
/// date of birth, date of expiry, each with its check digit).
package struct MRZ: Sendable, Hashable {
    package enum Format: String, Sendable, Hashable {
        /// Three lines of 30 (ID cards).
        case td1
        /// Two lines of 36.
        case td2
        /// Two lines of 44 (passports).
        case td3
    }

    package var format: Format
    package var documentCode: String
    package var issuingState: String
    package var documentNumber: String
    package var documentNumberCheckDigit: Character
    package var nationality: String
    /// YYMMDD.
    package var dateOfBirth: String
    package var sex: String
    /// YYMMDD.
    package var dateOfExpiry: String
    package var primaryIdentifier: String
    package var secondaryIdentifier: String
    package var optionalData: String
    /// The lines, without separators.
    package var text: String

    /// The MRZ information of Part 11 §9.7.2 (as BAC's key seed and PACE's MRZ password hash it).
    package var keyInformation: String {
        documentNumber + String(documentNumberCheckDigit) + dateOfBirth
            + String(MRZ.checkDigit(dateOfBirth)) + dateOfExpiry + String(MRZ.checkDigit(dateOfExpiry))
    }

    /// Part 3 §4.9: weights 7, 3, 1; `0`–`9` are their value, `A`–`Z` 10–35, `<` 0; the sum modulo 10.
    package static func checkDigit<S: StringProtocol>(_ s: S) -> Character {
        let weights = [7, 3, 1]
        var sum = 0
        for (i, c) in s.unicodeScalars.enumerated() {
            let v: Int
            switch c.value {
            case 0x30...0x39: v = Int(c.value) - 0x30
            case 0x41...0x5A: v = Int(c.value) - 0x41 + 10
            default: v = 0
            }
            sum += v * weights[i % 3]
        }
        return Character(String(sum % 10))
    }

    /// Parses a whole MRZ: 3×30, 2×36 or 2×44 characters, lines separated by newlines or run together. Every check
    /// digit is verified; a wrong one is an error naming its line and column.
    package init(_ text: String) throws(PassportError) {
        let clean = String(text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" && $0 != " " })
        let chars = Array(clean)
        for (i, c) in chars.enumerated() where !(c.isASCII && (c.isUppercase || c.isNumber || c == "<")) {
            throw PassportError(.invalidInput, "MRZ character \(i + 1) '\(c)' is not A–Z, 0–9 or <")
        }
        func field(_ line: Int, _ from: Int, _ to: Int, width: Int) -> String {
            let start = (line - 1) * width + from - 1
            return String(chars[start..<(start + to - from + 1)])
        }
        func check(_ value: String, _ digit: String, _ what: String) throws(PassportError) {
            guard let d = digit.first, MRZ.checkDigit(value) == d || (digit == "<" && value.allSatisfy({ $0 == "<" }))
            else {
                throw PassportError(
                    .invalidInput, "the check digit of the \(what) is \(digit), \(MRZ.checkDigit(value)) was expected")
            }
        }
        func names(_ s: String) -> (String, String) {
            let parts = s.split(separator: "<<", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            func words(_ x: String) -> String {
                x.split(separator: "<").joined(separator: " ")
            }
            return (words(parts[0]), parts.count > 1 ? words(parts[1]) : "")
        }
        switch chars.count {
        case 90:
            let w = 30
            format = .td1
            documentCode = field(1, 1, 2, width: w)
            issuingState = field(1, 3, 5, width: w)
            var number = field(1, 6, 14, width: w)
            var numberDigit = field(1, 15, 15, width: w)
            var optional1 = field(1, 16, 30, width: w)
            if numberDigit == "<" {
                // Part 5 §4.2.4: a number longer than 9 characters continues in the optional data, followed by its
                // check digit; the `<` in position 15 marks it.
                guard let end = optional1.firstIndex(of: "<"), end > optional1.startIndex else {
                    throw PassportError(
                        .invalidInput, "the TD1 document number continues but its check digit is missing")
                }
                let rest = optional1[..<end]
                number += rest.dropLast()
                numberDigit = String(rest.last!)
                optional1 = String(optional1[optional1.index(after: end)...])
            }
            try check(number, numberDigit, "document number")
            documentNumber = number
            documentNumberCheckDigit = numberDigit.first!
            dateOfBirth = field(2, 1, 6, width: w)
            try check(dateOfBirth, field(2, 7, 7, width: w), "date of birth")
            sex = field(2, 8, 8, width: w)
            dateOfExpiry = field(2, 9, 14, width: w)
            try check(dateOfExpiry, field(2, 15, 15, width: w), "date of expiry")
            nationality = field(2, 16, 18, width: w)
            optionalData = (optional1 + field(2, 19, 29, width: w))
            let composite =
                field(1, 6, 30, width: w) + field(2, 1, 7, width: w) + field(2, 9, 15, width: w)
                + field(2, 19, 29, width: w)
            try check(composite, field(2, 30, 30, width: w), "composite (line 2, column 30)")
            (primaryIdentifier, secondaryIdentifier) = names(field(3, 1, 30, width: w))
        case 72, 88:
            let w = chars.count / 2
            format = w == 36 ? .td2 : .td3
            documentCode = field(1, 1, 2, width: w)
            issuingState = field(1, 3, 5, width: w)
            (primaryIdentifier, secondaryIdentifier) = names(field(1, 6, w, width: w))
            documentNumber = field(2, 1, 9, width: w)
            let numberDigit = field(2, 10, 10, width: w)
            try check(documentNumber, numberDigit, "document number")
            documentNumberCheckDigit = numberDigit.first!
            nationality = field(2, 11, 13, width: w)
            dateOfBirth = field(2, 14, 19, width: w)
            try check(dateOfBirth, field(2, 20, 20, width: w), "date of birth")
            sex = field(2, 21, 21, width: w)
            dateOfExpiry = field(2, 22, 27, width: w)
            try check(dateOfExpiry, field(2, 28, 28, width: w), "date of expiry")
            if w == 44 {
                optionalData = field(2, 29, 42, width: w)
                try check(optionalData, field(2, 43, 43, width: w), "personal number")
                let composite = field(2, 1, 10, width: w) + field(2, 14, 20, width: w) + field(2, 22, 43, width: w)
                try check(composite, field(2, 44, 44, width: w), "composite (line 2, column 44)")
            } else {
                optionalData = field(2, 29, 35, width: w)
                let composite = field(2, 1, 10, width: w) + field(2, 14, 20, width: w) + field(2, 22, 35, width: w)
                try check(composite, field(2, 36, 36, width: w), "composite (line 2, column 36)")
            }
        default:
            throw PassportError(
                .invalidInput, "an MRZ has 90 (TD1), 72 (TD2) or 88 (TD3) characters, this one has \(chars.count)")
        }
        optionalData = String(optionalData.reversed().drop { $0 == "<" }.reversed())
        self.text = clean
    }

    /// The key information from the three fields alone (what a user types from the data page: document number,
    /// birth and expiry dates as YYMMDD); the check digits are computed.
    package static func keyInformation(documentNumber: String, dateOfBirth: String, dateOfExpiry: String)
        throws(PassportError) -> String
    {
        let number = documentNumber.uppercased()
        guard !number.isEmpty, number.allSatisfy({ $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "<") }) else {
            throw PassportError(.invalidInput, "the document number '\(documentNumber)' is not A–Z, 0–9 and <")
        }
        for (d, what) in [(dateOfBirth, "date of birth"), (dateOfExpiry, "date of expiry")]
        where d.count != 6 || !d.allSatisfy(\.isNumber) {
            throw PassportError(.invalidInput, "the \(what) '\(d)' is not YYMMDD")
        }
        let padded = number.count < 9 ? number + String(repeating: "<", count: 9 - number.count) : number
        return padded + String(checkDigit(padded)) + dateOfBirth + String(checkDigit(dateOfBirth)) + dateOfExpiry
            + String(checkDigit(dateOfExpiry))
    }
}
