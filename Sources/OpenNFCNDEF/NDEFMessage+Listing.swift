/// The human listing of a message, as `opennfc ndef decode` prints it: one header line per record, then indented
/// lines for what the record decodes to.
///
/// ```
/// Record 1: well-known "U", payload 10 bytes
///   URI: http://nfcpy.org
/// ```
extension NDEFMessage {
    /// The listing; strict mode throws the first RTD violation, lenient repairs and reports.
    package func listing(options: NDEFDecodingOptions, repairs: inout [NDEFRepair]) throws(NDEFError) -> [String] {
        let decoded = try decodedRecords(options: options, repairs: &repairs)
        var lines: [String] = []
        for (n, (r, d)) in zip(records, decoded).enumerated() {
            lines.append("Record \(n + 1): \(r.summary)")
            lines.append(contentsOf: (d?.listing ?? []).map { "  " + $0 })
        }
        return lines
    }

    /// The listing, decoded leniently and never failing.
    package func listing() -> [String] {
        var repairs: [NDEFRepair] = []
        return (try? listing(options: .lenient, repairs: &repairs)) ?? []
    }
}

/// Printable ASCII as a quoted string, anything else as hex.
func display(_ bytes: some Collection<UInt8>) -> String {
    if bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F && $0 != 0x22 }) {
        return "\"" + String(decoding: bytes, as: UTF8.self) + "\""
    }
    return "0x" + bytes.hexString
}

extension NDEFRecord.TypeNameFormat {
    /// Lower-case name (`well-known`, `media`, …).
    package var name: String {
        switch self {
        case .empty: "empty"
        case .wellKnown: "well-known"
        case .media: "media"
        case .absoluteURI: "absolute-uri"
        case .external: "external"
        case .unknown: "unknown"
        case .unchanged: "unchanged"
        case .reserved: "reserved"
        }
    }
}

extension NDEFRecord {
    /// `well-known "U", id "1", payload 10 bytes`.
    package var summary: String {
        var s = tnf.name
        if !type.isEmpty { s += " " + display(type) }
        if !id.isEmpty { s += ", id " + display(id) }
        s += ", payload \(payload.count) byte" + (payload.count == 1 ? "" : "s")
        return s
    }
}

extension NDEFDecodedRecord {
    /// Lines describing the decoded content (without indentation).
    package var listing: [String] {
        switch self {
        case .text(let t): return ["Text (\(t.language), \(t.encoding.rawValue)): \(t.text)"]
        case .uri(let u): return ["URI: \(u.uri)"]
        case .smartPoster(let sp):
            var l = ["Smart Poster: \(sp.uri)"]
            for t in sp.titles { l.append("  Title (\(t.language)): \(t.text)") }
            if let a = sp.action {
                l.append("  Action: \(["do", "save for later", "open for editing"][Int(a.rawValue)])")
            }
            if let s = sp.size { l.append("  Size: \(s) bytes") }
            if let t = sp.mediaType { l.append("  Type: \(t)") }
            for i in sp.icons { l.append("  Icon: \(i.mediaType), \(i.data.count) bytes") }
            return l
        case .mime(let m): return ["MIME: \(m.mediaType)"]
        case .external(let e): return ["External: \(e.externalType)"]
        case .absoluteURI(let a): return ["Absolute URI: \(a.uri)"]
        case .androidApplication(let a): return ["Android application: \(a.packageName)"]
        case .handover(let h):
            var l = ["Handover \(h.kind.rawValue) \(h.majorVersion).\(h.minorVersion)"]
            if let cr = h.collisionResolution { l.append("  Collision resolution: \(cr)") }
            for ac in h.alternativeCarriers {
                l.append("  Alternative carrier: \(display(ac.carrierDataReference)) (\(ac.powerState.name))")
            }
            if let e = h.error { l.append("  Error: reason \(e.reason), data \(e.data)") }
            return l
        case .handoverCarrier(let c):
            return [
                "Handover carrier: \(display(c.carrierType))"
                    + (c.carrierData.isEmpty ? "" : ", data 0x\(c.carrierData.hexString)")
            ]
        case .bluetooth(let b):
            var l = ["Bluetooth \(b.transport == .classic ? "BR/EDR" : "LE") OOB: \(b.addressString)"]
            if let n = b.localName { l.append("  Name: \(n)") }
            if let c = b.classOfDevice { l.append("  Class of device: 0x\(String(c, radix: 16))") }
            if let r = b.role { l.append("  Role: \(r)") }
            return l
        case .wifi(let w):
            var l = ["Wi-Fi (WSC)"]
            for c in w.credentials {
                l.append("  SSID: \(String(decoding: c.ssid, as: UTF8.self))")
                if !c.authenticationNames.isEmpty {
                    l.append("  Authentication: \(c.authenticationNames.joined(separator: ", "))")
                }
                if !c.encryptionNames.isEmpty { l.append("  Encryption: \(c.encryptionNames.joined(separator: ", "))") }
                if let k = c.networkKey { l.append("  Network key: \(String(decoding: k, as: UTF8.self))") }
            }
            return l
        case .signature(let s):
            var l = ["Signature \(s.version >> 4).\(s.version & 0x0F): \(s.signatureTypeName), \(s.hashTypeName)"]
            if let u = s.signatureURI {
                l.append("  Signature URI: \(u)")
            } else if !s.signature.isEmpty {
                l.append("  Signature: \(s.signature.count) bytes")
            }
            l.append("  Certificates: \(s.certificates.count) (\(s.certificateFormatName))")
            if let u = s.certificateURI { l.append("  Certificate URI: \(u)") }
            return l
        case .deviceInformation(let d):
            var l = ["Device information: \(d.manufacturer) \(d.model)"]
            if let n = d.deviceName { l.append("  Name: \(n)") }
            if let f = d.firmwareVersion { l.append("  Firmware: \(f)") }
            return l
        }
    }
}
