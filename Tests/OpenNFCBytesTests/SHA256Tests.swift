import OpenNFCBytes
import Testing

/// SHA-256 against the examples of FIPS 180-4 (NIST "SHA256.pdf" example values, csrc.nist.gov).
@Suite struct SHA256Tests {
    @Test func fipsExamples() {
        // "abc" (one block) and the 448-bit two-block message.
        #expect(
            Hex.encode(SHA256.hash(Array("abc".utf8)))
                == "BA7816BF8F01CFEA414140DE5DAE2223B00361A396177A9CB410FF61F20015AD")
        #expect(
            Hex.encode(SHA256.hash(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8)))
                == "248D6A61D20638B8E5C026930C3E6039A33CE45964FF2167F6ECEDD419DB06C1")
        // The empty message (NIST CAVS SHA256ShortMsg, Len = 0).
        #expect(Hex.encode(SHA256.hash([])) == "E3B0C44298FC1C149AFBF4C8996FB92427AE41E4649B934CA495991B7852B855")
    }

    @Test func messagesAroundThePaddingBoundary() {
        // 55, 56 and 64 bytes straddle the one-block / two-block padding boundary (FIPS 180-4 §5.1.1); one million
        // "a" is the FIPS 180-2 appendix B.3 example.
        #expect(SHA256.hash([UInt8](repeating: 0x61, count: 55)).count == 32)
        #expect(SHA256.hash([UInt8](repeating: 0x61, count: 56)) != SHA256.hash([UInt8](repeating: 0x61, count: 55)))
        #expect(
            Hex.encode(SHA256.hash([UInt8](repeating: 0x61, count: 1_000_000)))
                == "CDC76E5C9914FB9281A1C7E284D73E67F1809A48A497200E046D39CCC7112CD0")
    }
}
