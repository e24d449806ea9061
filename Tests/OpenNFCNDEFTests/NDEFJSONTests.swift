import OpenNFCBytes
import OpenNFCTestSupport
import Testing

@testable import OpenNFCNDEF

/// The JSON and listing forms other commands reuse (`read`, `tag show`).
@Suite struct NDEFJSONTests {
    @Test func uriMessageJSONAndListing() throws {
        let m = try NDEFMessage(decoding: h("D1 01 0A 55 03 6E 66 63 70 79 2E 6F 72 67"))
        var repairs: [NDEFRepair] = []
        #expect(
            try m.jsonValue(options: .strict, repairs: &repairs).compact
                == #"{"records":[{"tnf":1,"type":"55","id":"","payload":"036E666370792E6F7267","uri":"http://nfcpy.org"}]}"#
        )
        #expect(m.listing() == ["Record 1: well-known \"U\", payload 10 bytes", "  URI: http://nfcpy.org"])
        #expect(repairs.isEmpty)
    }

    @Test func strictJSONThrowsAndLenientJSONNeverFails() throws {
        let m = try NDEFMessage(decoding: h("D1 01 02 55 24 61"))
        var repairs: [NDEFRepair] = []
        #expect(throws: NDEFError(.reservedURIPrefix, at: 4)) { try m.jsonValue(options: .strict, repairs: &repairs) }
        #expect(m.jsonValue()["records"]?.arrayValue?.first?["uri"]?.stringValue == "a")
        // A Smart Poster without URI cannot be repaired: lenient leaves it undecoded and reports it.
        let sp = NDEFMessage(records: [
            try NDEFRecord(
                tnf: .wellKnown, type: bytes("Sp"),
                payload: NDEFMessage(records: [try NDEFTextRecord(text: "x").record()]).encoded())
        ])
        repairs = []
        let json = try sp.jsonValue(options: .lenient, repairs: &repairs)
        #expect(json["records"]?.arrayValue?.first?["smartPoster"] == nil)
        #expect(repairs.map(\.code) == [.invalidSmartPoster])
        #expect(repairs.first?.action == "left the record undecoded")
    }

    @Test func carrierAndHandoverFields() throws {
        let hs = NDEFHandoverRecord(
            kind: .select, version: 0x12,
            alternativeCarriers: [NDEFAlternativeCarrier(powerState: .active, carrierDataReference: bytes("0"))])
        let bt = try NDEFRecord(
            tnf: .media, type: bytes("application/vnd.bluetooth.ep.oob"), id: bytes("0"),
            payload: h("0D 00 06 05 04 03 02 01 04 0D 20 04 24"))
        let wifi = try NDEFWiFiCarrier(ssid: bytes("Home"), networkKey: bytes("secret")).record()
        let m = NDEFMessage(records: [try hs.record(), bt, wifi])
        let records = try #require(m.jsonValue()["records"]?.arrayValue)
        #expect(
            records[0]["handover"]?.compact
                == #"{"type":"Hs","version":"1.2","alternativeCarriers":[{"powerState":"active","carrierDataReference":"30","auxiliaryDataReferences":[]}]}"#
        )
        #expect(records[1]["mime"]?.stringValue == "application/vnd.bluetooth.ep.oob")
        #expect(records[1]["bluetooth"]?["address"]?.stringValue == "01:02:03:04:05:06")
        #expect(records[1]["bluetooth"]?["classOfDevice"]?.intValue == 0x24_0420)
        #expect(records[2]["mime"]?.stringValue == "application/vnd.wfa.wsc")
        #expect(
            records[2]["wifi"]?.compact
                == #"{"version":"1.0","credentials":[{"ssid":"Home","networkKey":"secret","authentication":["wpa2-personal"],"encryption":["aes"],"macAddress":"FF:FF:FF:FF:FF:FF","networkIndex":1}]}"#
        )
        #expect(
            m.listing() == [
                "Record 1: well-known \"Hs\", payload 10 bytes", "  Handover Hs 1.2",
                "    Alternative carrier: \"0\" (active)",
                "Record 2: media \"application/vnd.bluetooth.ep.oob\", id \"0\", payload 13 bytes",
                "  Bluetooth BR/EDR OOB: 01:02:03:04:05:06", "    Class of device: 0x240420",
                "Record 3: media \"application/vnd.wfa.wsc\", payload 54 bytes", "  Wi-Fi (WSC)", "    SSID: Home",
                "    Authentication: wpa2-personal", "    Encryption: aes", "    Network key: secret",
            ])
    }

    @Test func signatureDeviceInformationAndUnknownRecords() throws {
        let m = NDEFMessage(records: [
            try NDEFSignatureRecord(signatureType: 0x0B, signature: [0xAA]).record(),
            try NDEFDeviceInformationRecord(manufacturer: "ACME", model: "X1").record(),
            rec(.unknown, id: [0x01], [0xFF]),
        ])
        let records = try #require(m.jsonValue()["records"]?.arrayValue)
        #expect(
            records[0]["signature"]?.compact
                == #"{"version":"2.0","signatureType":"ECDSA-P256","hashType":"SHA-256","signature":"AA","certificateFormat":"X.509","certificates":[]}"#
        )
        #expect(records[1]["deviceInformation"]?.compact == #"{"manufacturer":"ACME","model":"X1"}"#)
        #expect(records[2].compact == #"{"tnf":5,"type":"","id":"01","payload":"FF"}"#)
        #expect(m.listing().last == "Record 3: unknown, id 0x01, payload 1 byte")
    }
}
