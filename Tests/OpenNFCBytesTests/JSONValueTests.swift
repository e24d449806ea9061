import OpenNFCBytes
import Testing

@Suite struct JSONValueTests {
    @Test func roundTripKeepsKeyOrder() throws {
        let text = #"{"chip":"ntag215","uid":"04A1","pages":[1,2.5,true,null],"nested":{"z":1,"a":"\u00e9\n"}}"#
        let v = try JSONValue(parsing: text)
        #expect(v["chip"]?.stringValue == "ntag215")
        #expect(v["nested"]?["a"]?.stringValue == "é\n")
        #expect(v.compact == #"{"chip":"ntag215","uid":"04A1","pages":[1,2.5,true,null],"nested":{"z":1,"a":"é\n"}}"#)
        #expect(try JSONValue(parsing: v.pretty) == v)
    }

    @Test func errorsNameLineAndColumn() {
        #expect(throws: JSONValue.ParseError(reason: "expected ',' or '}' in object", line: 2, column: 7)) {
            try JSONValue(parsing: "{\"a\": 1,\n\"b\":1 x}")
        }
        #expect(throws: JSONValue.ParseError(reason: "duplicate key \"a\"", line: 1, column: 9)) {
            try JSONValue(parsing: #"{"a":1, "a":2}"#)
        }
        #expect(throws: JSONValue.ParseError(reason: "nesting deeper than 3", line: 1, column: 5)) {
            try JSONValue(parsing: "[[[[[]]]]]", maxDepth: 3)
        }
        #expect(throws: JSONValue.ParseError(reason: "unexpected text after the JSON value", line: 1, column: 4)) {
            try JSONValue(parsing: "{} x")
        }
    }

    /// RFC 8259 §6's number grammar, strictly: what it forbids is refused at the character that breaks it, not read
    /// as the number it looks like.
    @Test func numbersFollowRFC8259() throws {
        for (text, value) in [
            ("0", JSONValue.int(0)), ("-0", .int(0)), ("10", .int(10)), ("-12", .int(-12)), ("0.5", .double(0.5)),
            ("1e3", .double(1000)), ("1E+2", .double(100)), ("-2.5e-1", .double(-0.25)),
        ] {
            #expect(try JSONValue(parsing: text) == value, "\(text)")
        }
        for (text, reason, column) in [
            ("01", "invalid number: a leading zero (RFC 8259 §6)", 2),
            ("-007", "invalid number: a leading zero (RFC 8259 §6)", 3),
            ("+1", "invalid number: a JSON number starts with '-' or a digit (RFC 8259 §6)", 1),
            (".5", "invalid number: a JSON number starts with '-' or a digit (RFC 8259 §6)", 1),
            ("-.5", "invalid number: a JSON number starts with '-' or a digit (RFC 8259 §6)", 2),
            ("1.", "invalid number: a digit must follow the decimal point (RFC 8259 §6)", 3),
            ("1.e5", "invalid number: a digit must follow the decimal point (RFC 8259 §6)", 3),
            ("1e", "invalid number: the exponent has no digits (RFC 8259 §6)", 3),
            ("2E+", "invalid number: the exponent has no digits (RFC 8259 §6)", 4),
            ("-", "invalid number: '-' without digits", 2), ("NaN", "unexpected character", 1),
            ("[1, 02]", "invalid number: a leading zero (RFC 8259 §6)", 6),
        ] {
            #expect(throws: JSONValue.ParseError(reason: reason, line: 1, column: column), "\(text)") {
                try JSONValue(parsing: text)
            }
        }
        #expect(throws: JSONValue.ParseError(reason: "number '1e999' is out of range", line: 1, column: 1)) {
            try JSONValue(parsing: "1e999")
        }
    }

    /// A file's text is strict UTF-8: the first ill-formed sequence is named by byte offset and line.
    @Test func utf8TextNamesTheFirstBadByte() throws {
        #expect(try UTF8Text.decode(Array("é\n€".utf8)) == "é\n€")
        for (bytes, offset, line) in [
            ([0x61, 0x0A, 0x62, 0xFF], 3, 2), ([0xC3, 0x28], 0, 1), ([0x61, 0xE2, 0x82], 1, 1),
            ([0xED, 0xA0, 0x80], 0, 1),  // an encoded surrogate (RFC 3629 §3)
            ([0xC0, 0xAF], 0, 1),  // an overlong encoding
        ] as [([UInt8], Int, Int)] {
            #expect(throws: UTF8Text.Invalid(offset: offset, line: line, byte: bytes[offset])) {
                try UTF8Text.decode(bytes)
            }
        }
    }

    @Test func surrogatePairs() throws {
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#).stringValue == "😀")
    }
}
