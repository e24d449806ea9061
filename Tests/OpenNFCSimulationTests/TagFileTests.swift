import Foundation
import OpenNFCBytes
import OpenNFCSimulation
import Testing

@Suite struct TagFileTests {
    /// A tag with every kind of state changed away from factory values.
    func usedTag(_ p: Type2ChipProfile) -> Type2Tag {
        let tag = try! Type2Tag.factory(
            p, uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], holding: [0xD0, 0x00, 0x00])
        try! tag.setSignature((0..<32).map { UInt8($0) })
        let s = TagLineSession(tag: tag)
        s.activate()
        #expect(s.answer("A2 08 01 02 03 04") == "ACK")
        if p.family == .ultralightEV1 {
            #expect(s.answer("A5 01 07 00 00 00") == "ACK")
        }
        if let c = p.configPage {
            #expect(s.answer("A2 \(Hex.encode([UInt8(c + 2)])) 12 34 56 78") == "ACK")
            #expect(s.answer("A2 \(Hex.encode([UInt8(c + 1)])) 03 00 00 00") == "ACK")  // AUTHLIM 3
            #expect(s.answer("1B 00 00 00 00") == "NAK 0")  // one failed attempt
        }
        return tag
    }

    @Test(arguments: Type2ChipProfile.all)
    func jsonRoundTripIsLossless(_ p: Type2ChipProfile) throws {
        let tag = usedTag(p)
        let text = try TagFile.encodeJSON(tag)
        let back = try #require(try TagFile.decodeJSON(text) as? Type2Tag)
        #expect(back.profile == tag.profile)
        #expect(back.memory == tag.memory)
        #expect(back.signature == tag.signature)
        #expect(back.counters == tag.counters)
        #expect(back.tearingFlags == tag.tearingFlags)
        #expect(back.failedAuthentications == tag.failedAuthentications)
        #expect(try TagFile.encodeJSON(back) == text)
        #expect(text.contains("\"chip\": \"\(p.name)\""))
        #expect(text.contains("\"04 11 22 ") && text.hasSuffix("}\n"))
    }

    /// NTAG I2C plus is left out: its .nfc layout (sectors, registers) is not written; export refuses it.
    @Test(arguments: Type2ChipProfile.all.filter { !$0.hasSectors })
    func flipperRoundTripIsLossless(_ p: Type2ChipProfile) throws {
        let tag = usedTag(p)
        let text = try FlipperNFCFile.encode(tag)
        let back = try FlipperNFCFile.decode(text)
        #expect(back.memory == tag.memory && back.signature == tag.signature && back.counters == tag.counters)
        #expect(back.tearingFlags == tag.tearingFlags && back.failedAuthentications == tag.failedAuthentications)
        #expect(try FlipperNFCFile.encode(back) == text)
    }

    @Test func minimalJSONIsAFactoryTag() throws {
        let tag = try #require(
            try TagFile.decodeJSON(
                #"{"format": "opennfc-tag", "version": 1, "chip": "ntag213", "uid": "04 01 02 03 04 05 06"}"#)
                as? Type2Tag)
        #expect(tag.memory == factoryTag(.ntag213).memory)
        let withMessage = try #require(
            try TagFile.decodeJSON(
                #"{"format":"opennfc-tag","version":1,"chip":"ntag215","uid":"04010203040506","ndef":"D00000"}"#)
                as? Type2Tag)
        #expect(withMessage.ndefMessage == [0xD0, 0x00, 0x00])
        #expect(Array(withMessage.memory[16..<22]) == [0x03, 0x03, 0xD0, 0x00, 0x00, 0xFE])
    }

    @Test func errorsNameTheField() throws {
        func error(_ json: String) -> String {
            do {
                _ = try TagFile.decodeJSON(json)
                return "no error"
            } catch {
                return error.description
            }
        }
        let head = #""format":"opennfc-tag","version":1"#
        #expect(
            error("{\n \(head),\n \"chip\": }") == "line 3: unexpected character at column 10")
        #expect(
            error("{\(head),\"chip\":\"ntag999\",\"uid\":\"04\"}").hasPrefix("field 'chip': unknown chip 'ntag999'"))
        #expect(
            error("{\(head),\"chip\":\"type4\",\"uid\":\"04\"}")
                == "field 'uid': type4 has a 7-byte UID, found 1 bytes")
        #expect(
            error("{\(head),\"chip\":\"ntag213\",\"uid\":\"0401\"}")
                == "field 'uid': ntag213 has a 7-byte UID, found 2 bytes")
        #expect(
            error("{\(head),\"chip\":\"ntag213\",\"uid\":\"04010203040506\",\"colour\":1}")
                == "field 'colour': unknown field for chip ntag213")
        #expect(
            error(#"{"format":"other","version":1}"#) == "field 'format': expected \"opennfc-tag\", found \"other\"")
        #expect(
            error(#"{"format":"opennfc-tag","version":2}"#)
                == "field 'version': version 2 is not supported (this build reads 1)")
        var json = try TagFile.encodeJSON(factoryTag(.ultralight))
        json = json.replacingOccurrences(of: "\"E1 10 06 00\"", with: "\"E1 10 06\"")
        #expect(error(json) == "field 'type2.pages[3]': expected 4 bytes, found 3")
        json = try TagFile.encodeJSON(factoryTag(.ultralight)).replacingOccurrences(of: "\"E1 10 06 00\",", with: "")
        #expect(error(json) == "field 'type2.pages': MIFARE Ultralight MF0ICU1 has 16 pages, found 15")
        json = try TagFile.encodeJSON(factoryTag(.ultralight)).replacingOccurrences(
            of: "\"E1 10 06 00\"", with: "\"E1 10 0G 00\"")
        #expect(error(json).hasPrefix("field 'type2.pages[3]': not hex: invalid hex character 'G'"))
        json = try TagFile.encodeJSON(factoryTag(.ultralight)).replacingOccurrences(
            of: "04010203040506", with: "04010203040507")
        #expect(error(json).hasPrefix("field 'uid': pages 0-1 hold UID 04010203040506"))
    }

    @Test func ndefFirstConstructorAndLimits() throws {
        let message = [UInt8](repeating: 0x41, count: 300)
        let tag = try Type2Tag.factory(.ntag215, uid: type2UID, holding: message)
        #expect(Array(tag.memory[16..<20]) == [0x03, 0xFF, 0x01, 0x2C])
        #expect(tag.ndefMessage == message)
        #expect(tag.memory[16 + 4 + 300] == 0xFE)
        // NTAG213 keeps its Lock Control TLV in front.
        let t213 = try Type2Tag.factory(.ntag213, uid: type2UID, holding: [0xD0, 0x00, 0x00])
        #expect(Array(t213.memory[16..<26]) == [0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0x03, 0xD0, 0x00, 0x00])
        // Exactly full: no room for the Terminator, still valid.
        let full = try Type2Tag.factory(.ultralight, uid: type2UID, holding: [UInt8](repeating: 1, count: 46))
        #expect(full.ndefMessage?.count == 46)
        #expect(
            throws: Type2Tag.FactoryError(
                "the 47-byte message does not fit MIFARE Ultralight MF0ICU1: at most 46 bytes")
        ) {
            try Type2Tag.factory(.ultralight, uid: type2UID, holding: [UInt8](repeating: 1, count: 47))
        }
        #expect(throws: Type2Tag.FactoryError("the 900-byte message does not fit NTAG216: at most 868 bytes")) {
            try Type2Tag.factory(.ntag216, uid: type2UID, holding: [UInt8](repeating: 1, count: 900))
        }
        #expect(throws: Type2Tag.FactoryError("a Type 2 UID has 7 bytes, not 4")) {
            try Type2Tag.factory(.ntag216, uid: [1, 2, 3, 4])
        }
    }

    @Test func filesByExtensionAreWrittenAtomically() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("tagfile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tag = usedTag(.ntag216)
        for ext in ["json", "nfc"] {
            let path = dir.appendingPathComponent("tag.\(ext)").path
            try TagFile.write(tag, path: path)
            let back = try #require(try TagFile.read(path: path) as? Type2Tag)
            #expect(back.memory == tag.memory)
        }
        let ndefPath = dir.appendingPathComponent("m.ndef").path
        try TagFile.write(tag, path: ndefPath)
        #expect(try Data(contentsOf: URL(fileURLWithPath: ndefPath)) == Data([0xD0, 0x00, 0x00]))
        let fromNDEF = try #require(try TagFile.read(path: ndefPath) as? Type2Tag)
        #expect(fromNDEF.profile == .ntag215 && fromNDEF.ndefMessage == [0xD0, 0x00, 0x00])
        let asUL = try #require(try TagFile.read(path: ndefPath, ndefChip: "ultralight") as? Type2Tag)
        #expect(asUL.profile == .ultralight)
        // No temporary files are left behind.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() == ["m.ndef", "tag.json", "tag.nfc"])
        #expect(throws: TagFileError("the tag holds no NDEF message to save as .ndef", file: dir.path + "/e.ndef")) {
            try TagFile.write(factoryTag(.ntag213), path: dir.path + "/e.ndef")
        }
        let unknown = "unknown extension: use .json, .nfc, .ndef, .eml, .bin or .mfd"
        #expect(throws: TagFileError(unknown, file: dir.path + "/x.txt")) {
            try TagFile.write(tag, path: dir.path + "/x.txt")
        }
        #expect(throws: TagFileError.self) { try TagFile.read(path: dir.path + "/missing.json") }
    }
}
