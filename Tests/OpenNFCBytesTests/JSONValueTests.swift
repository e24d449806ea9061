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

    @Test func surrogatePairs() throws {
        #expect(try JSONValue(parsing: #""\ud83d\ude00""#).stringValue == "😀")
    }
}
