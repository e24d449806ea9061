package import OpenNFCBytes

/// The JSON form of messages and records, exactly as `opennfc ndef decode --json` prints it (docs/NDEF.md has the
/// schema): `{"records":[{"tnf":1,"type":"55","id":"","payload":"…", <decoded field>}]}`. Hex is upper case without
/// separators; `type`, `id` and `payload` are always present (`""` when empty).
extension NDEFMessage {
    /// The message as JSON, with each recognised record's decoded field. Strict mode throws the first RTD violation;
    /// lenient mode repairs and reports (see ``decodedRecords(options:repairs:)``).
    package func jsonValue(options: NDEFDecodingOptions, repairs: inout [NDEFRepair]) throws(NDEFError) -> JSONValue {
        let decoded = try decodedRecords(options: options, repairs: &repairs)
        return .object([("records", .array(zip(records, decoded).map { $0.jsonValue(decoded: $1) }))])
    }

    /// The message as JSON, decoded leniently and never failing (records that do not decode get no decoded field);
    /// for listings of tags whose content is whatever it is.
    package func jsonValue() -> JSONValue {
        var repairs: [NDEFRepair] = []
        return (try? jsonValue(options: .lenient, repairs: &repairs)) ?? .object([("records", .array([]))])
    }
}

extension NDEFRecord {
    /// The record's JSON object: `tnf`, `type`, `id`, `payload`, then the decoded field(s) of `decoded`.
    package func jsonValue(decoded: NDEFDecodedRecord?) -> JSONValue {
        var o: [(String, JSONValue)] = [
            ("tnf", .int(Int(tnf.rawValue))), ("type", .string(type.hexString)), ("id", .string(id.hexString)),
            ("payload", .string(payload.hexString)),
        ]
        if let decoded { o.append(contentsOf: decoded.jsonFields) }
        return .object(o)
    }
}

extension NDEFDecodedRecord {
    /// The key/value pairs this decoded record adds to its record's JSON object. Media and external records always
    /// add `mime` / `external`; carrier and Android application records add a second, specific field.
    package var jsonFields: [(String, JSONValue)] {
        switch self {
        case .text(let t): return [("text", t.jsonValue)]
        case .uri(let u): return [("uri", .string(u.uri))]
        case .smartPoster(let sp):
            var o: [(String, JSONValue)] = [
                ("uri", .string(sp.uri)),
                (
                    "titles",
                    .array(sp.titles.map { .object([("language", .string($0.language)), ("text", .string($0.text))]) })
                ),
                ("action", sp.action.map { .int(Int($0.rawValue)) } ?? .null),
            ]
            if let s = sp.size { o.append(("size", .int(Int(s)))) }
            if let t = sp.mediaType { o.append(("type", .string(t))) }
            if !sp.icons.isEmpty {
                o.append(
                    (
                        "icons",
                        .array(
                            sp.icons.map {
                                .object([("mime", .string($0.mediaType)), ("data", .string($0.data.hexString))])
                            })
                    ))
            }
            return [("smartPoster", .object(o))]
        case .mime(let m): return [("mime", .string(m.mediaType))]
        case .external(let e): return [("external", .string(e.externalType))]
        case .absoluteURI(let a): return [("absoluteURI", .string(a.uri))]
        case .androidApplication(let a):
            return [
                ("external", .string(NDEFAndroidApplicationRecord.externalType)),
                ("androidApp", .string(a.packageName)),
            ]
        case .handover(let h): return [("handover", h.jsonValue)]
        case .handoverCarrier(let c):
            return [
                (
                    "handoverCarrier",
                    .object([
                        ("carrierTypeFormat", .int(Int(c.carrierTypeFormat.rawValue))),
                        ("carrierType", .string(String(decoding: c.carrierType, as: UTF8.self))),
                        ("carrierData", .string(c.carrierData.hexString)),
                    ])
                )
            ]
        case .bluetooth(let b): return [("mime", .string(b.transport.rawValue)), ("bluetooth", b.jsonValue)]
        case .wifi(let w): return [("mime", .string(NDEFWiFiCarrier.mediaType)), ("wifi", w.jsonValue)]
        case .signature(let s): return [("signature", s.jsonValue)]
        case .deviceInformation(let d):
            var o: [(String, JSONValue)] = [("manufacturer", .string(d.manufacturer)), ("model", .string(d.model))]
            if let n = d.deviceName { o.append(("deviceName", .string(n))) }
            if let u = d.uuid { o.append(("uuid", .string(u.hexString))) }
            if let f = d.firmwareVersion { o.append(("firmwareVersion", .string(f))) }
            return [("deviceInformation", .object(o))]
        }
    }
}

