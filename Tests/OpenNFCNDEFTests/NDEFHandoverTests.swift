import OpenNFCBytes
import OpenNFCTestSupport
import Testing

@testable import OpenNFCNDEF

/// Connection Handover (CH 1.3 §6), Bluetooth and Wi-Fi carriers, Signature RTD 2.0, Device Information RTD.
@Suite struct NDEFHandoverTests {
    /// BR/EDR OOB payload hand-assembled after the Bluetooth SSP-over-NFC layout: OOB length 0x000D (LE), address
    /// 01:02:03:04:05:06 stored little-endian, EIR "class of device" (0x0D) = 0x240420 (LE bytes 20 04 24).
    static let bluetoothPayload = "0D 00 06 05 04 03 02 01 04 0D 20 04 24"

    /// Static handover select 1.2 pointing at that carrier (record ID "0").
    static func handoverMessage() throws -> NDEFMessage {
        let hs = NDEFHandoverRecord(
            kind: .select, version: 0x12,
            alternativeCarriers: [NDEFAlternativeCarrier(powerState: .active, carrierDataReference: bytes("0"))])
        let bt = try NDEFRecord(
            tnf: .media, type: bytes("application/vnd.bluetooth.ep.oob"), id: bytes("0"), payload: h(bluetoothPayload)
        )
        return NDEFMessage(records: [try hs.record(), bt])
    }

    @Test func handoverSelectGoldenBytes() throws {
        // Hs with MB only (0x91), type "Hs", payload 10 = version 0x12 + ac record D1 02 04 61 63 01 01 30 00.
        let wire = try Self.handoverMessage().encoded()
        #expect(Array(wire.prefix(15)) == h("91 02 0A 48 73 12 D1 02 04 61 63 01 01 30 00"))
        let m = try NDEFMessage(decoding: wire)
        guard case .handover(let hs)? = try NDEFDecodedRecord(decoding: m.records[0]) else {
            Issue.record("not a handover record")
            return
        }
        #expect(hs.kind == .select && hs.majorVersion == 1 && hs.minorVersion == 2)
        #expect(hs.alternativeCarriers == [NDEFAlternativeCarrier(powerState: .active, carrierDataReference: [0x30])])
        guard case .bluetooth(let bt)? = try NDEFDecodedRecord(decoding: m.records[1]) else {
            Issue.record("not a bluetooth record")
            return
        }
        #expect(bt.transport == .classic)
        #expect(bt.addressString == "01:02:03:04:05:06")
        #expect(bt.classOfDevice == 0x24_0420)
        #expect(Array(try bt.record().payload) == h(Self.bluetoothPayload))
    }

    @Test func handoverRequestNeedsCollisionResolutionAndACarrier() throws {
        let hr = NDEFHandoverRecord(
            kind: .request, version: 0x12,
            alternativeCarriers: [
                NDEFAlternativeCarrier(
                    powerState: .unknown, carrierDataReference: [1], auxiliaryDataReferences: [[2], [3, 4]])
            ],
            collisionResolution: 0xBEEF)
        #expect(try NDEFHandoverRecord(decoding: try hr.record()) == hr)
        var noCR = hr
        noCR.collisionResolution = nil
        #expect(throws: NDEFError.self) { try NDEFHandoverRecord(decoding: try noCR.record()) }
        var repairs: [NDEFRepair] = []
        _ = try NDEFHandoverRecord(decoding: try noCR.record(), options: .lenient, repairs: &repairs)
        #expect(repairs.map(\.code) == [.invalidHandover])
        let noCarrier = NDEFHandoverRecord(kind: .request, version: 0x12, collisionResolution: 1)
        #expect(throws: NDEFError.self) { try NDEFHandoverRecord(decoding: try noCarrier.record()) }
    }

