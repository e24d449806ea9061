import OpenNFCBytes
import OpenNFCTestSupport
import Testing

/// BER-TLV data objects of the PC/SC 2.02 `FF C2` envelopes: one- and two-byte tags, short and long lengths, and
/// malformed lists named by offset.
@Suite struct DataObjectTests {
    @Test func decodesTheObjectsOfATransparentExchange() throws {
        // Timer 5F 46 (two-byte tag), transceive 95, then a status C0 and a 97 with a 130-byte value (81 form).
        let long = [UInt8](repeating: 0xAB, count: 130)
        let bytes = h("5F460440420F00 9502222B C003009000") + [0x97, 0x81, 0x82] + long
        let objects = try DataObject.decodeAll(bytes)
        #expect(objects.map(\.tag) == [0x5F46, 0x95, 0xC0, 0x97])
        #expect(objects[0].value == h("40420F00"))
        #expect(objects[2].value == h("009000"))
        #expect(objects[3].value == long)
        #expect(objects.flatMap(\.bytes) == bytes)  // encoding gives the same bytes back
        #expect(
            DataObject(tag: 0x97, value: [UInt8](repeating: 0, count: 300)).bytes.prefix(4) == [0x97, 0x82, 0x01, 0x2C])
    }

    @Test func malformedListsNameTheOffset() {
        #expect(throws: DataObject.Error(reason: "ends inside the 4-byte value of the object at byte 0", offset: 3)) {
            try DataObject.decodeAll(h("5F4604A086"))
        }
        #expect(throws: DataObject.Error(reason: "ends inside the length of tag 95", offset: 1)) {
            try DataObject.decodeAll(h("95"))
        }
        #expect(throws: DataObject.Error(reason: "length form 83 is not 81 or 82", offset: 1)) {
            try DataObject.decodeAll(h("9583000000"))
        }
    }
}
