import OpenNFCBytes
import Testing

/// The one Base64 of OpenNFCBytes (RFC 4648 §4, the test vectors of §10), used by XML property lists and PEM.
@Suite struct Base64Tests {
    static let vectors: [(String, String)] = [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ]

    @Test func rfc4648Vectors() {
        for (plain, encoded) in Self.vectors {
            #expect(Base64.encode(Array(plain.utf8)) == encoded)
            #expect(Base64.decode(encoded) == Array(plain.utf8))
        }
    }

    @Test func pemBodiesWithLineBreaksAndNoPadding() {
        #expect(Base64.decode("Zm9v\nYmFy\r\n") == Array("foobar".utf8))
        #expect(Base64.decode("Zm9vYg") == Array("foob".utf8))
        #expect(Base64.decode(" Zm9vYmE ") == Array("fooba".utf8))
    }

    @Test func badInputIsNil() {
        #expect(Base64.decode("Zm9v!") == nil)
        #expect(Base64.decode("Zm9vY") == nil, "a lone 6-bit group")
    }
}