    @Test func handoverErrorAndCarrierRecords() throws {
        let hs = NDEFHandoverRecord(kind: .select, version: 0x13, error: NDEFHandoverError(reason: 2, data: 0x1000))
        let back = try NDEFHandoverRecord(decoding: try hs.record())
        #expect(back.error == NDEFHandoverError(reason: 2, data: 0x1000))
        // Version byte alone: a select without carriers.
        #expect(try NDEFHandoverRecord(decoding: rec(.wellKnown, "Hs", [0x12])).alternativeCarriers.isEmpty)
        // Major version 2 is rejected in strict mode.
        #expect(throws: NDEFError(.invalidHandover, at: 0)) {
            try NDEFHandoverRecord(decoding: rec(.wellKnown, "Hs", [0x20]))
        }
        // Unknown error reason.
        let badErr = NDEFHandoverRecord(kind: .select, otherRecords: [rec(.wellKnown, "err", [9, 0])])
        #expect(throws: NDEFError.self) { try NDEFHandoverRecord(decoding: try badErr.record()) }
        // Hc: CTF 2 (media), type "a/b", data 01 02.
        let hc = try NDEFHandoverCarrierRecord(decoding: rec(.wellKnown, "Hc", [0x02, 0x03] + bytes("a/b") + [1, 2]))
        #expect(
            hc == NDEFHandoverCarrierRecord(carrierTypeFormat: .media, carrierType: bytes("a/b"), carrierData: [1, 2]))
        #expect(try NDEFHandoverCarrierRecord(decoding: try hc.record()) == hc)
    }

    @Test func bluetoothLowEnergyCarrier() throws {
        // LE OOB: AD 0x1B address (LE order + type 0 public), 0x1C role 2, 0x09 name "Pen".
        let payload = h("08 1B 06 05 04 03 02 01 00  02 1C 02  04 09 50 65 6E")
        let r = try NDEFRecord(tnf: .media, type: bytes("application/vnd.bluetooth.le.oob"), payload: payload)
        let le = try NDEFBluetoothCarrier(decoding: r)
        #expect(le.transport == .lowEnergy)
        #expect(le.addressString == "01:02:03:04:05:06")
        #expect(le.addressType == 0)
        #expect(le.role == 2)
        #expect(le.localName == "Pen")
        #expect(try le.record() == r)
        // Missing role: strict error.
        let noRole = try NDEFRecord(
            tnf: .media, type: bytes("application/vnd.bluetooth.le.oob"), payload: h("08 1B 06 05 04 03 02 01 00"))
        #expect(throws: NDEFError.self) { try NDEFBluetoothCarrier(decoding: noRole) }
        // A structure longer than the payload.
        let bad = try NDEFRecord(tnf: .media, type: bytes("application/vnd.bluetooth.le.oob"), payload: h("09 1B 06"))
        #expect(throws: NDEFError(.invalidBluetoothCarrier, at: 0)) { try NDEFBluetoothCarrier(decoding: bad) }
        // Wrong OOB length in BR/EDR.
        let wrongLength = try NDEFRecord(
            tnf: .media, type: bytes("application/vnd.bluetooth.ep.oob"), payload: h("FF 00 06 05 04 03 02 01"))
        #expect(throws: NDEFError.self) { try NDEFBluetoothCarrier(decoding: wrongLength) }
        #expect(try NDEFBluetoothCarrier(decoding: wrongLength, options: .lenient).addressString == "01:02:03:04:05:06")
    }

    /// WSC configuration token hand-assembled from Wi-Fi Simple Configuration 2.0 attribute IDs: Version 0x104A = 0x10,
    /// Credential 0x100E { Network Index 1, SSID "Home", Auth 0x0020 WPA2-Personal, Encr 0x0008 AES,
    /// Network Key "secret", MAC FF×6 }.
    static let wsc =
        "10 4A 00 01 10  10 0E 00 2D  10 26 00 01 01  10 45 00 04 48 6F 6D 65  10 03 00 02 00 20  10 0F 00 02 00 08"
        + "  10 27 00 06 73 65 63 72 65 74  10 20 00 06 FF FF FF FF FF FF"

    @Test func wifiCarrier() throws {
        let r = try NDEFRecord(tnf: .media, type: bytes("application/vnd.wfa.wsc"), payload: h(Self.wsc))
        let w = try NDEFWiFiCarrier(decoding: r)
        #expect(w.version == 0x10)
        let c = try #require(w.credentials.first)
        #expect(c.ssid == bytes("Home"))
        #expect(c.networkKey == bytes("secret"))
        #expect(c.authenticationNames == ["wpa2-personal"])
        #expect(c.encryptionNames == ["aes"])
        #expect(c.networkIndex == 1)
        #expect(try w.record() == r)
        #expect(try NDEFWiFiCarrier(ssid: bytes("Home"), networkKey: bytes("secret")).record() == r)
        // Attribute length beyond the payload.
        let bad = try NDEFRecord(tnf: .media, type: bytes("application/vnd.wfa.wsc"), payload: h("10 4A 00 05 10"))
        #expect(throws: NDEFError(.invalidWiFiCarrier, at: 4)) { try NDEFWiFiCarrier(decoding: bad) }
        // Credential without SSID: offset of the credential's content.
        let noSSID = try NDEFRecord(
            tnf: .media, type: bytes("application/vnd.wfa.wsc"), payload: h("10 0E 00 05 10 26 00 01 01"))
        #expect(throws: NDEFError(.invalidWiFiCarrier, at: 4)) { try NDEFWiFiCarrier(decoding: noSSID) }
    }

    // MARK: Signature RTD 2.0 and Device Information

    @Test func signatureRecord() throws {
        // Version 0x20; ECDSA-P256 (0x0B), SHA-256 (0x02), 2-byte signature AA BB; X.509 with no certificates.
        let sigPayload = h("20 0B 02 00 02 AA BB 00")
        let s = try NDEFSignatureRecord(decoding: rec(.wellKnown, "Sig", sigPayload))
        #expect(s.signatureTypeName == "ECDSA-P256" && s.hashTypeName == "SHA-256" && s.signature == [0xAA, 0xBB])
        #expect(Array(try s.record().payload) == sigPayload)
        // URI variants and certificates round trip.
        let full = NDEFSignatureRecord(
            signatureType: 0x05, signatureURI: "https://s.example/sig", certificateFormat: 1,
            certificates: [[1, 2, 3], [4]], certificateURI: "https://s.example/cert")
        #expect(try NDEFSignatureRecord(decoding: try full.record()) == full)
        // Structural violations, each with its offset in the payload (payload starts at byte 0 here).
        let cases: [(String, Int)] = [
            ("10 0B 02 00 02 AA BB 00", 0),  // version 1.0
            ("20 7F 02 00 00 00", 1),  // reserved signature type
            ("20 0B 03 00 00 00", 2),  // unknown hash
            ("20 0B 02 00 05 AA", 5),  // signature runs past the payload (offset where it ran out)
            ("20 0B 02 00 00 70", 5),  // reserved certificate format
            ("20 0B 02 00 00 01 00 09", 8),  // certificate runs past the payload
            ("20 0B 02 00 00 00 FF", 6),  // trailing byte
            ("20 00 02 00 01 AA 00", 3),  // "no signature" marker with a signature
        ]
        for (hexText, offset) in cases {
            #expect(throws: NDEFError(.invalidSignature, at: offset), "\(hexText)") {
                try NDEFSignatureRecord(decoding: rec(.wellKnown, "Sig", h(hexText)))
            }
        }
    }

    @Test func deviceInformationRecord() throws {
        // TLVs: 0 "ACME", 1 "X1", 4 "1.0", 3 UUID 16 bytes.
        let di = NDEFDeviceInformationRecord(
            manufacturer: "ACME", model: "X1", firmwareVersion: "1.0",
            otherElements: [.init(type: 9, value: [1])])
        #expect(Array(try di.record().payload) == h("00 04 41 43 4D 45 01 02 58 31 04 03 31 2E 30 09 01 01"))
        #expect(try NDEFDeviceInformationRecord(decoding: try di.record()) == di)
        #expect(throws: NDEFError(.invalidDeviceInformation, at: 0)) {
            try NDEFDeviceInformationRecord(decoding: rec(.wellKnown, "Di", h("00 01 41")))
        }
        #expect(throws: NDEFError(.invalidDeviceInformation, at: 2)) {
            try NDEFDeviceInformationRecord(decoding: rec(.wellKnown, "Di", h("00 05 41")))
        }
    }
}
