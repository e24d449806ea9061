import OpenNFCBytes
import Testing

@Suite struct HexTests {
    @Test func decodesMixedCaseWithSeparators() throws {
        #expect(try Hex.decode("04 a1:B2\nff") == [0x04, 0xA1, 0xB2, 0xFF])
        #expect(try Hex.decode("") == [])
    }

    @Test func reportsOffsetOfBadCharacter() {
        #expect(throws: Hex.ParseError(reason: "invalid hex character 'g'", offset: 3)) {
            try Hex.decode("0a0g")
        }
        #expect(throws: Hex.ParseError(reason: "odd number of hex digits", offset: 3)) {
            try Hex.decode("0a 0")
        }
        #expect(throws: Hex.ParseError(reason: "separator inside a hex byte", offset: 1)) {
            try Hex.decode("0 a")
        }
    }

    @Test func encodes() {
        #expect(Hex.encode([0x04, 0xA1]) == "04A1")
        #expect(Hex.encode([0x04, 0xA1], uppercase: false, separator: " ") == "04 a1")
        #expect([UInt8]().hexString == "")
    }
}

@Suite struct ByteReaderTests {
    @Test func readsBigEndianAndSlices() throws {
        var r = ByteReader([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0A])
        #expect(try r.readUInt8() == 0x01)
        #expect(try r.readUInt16() == 0x0203)
        #expect(try r.readUInt24() == 0x04_0506)
        #expect(try r.readUInt32() == 0x0708_090A)
        #expect(r.isAtEnd)
    }

    @Test func errorNamesOffset() throws {
        var r = ByteReader([0x01, 0x02, 0x03])
        _ = try r.readUInt8()
        #expect(throws: ByteReader.Error(offset: 1, needed: 4, available: 2)) { try r.readBytes(4) }
    }

    @Test func offsetsAreRelativeToTheSlice() throws {
        let whole: [UInt8] = [9, 9, 1, 2, 3]
        var r = ByteReader(whole[2...])
        _ = try r.readBytes(2)
        #expect(r.offset == 2)
        #expect(r.readRest() == [3])
    }

    @Test func writerRoundTrip() throws {
        var w = ByteWriter()
        w.write(0xAB)
        w.write(uint16: 0x1234)
        w.write(uint24: 0x56_789A)
        w.write(uint32: 0xDEAD_BEEF)
        var r = ByteReader(w.bytes)
        #expect(try r.readUInt8() == 0xAB)
        #expect(try r.readUInt16() == 0x1234)
        #expect(try r.readUInt24() == 0x56_789A)
        #expect(try r.readUInt32() == 0xDEAD_BEEF)
    }
}

/// Vectors from ISO/IEC 14443-3 Annex B, CRC parameters (recomputed there from the ISO parameters).
@Suite struct CRCTests {
    @Test func crcAVectors() {
        // On air the CRC is LSB first: `30 00` → `02 A8` means the value 0xA802.
        #expect(CRC.crcA([0x30, 0x00]) == 0xA802)
        #expect(CRC.crcA([0x1A, 0x00]) == 0x7641)
        #expect(CRC.crcA([0x60]) == 0x32F8)
        #expect(CRC.crcA([0x50, 0x00]) == 0xCD57)
        #expect(CRC.appendingCRCA([0xE0, 0x80]) == [0xE0, 0x80, 0x31, 0x73])
    }

    @Test func crcBAndFeliCaVectors() {
        #expect(CRC.crcB(Array("123456789".utf8)) == 0x906E)
        #expect(CRC.crcB([0x26, 0x01, 0x00]) == 0x0AF6)
        #expect(CRC.felica([0x06, 0x00, 0xFF, 0xFF, 0x00, 0x00]) == 0x0921)
    }
}