extension NDEFTextRecord {
    var jsonValue: JSONValue {
        .object([("encoding", .string(encoding.rawValue)), ("language", .string(language)), ("text", .string(text))])
    }
}

extension NDEFHandoverRecord {
    var jsonValue: JSONValue {
        var o: [(String, JSONValue)] = [
            ("type", .string(kind.rawValue)), ("version", .string("\(majorVersion).\(minorVersion)")),
            (
                "alternativeCarriers",
                .array(
                    alternativeCarriers.map { ac in
                        .object([
                            ("powerState", .string(ac.powerState.name)),
                            ("carrierDataReference", .string(ac.carrierDataReference.hexString)),
                            (
                                "auxiliaryDataReferences",
                                .array(ac.auxiliaryDataReferences.map { .string($0.hexString) })
                            ),
                        ])
                    })
            ),
        ]
        if let cr = collisionResolution { o.append(("collisionResolution", .int(Int(cr)))) }
        if let e = error {
            o.append(("error", .object([("reason", .int(Int(e.reason))), ("data", .int(Int(e.data)))])))
        }
        return .object(o)
    }
}

extension NDEFBluetoothCarrier {
    var jsonValue: JSONValue {
        var o: [(String, JSONValue)] = [
            ("transport", .string(transport == .classic ? "br/edr" : "le")), ("address", .string(addressString)),
        ]
        if let t = addressType { o.append(("addressType", .string(t == 0 ? "public" : "random"))) }
        if let n = localName { o.append(("name", .string(n))) }
        if let c = classOfDevice { o.append(("classOfDevice", .int(Int(c)))) }
        let uuids = serviceUUIDs16
        if !uuids.isEmpty {
            o.append(("serviceUUIDs", .array(uuids.map { .string(Hex.encode([UInt8($0 >> 8), UInt8($0 & 0xFF)])) })))
        }
        if let a = appearance { o.append(("appearance", .int(Int(a)))) }
        if let r = role { o.append(("role", .int(Int(r)))) }
        o.append(
            (
                "dataStructures",
                .array(
                    dataStructures.map {
                        .object([("type", .int(Int($0.type))), ("data", .string($0.data.hexString))])
                    })
            ))
        return .object(o)
    }
}

extension NDEFWiFiCarrier {
    var jsonValue: JSONValue {
        var o: [(String, JSONValue)] = []
        if let v = version { o.append(("version", .string("\(v >> 4).\(v & 0x0F)"))) }
        o.append(
            (
                "credentials",
                .array(
                    credentials.map { c in
                        var co: [(String, JSONValue)] = [("ssid", .string(String(decoding: c.ssid, as: UTF8.self)))]
                        if let k = c.networkKey {
                            co.append(("networkKey", .string(String(decoding: k, as: UTF8.self))))
                        }
                        co.append(("authentication", .array(c.authenticationNames.map { .string($0) })))
                        co.append(("encryption", .array(c.encryptionNames.map { .string($0) })))
                        if let m = c.macAddress { co.append(("macAddress", .string(Hex.encode(m, separator: ":")))) }
                        if let n = c.networkIndex { co.append(("networkIndex", .int(Int(n)))) }
                        return .object(co)
                    })
            ))
        return .object(o)
    }
}

extension NDEFSignatureRecord {
    var jsonValue: JSONValue {
        var o: [(String, JSONValue)] = [
            ("version", .string("\(version >> 4).\(version & 0x0F)")), ("signatureType", .string(signatureTypeName)),
            ("hashType", .string(hashTypeName)),
        ]
        if let u = signatureURI {
            o.append(("signatureURI", .string(u)))
        } else {
            o.append(("signature", .string(signature.hexString)))
        }
        o.append(("certificateFormat", .string(certificateFormatName)))
        o.append(("certificates", .array(certificates.map { .string($0.hexString) })))
        if let u = certificateURI { o.append(("certificateURI", .string(u))) }
        return .object(o)
    }
}
