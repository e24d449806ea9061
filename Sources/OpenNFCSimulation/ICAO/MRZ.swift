/// The machine readable zone of a travel document as a virtual eMRTD holds it in DG1 (ICAO Doc 9303 Part 3 §4.9
/// check digits, Part 4 §4.2 the TD3 passport, Part 5 §4.2 the TD1 card), composed from the holder's fields or
/// parsed from the printed lines.
///
/// | Format | Lines | Fields (1-based columns) |
/// |---|---|---|
/// | TD3 | 2 × 44 | L1: code 1–2, issuer 3–5, name 6–44. L2: number 1–9, check 10, nationality 11–13, birth 14–19, check 20, sex 21, expiry 22–27, check 28, optional 29–42, check 43, composite 44 |
/// | TD1 | 3 × 30 | L1: code 1–2, issuer 3–5, number 6–14, check 15, optional 16–30. L2: birth 1–6, check 7, sex 8, expiry 9–14, check 15, nationality 16–18, optional 19–29, composite 30. L3: name |
///
/// A TD1 document number longer than 9 characters continues in the optional data after a `<` in column 15, its
/// check digit following it (Part 5 §4.2.2 note j); ``documentNumber`` is always the whole number.
package struct MRZ: Sendable, Hashable {
    /// The document layouts a virtual eMRTD can carry.
    package enum Format: String, Sendable, Hashable {
        /// Passport booklet (Part 4): two lines of 44.
        case td3
        /// ID card (Part 5): three lines of 30.
        case td1

        package var lineLength: Int { self == .td3 ? 44 : 30 }
        package var lineCount: Int { self == .td3 ? 2 : 3 }
    }

    package var format: Format
    /// Document code, two characters (`P<`, `I<`, `ID`).
    package var documentCode: String
    /// Issuing state or organisation, three letters (`UTO`, `D<<`).
    package var issuingState: String
    package var surname: String
    package var givenNames: String
    package var documentNumber: String
    package var nationality: String
    /// YYMMDD.
    package var dateOfBirth: String
    /// `M`, `F` or `<`.
    package var sex: String
    /// YYMMDD.
    package var dateOfExpiry: String
    /// TD3: the personal number (14 characters at most); TD1: the optional data of line 1.
    package var optionalData: String
    /// TD1 only: the optional data of line 2 (11 characters at most).
    package var optionalData2: String

    package init(
        format: Format, documentCode: String? = nil, issuingState: String, surname: String, givenNames: String,
        documentNumber: String, nationality: String, dateOfBirth: String, sex: String, dateOfExpiry: String,
        optionalData: String = "", optionalData2: String = ""
    ) {
        self.format = format
        self.documentCode = documentCode ?? (format == .td3 ? "P<" : "I<")
        self.issuingState = issuingState
        self.surname = surname
        self.givenNames = givenNames
        self.documentNumber = documentNumber
        self.nationality = nationality
        self.dateOfBirth = dateOfBirth
        self.sex = sex
        self.dateOfExpiry = dateOfExpiry
        self.optionalData = optionalData
        self.optionalData2 = optionalData2
    }

    /// ICAO's specimen passport, Anna Maria Eriksson of Utopia (Doc 9303 Part 4, Appendix A's example MRZ).
    package static let specimenPassport = MRZ(
        format: .td3, issuingState: "UTO", surname: "ERIKSSON", givenNames: "ANNA MARIA", documentNumber: "L898902C3",
        nationality: "UTO", dateOfBirth: "740812", sex: "F", dateOfExpiry: "120415", optionalData: "ZE184226B")

    /// ICAO's specimen ID card for the same holder (Doc 9303 Part 5, Appendix A's example MRZ).
    package static let specimenCard = MRZ(
        format: .td1, issuingState: "UTO", surname: "ERIKSSON", givenNames: "ANNA MARIA", documentNumber: "D23145890",
        nationality: "UTO", dateOfBirth: "740812", sex: "F", dateOfExpiry: "120415")

    /// Check digit of Part 3 §4.9: weights 7, 3, 1 repeating over the character values (`0`–`9` their value,
    /// `A`–`Z` 10–35, `<` 0), sum modulo 10.
    package static func checkDigit(_ field: some StringProtocol) -> Character {
        let weights = [7, 3, 1]
        var sum = 0
        for (i, c) in field.unicodeScalars.enumerated() {
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

    /// `text` right-padded with `<` (filler) to `length` characters.
    static func padded(_ text: String, _ length: Int) -> String {
        text.count >= length ? String(text.prefix(length)) : text + String(repeating: "<", count: length - text.count)
    }

    /// Name field of Part 3 §4.6: surname, `<<`, given names; spaces and hyphens become `<`; truncated to fit.
    static func nameField(surname: String, givenNames: String, length: Int?) -> String {
        func filler(_ s: String) -> String {
            String(s.uppercased().map { $0 == " " || $0 == "-" || $0 == "'" ? "<" : $0 })
        }
        let name = givenNames.isEmpty ? filler(surname) : filler(surname) + "<<" + filler(givenNames)
        return length.map { padded(name, $0) } ?? name
    }

    /// The printed lines, composed with their check digits.
    package var lines: [String] {
        let number = documentNumber.uppercased()
        let numberCheck = String(Self.checkDigit(number))
        let birth = dateOfBirth + String(Self.checkDigit(dateOfBirth))
        let expiry = dateOfExpiry + String(Self.checkDigit(dateOfExpiry))
        switch format {
        case .td3:
            let first =
                Self.padded(documentCode, 2) + Self.padded(issuingState, 3)
                + Self.nameField(surname: surname, givenNames: givenNames, length: 39)
            let personal = Self.padded(optionalData, 14)
            let personalCheck = optionalData.isEmpty ? "<" : String(Self.checkDigit(personal))
            let numberField = Self.padded(number, 9) + (number.count > 9 ? "<" : numberCheck)
            let composite = numberField + birth + expiry + personal + personalCheck
            let second =
                numberField + Self.padded(nationality, 3) + birth + Self.padded(sex, 1) + expiry + personal
                + personalCheck
            return [first, second + String(Self.checkDigit(composite))]
        case .td1:
            let numberPart: String
            if number.count > 9 {
                // Part 5 §4.2.2: the first 9 characters, `<`, the rest and the check digit, a filler, the optional data.
                numberPart = Self.padded(
                    String(number.prefix(9)) + "<" + number.dropFirst(9) + numberCheck + "<" + optionalData, 25)
            } else {
                numberPart = Self.padded(number, 9) + numberCheck + Self.padded(optionalData, 15)
            }
            let first = Self.padded(documentCode, 2) + Self.padded(issuingState, 3) + numberPart
            let optional2 = Self.padded(optionalData2, 11)
            let composite = numberPart + birth + expiry + optional2
            let second =
                birth + Self.padded(sex, 1) + expiry + Self.padded(nationality, 3) + optional2
                + String(Self.checkDigit(composite))
            let third = Self.nameField(surname: surname, givenNames: givenNames, length: 30)
            return [first, second, third]
        }
    }

    /// The MRZ information BAC and PACE derive their keys from (Part 11 §9.7.1.1, §9.7.3): document number, its
    /// check digit, date of birth, its check digit, date of expiry, its check digit.
    package var keyInformation: String {
        let number = documentNumber.uppercased()
        let numberField = number.count < 9 ? Self.padded(number, 9) : number
        return numberField + String(Self.checkDigit(numberField)) + dateOfBirth
            + String(Self.checkDigit(dateOfBirth)) + dateOfExpiry + String(Self.checkDigit(dateOfExpiry))
    }

    /// The name as DG11's full name holds it (Doc 9303 Part 10 §4.7.11): `SURNAME<<GIVEN<NAMES`, unpadded.
    package var fullName: String { Self.nameField(surname: surname, givenNames: givenNames, length: nil) }

    /// The holder's name as printed, for reports: given names then surname.
    package var displayName: String {
        givenNames.isEmpty ? surname : "\(givenNames) \(surname)"
    }
}
