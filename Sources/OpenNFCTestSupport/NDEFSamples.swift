package import OpenNFCNDEF

/// One record of every kind the NDEF layer types (NFC Forum RTD Text, URI, Smart Poster, Connection Handover
/// request/select/carrier, Signature, Device Information; Bluetooth and Wi-Fi carriers; MIME, external, absolute URI,
/// Android application), built with the project's own encoders. Shared by the typed-record sweep
/// (`NDEFTypedSweepTests`) and the `ndef` fuzz target's seeds, so that both cover the same list.
package enum NDEFSamples {
    package static func everyRecordType() throws -> [NDEFRecord] {
        let ascii = { (s: String) in Array(s.utf8) }
        return [
            try NDEFSmartPosterRecord(
                uri: "https://example.com", titles: [.init(text: "Ex", language: "en")], action: .saveForLater, size: 9,
                mediaType: "text/html", icons: [NDEFMIMERecord(mediaType: "image/png", data: [1, 2])]
            ).record(),
            try NDEFTextRecord(text: "Hi", language: "en", encoding: .utf16).record(),
            try NDEFTextRecord(text: "hello", language: "en-US", encoding: .utf8).record(),
            try NDEFURIRecord(uri: "https://opennfc.example/a?b=c").record(),
            try NDEFHandoverRecord(
                kind: .request, version: 0x12,
                alternativeCarriers: [
                    NDEFAlternativeCarrier(
                        powerState: .active, carrierDataReference: [0x30], auxiliaryDataReferences: [[1]])
                ],
                collisionResolution: 7
            ).record(),
            try NDEFHandoverRecord(kind: .select, error: NDEFHandoverError(reason: 1, data: 5)).record(),
            // A Bluetooth BR/EDR OOB record as a carrier's bytes (Bluetooth Secure Simple Pairing Using NFC §3.1.1):
            // length, address, then EIR data structures.
            try NDEFRecord(
                tnf: .media, type: ascii("application/vnd.bluetooth.ep.oob"), id: [0x30],
                payload: [
                    0x11, 0x00, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01, 0x04, 0x0D, 0x20, 0x04, 0x24, 0x03, 0x09, 0x41,
                    0x42,
                ]),
            try NDEFBluetoothCarrier(
                transport: .lowEnergy, address: [1, 2, 3, 4, 5, 6], addressType: 1,
                dataStructures: [.init(type: 0x1C, data: [0])]
            ).record(),
            try NDEFWiFiCarrier(ssid: ascii("Net"), networkKey: ascii("pw")).record(),
            try NDEFHandoverCarrierRecord(carrierTypeFormat: .media, carrierType: ascii("a/b"), carrierData: [1])
                .record(),
            try NDEFSignatureRecord(signatureType: 0x0B, signature: [1, 2], certificates: [[3]], certificateURI: "u:v")
                .record(),
            try NDEFDeviceInformationRecord(
                manufacturer: "A", model: "B", deviceName: "C", uuid: Array(repeating: 0, count: 16)
            ).record(),
            try NDEFAndroidApplicationRecord(packageName: "com.example").record(),
            try NDEFExternalRecord(domain: "example.com", name: "t", data: [1]).record(),
            try NDEFAbsoluteURIRecord(uri: "urn:x:y").record(),
            try NDEFMIMERecord(mediaType: "text/plain", data: ascii("plain")).record(),
        ]
    }
}

/// A one-record URI message, `https://` + `rest` (NDEF 1.0: MB ME SR, TNF 1, type "U"; URI RTD prefix 04), encoded:
/// the message the tests put on tags when the content does not matter.
package func uriMessage(_ rest: String) -> [UInt8] {
    let payload = [0x04] + Array(rest.utf8)
    return [0xD1, 0x01, UInt8(payload.count), 0x55] + payload
}
