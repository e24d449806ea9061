import OpenNFCBytes
import Testing

/// The strict DER reader and the writer: round trips, and each refusal with the byte offset it names.
@Suite struct DERTests {
    func refusal(_ bytes: [UInt8]) -> DERError? {
        do {
            let node = try DERNode.parse(bytes)
            if node.isConstructed { _ = try node.children() }
            return nil
        } catch { return error }
    }

    @Test func encodingsRoundTrip() throws {
        let oid = try DER.oid("0.4.0.127.0.7.2.2.4.2.2")
        #expect(oid == [0x06, 0x0A, 0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04, 0x02, 0x02])
        let big = try DER.oid("1.2.840.113549.1.7.2")
        let long = [UInt8](repeating: 0xAB, count: 300)
        let doc = DER.sequence([
            DER.integer(0), DER.integer(127), DER.integer(128), DER.integer(-129), DER.integer(unsigned: [0x80, 1]),
            oid, big, DER.octetString(long), DER.bitString([1, 2]), DER.boolean(true), DER.null(),
            DER.utf8String("Ärzte"), DER.printableString("DE"), DER.context(0, [0x02, 0x01, 0x05]),
            DER.tlv(0x5F1F, Array("P<UTO".utf8)), DER.tlv(0x7F61, DER.integer(1)),
            DER.time(DERTime(year: 2031, month: 12, day: 31, hour: 23, minute: 59, second: 58)),
            DER.time(DERTime(year: 2050, month: 1, day: 1)), DER.namedBits([0, 5, 6]),
        ])
        #expect(try DERNode.parse([0x5F, 0x01, 0x01, 0x31]).tagName == "5F01")
        let node = try DERNode.parse(doc)
        var f = try node.fields()
        #expect(try f.next(0x02, "a").int() == 0)
        #expect(try f.next(0x02, "b").int() == 127)
        #expect(try f.next(0x02, "c").integerBytes() == [0x00, 0x80])
        #expect(try f.next(0x02, "d").int() == -129)
        #expect(try f.next(0x02, "e").unsignedInteger() == [0x80, 1])
        #expect(try f.next(nil, "f").oid() == "0.4.0.127.0.7.2.2.4.2.2")
        #expect(try f.next(nil, "g").oid() == "1.2.840.113549.1.7.2")
        let octets = try f.next(0x04, "h")
        #expect(try octets.octetString() == long)
        #expect(octets.encoded.prefix(4) == [0x04, 0x82, 0x01, 0x2C])
        #expect(try f.next(nil, "i").bitStringBytes() == [1, 2])
        #expect(try f.next(nil, "j").boolean())
        #expect(f.optional(0x05) != nil)
        #expect(try f.next(0x0C, "k").string() == "Ärzte")
        #expect(try f.next(0x13, "l").string() == "DE")
        let ctx = try f.next(0xA0, "m")
        #expect(ctx.tagClass == 2 && ctx.isConstructed)
        #expect(try ctx.children()[0].int() == 5)
        let mrz = try f.next(0x5F1F, "n")
        #expect(mrz.tagClass == 1 && !mrz.isConstructed && mrz.tagName == "5F1F")
        #expect(try mrz.string() == "P<UTO")
        #expect(try f.next(0x7F61, "o").children().count == 1)
        let t1 = try f.next(0x17, "p").time()
        #expect(t1 == DERTime(year: 2031, month: 12, day: 31, hour: 23, minute: 59, second: 58))
        #expect(try f.next(0x18, "q").time().year == 2050)
        #expect(try f.next(0x03, "r").namedBits() == [0, 5, 6])
        try f.end("the document")
        #expect(DERTime(secondsSince1970: t1.secondsSince1970) == t1)
        #expect(DERTime(year: 1970, month: 1, day: 1).secondsSince1970 == 0)
        #expect(DERTime(year: 2000, month: 3, day: 1).secondsSince1970 == 951_868_800)
    }

    @Test func setsAreSortedWhenWritten() {
        #expect(
            DER.set([[0x02, 0x01, 0x09], [0x02, 0x01, 0x01]]) == [0x31, 0x06, 0x02, 0x01, 0x01, 0x02, 0x01, 0x09])
    }

    @Test func eachRefusalNamesItsOffset() throws {
        let cases: [([UInt8], Int, String)] = [
            ([0x30, 0x80, 0x00, 0x00], 1, "indefinite"),
            ([0x04, 0x81, 0x05, 1, 2, 3, 4, 5], 1, "not minimal"),
            ([0x04, 0x82, 0x00, 0x85] + [UInt8](repeating: 0, count: 0x85), 1, "leading zero"),
            ([0x04, 0x05, 1, 2], 1, "declares 5"),
            ([0x30, 0x04, 0x04, 0x05, 0x00, 0x00], 3, "declares 5"),
            ([0x5F, 0x80, 0x1F, 0x00], 1, "leading 80"),
            ([0x1F, 0x05, 0x00], 0, "fits in one byte"),
            ([0x5F], 0, "ends inside the tag"),
            ([0x04, 0x00, 0x00], 2, "follow"),
            ([0x30], 1, "before the length"),
        ]
        for (bytes, offset, words) in cases {
            let e = refusal(bytes)
            #expect(e?.offset == offset, "\(Hex.encode(bytes)): \(String(describing: e))")
            #expect(e?.reason.contains(words) == true, "\(Hex.encode(bytes)): \(String(describing: e))")
        }
    }

    @Test func typedReadsCheckTheirContentRules() throws {
        func error(_ bytes: [UInt8], _ read: (DERNode) throws -> Void) -> DERError? {
            do {
                try read(try DERNode.parse(bytes))
                return nil
            } catch { return error as? DERError }
        }
        #expect(error([0x02, 0x02, 0x00, 0x05]) { _ = try $0.integerBytes() }?.offset == 2)
        #expect(error([0x02, 0x02, 0xFF, 0x85]) { _ = try $0.integerBytes() }?.offset == 2)
        #expect(error([0x02, 0x00]) { _ = try $0.integerBytes() }?.offset == 0)
        #expect(error([0x06, 0x02, 0x2B, 0x80]) { _ = try $0.oid() }?.offset == 3)
        #expect(error([0x06, 0x02, 0x80, 0x01]) { _ = try $0.oid() }?.offset == 2)
        #expect(error([0x01, 0x01, 0x01]) { _ = try $0.boolean() }?.offset == 2)
        #expect(error([0x03, 0x02, 0x01, 0xFE]) { _ = try $0.bitStringBytes() }?.offset == 2)
        #expect(error([0x17, 0x03, 0x31, 0x32, 0x33]) { _ = try $0.time() }?.offset == 2)
        #expect(error(Array([0x17, 0x0D] + Array("991332000000Z".utf8))) { _ = try $0.time() }?.offset == 2)
        #expect(error([0x0C, 0x01, 0xFF]) { _ = try $0.string() }?.offset == 2)
        #expect(error([0x04, 0x00]) { _ = try $0.oid() }?.reason.contains("OBJECT IDENTIFIER") == true)
        #expect(throws: DERError.self) { try DER.oid("3.1") }
        #expect(throws: DERError.self) { try DER.oid("1.x") }
        var f = try DERNode.parse(DER.sequence([DER.integer(1)])).fields()
        _ = try f.next(0x02, "version")
        #expect(throws: DERError.self) { try f.next(0x02, "the missing one") }
    }
}
