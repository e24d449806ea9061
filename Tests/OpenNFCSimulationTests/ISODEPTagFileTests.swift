import Foundation
import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

@Suite struct ISODEPTagFileTests {
    /// A Type 4 card with state changed by a reader: message rewritten, CC rewritten to read-only.
    static func usedType4() throws -> Type4Tag {
        let tag = try Type4Tag.factory(
            uid: testUID, holding: nfcpyURIMessage,
            configuration: Type4Configuration(ndefFileSize: 0x40, mle: 0x3B, mlc: 0x34, ccWriteAccess: 0x00))
        playISODEP(
            tag,
            """
            00A4040007D276000085010100 -> 9000     # SELECT NDEF application
            00A4000C02E104             -> 9000     # SELECT NDEF file
            00D6000003 000155          -> 9000     # NLEN 1, one byte
            00A4000C02E103             -> 9000     # SELECT CC
            00D6000E01 FF              -> 9000     # make read-only
            """)
        return tag
    }

    @Test func typeBCardRoundTripKeepsItsATQB() throws {
        let card = try Type4Tag.typeB(
            pupi: [0x1A, 0x2B, 0x3C, 0x4D], holding: nfcpyURIMessage, applicationData: [0x00, 0x12, 0x34, 0x01],
            protocolInfo: [0x00, 0x81, 0x71])
        let text = try TagFile.encodeJSON(card)
        #expect(text.contains("\"chip\": \"type4b\""))
        #expect(text.contains("\"technology\": \"nfcB\""))
        #expect(text.contains("\"applicationData\": \"00 12 34 01\""))
        let back = try #require(try TagFile.decodeJSON(text) as? Type4Tag)
        #expect(back.activation == card.activation)
        #expect(back.activation.technology == .nfcB)
        #expect(back.activation.uid == [0x1A, 0x2B, 0x3C, 0x4D])
        #expect(back.ndefMessage == nfcpyURIMessage)
        #expect(try TagFile.encodeJSON(back) == text)
        // A Type B card's identifier is a 4-byte PUPI; protocol info must announce ISO/IEC 14443-4.
        #expect(throws: ISODEPCardError.self) { try Type4Tag.typeB(pupi: testUID) }
        #expect(throws: ISODEPCardError.self) {
            try Type4Tag.typeB(pupi: [1, 2, 3, 4], protocolInfo: [0x00, 0x80, 0x71])
        }
    }

    @Test func type4RoundTripIsLossless() throws {
        let tag = try Self.usedType4()
        tag.activation.ats = [0x05, 0x78, 0x80, 0x70, 0x02]
        let text = try TagFile.encodeJSON(tag)
        let back = try #require(try TagFile.decodeJSON(text) as? Type4Tag)
        #expect(back.ndefFile == tag.ndefFile)
        #expect(back.capabilityContainerFile == tag.capabilityContainerFile)
        #expect(back.ndefAccess == tag.ndefAccess)
        // `configuration` is the card as built; the reader's lock is in the access bytes the file restores with.
        var built = tag.configuration
        built.writeAccess = 0xFF
        #expect(back.configuration == built)
        #expect(back.activation == tag.activation)
        #expect(try TagFile.encodeJSON(back) == text)
        #expect(text.contains("\"chip\": \"type4\""))
        #expect(text.contains("\"iso7816\""))
        #expect(text.contains("\"00 0F 20 00 3B 00 34 04 06 E1 04 00 40 00 FF\""))
        // The restored card behaves as the saved one: read-only.
        playISODEP(
            back,
            """
            00A4040007D276000085010100 -> 9000     # SELECT NDEF application
            00A4000C02E104             -> 9000     # SELECT NDEF file
            00B0000003                 -> 000155 9000 # the rewritten message
            00D6000002 0000            -> 6982     # still read-only
            """)
    }

    @Test func desfireRoundTripIsLossless() throws {
        let tag = try DESFireEV1Tag.ndefFormatted(uid: testUID, holding: nfcpyURIMessage, storage: .size2K)
        playISODEP(
            tag,
            """
            CA 563412 0B 02         -> 00      # CreateApplication 123456 without ISO ids
            5A 563412               -> 00      # select it
            """)
        let text = try TagFile.encodeJSON(tag)
        let back = try #require(try TagFile.decodeJSON(text) as? DESFireEV1Tag)
        #expect(back.applications == tag.applications)
        #expect(back.version == tag.version)
        #expect(back.activation == tag.activation)
        #expect(try TagFile.encodeJSON(back) == text)
        #expect(text.contains("\"aid\": \"12 34 56\""))
        #expect(text.contains("\"accessRights\": \"EE EE\""))
        #expect(TagFile.ndefMessage(of: back) == nfcpyURIMessage)
    }

    @Test func registryFactoriesHoldTheMessage() throws {
        let t4 = try TagFile.factory(chip: "type4", uid: testUID, holding: nfcpyURIMessage)
        #expect((t4 as? Type4Tag)?.capabilityContainerFile == h("000F 20 00FF 00FF 0406 E104 1000 00 00"))
        #expect(TagFile.ndefMessage(of: t4) == nfcpyURIMessage)
        let empty = try TagFile.factory(chip: "type4", uid: testUID, holding: nil)
        #expect(TagFile.ndefMessage(of: empty) == nil)
        let df = try TagFile.factory(chip: "desfire-ev1", uid: testUID, holding: nfcpyURIMessage)
        #expect(df.chip == "desfire-ev1")
        #expect(TagFile.ndefMessage(of: df) == nfcpyURIMessage)
        #expect(throws: TagFileError.self) {
            try TagFile.factory(chip: "type4", uid: testUID, holding: Array(repeating: 0, count: 5000))
        }
    }

    /// Files written by hand from docs/TAG-FILES.md: minimal sections take the defaults.
    @Test func handWrittenFiles() throws {
        let head = #""format": "opennfc-tag", "version": 1, "uid": "04 1F 5B 92 DA 2C 80""#
        let t4 = try #require(
            try TagFile.decodeJSON(
                """
                {\(head), "chip": "type4", "iso7816": {
                  "ccFile": {"data": "00 0F 20 00 FF 00 FF 04 06 E1 04 00 10 00 00"},
                  "ndefFile": {"data": ["00 03 D0 00 00", "00 00 00 00 00 00 00 00 00 00 00"]}
                }}
                """) as? Type4Tag)
        #expect(t4.ndefMessage == [0xD0, 0x00, 0x00])
        #expect(t4.configuration.ndefFileSize == 16)
        #expect(t4.configuration.ccWriteAccess == 0xFF)
        let applets = try #require(
            try TagFile.decodeJSON(#"{\#(head), "chip": "type4", "iso7816": {"mle": 200}}"#) as? Type4Tag)
        #expect(!applets.configuration.hostsNDEFApplication)
        #expect(TagFile.ndefMessage(of: applets) == nil)
        try applets.install(ISO7816ClosureApplet(aid: [0xF0, 1, 2, 3, 4]) { _ in ISO7816Response(data: [7]) })
        playISODEP(
            applets,
            """
            00A4040005F00102030400 -> 9000        # SELECT the installed applet
            00CA000000             -> 07 9000     # it answers
            """)
        let df = try #require(
            try TagFile.decodeJSON(
                """
                {\(head), "chip": "desfire-ev1", "desfire": {"applications": [
                  {"aid": "00 00 02", "files": [{"number": 0, "data": "01 02 03"}]}]}}
                """) as? DESFireEV1Tag)
        playISODEP(
            df,
            """
            5A 020000           -> 00          # SelectApplication 000002
            BD 00 000000 000000 -> 00 010203   # ReadData file 0
            """)
    }

    @Test func errorsNameTheField() {
        func error(_ text: String) -> String {
            do {
                _ = try TagFile.decodeJSON(text)
                return "no error"
            } catch {
                return error.description
            }
        }
        let head = #""format":"opennfc-tag","version":1,"uid":"041F5B92DA2C80""#
        #expect(
            error(#"{\#(head),"chip":"type4","iso7816":{"colour":1}}"#) == "field 'iso7816.colour': unknown field")
        #expect(
            error(#"{\#(head),"chip":"type4","iso7816":{"ccFile":{"data":"00"}}}"#)
                == "field 'iso7816': give both 'ccFile' and 'ndefFile', or neither (no NDEF application)")
        #expect(
            error(#"{\#(head),"chip":"type4","iso7816":{"ccFile":{"data":"00"},"ndefFile":{"data":"0000"}}}"#)
                == "field 'iso7816.ccFile.data': the CC file has 15 bytes, found 1")
        #expect(
            error(
                #"{\#(head),"chip":"type4","iso7816":{"ccFile":{"data":"000F20003B0034 0406E104000400 00"},"ndefFile":{"data":"0000"}}}"#
            ) == "field 'iso7816': NDEF file size 2 is outside 5…65534")
        #expect(
            error(#"{\#(head),"chip":"type4","iso7816":{"mappingVersion":"2"}}"#)
                .hasPrefix("field 'iso7816.mappingVersion': not hex"))
        #expect(
            error(#"{\#(head),"chip":"type4","iso7816":{"activation":{"ats":"07 77"}}}"#)
                == "field 'iso7816.activation.ats': an ATS starts with its length byte TL (and has T0)")
        #expect(
            error(#"{\#(head),"chip":"desfire-ev1","desfire":{"applications":[{"aid":"0001"}]}}"#)
                == "field 'desfire.applications[0].aid': expected 3 bytes, found 2")
        #expect(
            error(
                #"{\#(head),"chip":"desfire-ev1","desfire":{"applications":[{"aid":"000001","files":[{"number":40,"data":""}]}]}}"#
            )
                == "field 'desfire.applications[0].files[0].number': expected a whole number from 0 to 31")
        #expect(
            error(#"{\#(head),"chip":"desfire-ev1","desfire":{"applications":[{"aid":"000001"},{"aid":"000001"}]}}"#)
                == "field 'desfire.applications': application 1: AID must be unique, non-zero and 24-bit")
        #expect(
            error(
                #"{\#(head),"chip":"desfire-ev1","desfire":{"applications":[{"aid":"000001","files":[{"number":1,"data":[1]}]}]}}"#
            )
                == "field 'desfire.applications[0].files[0].data[0]': expected a hex string")
    }
}
