/// A Wi-Fi carrier configuration record (Wi-Fi Alliance Wi-Fi Simple Configuration 2.0 §12, "NFC Configuration
/// Token"): a MIME record of type `application/vnd.wfa.wsc` whose payload is a list of WSC attributes, each a 2-byte
/// big-endian type, a 2-byte big-endian length and the value.
///
/// The attributes are kept in order in ``attributes`` (lossless encoding); ``credentials`` decodes each Credential
/// attribute (0x100E) into SSID (0x1045), network key (0x1027), authentication type (0x1003), encryption type
/// (0x100F), MAC address (0x1020) and network index (0x1026). Strict decoding checks every attribute length and
/// requires an SSID in each credential.
package struct NDEFWiFiCarrier: NDEFTypedRecord {
    /// One WSC attribute.
    package struct Attribute: Hashable, Sendable {
        package var type: UInt16
        package var value: [UInt8]
        package init(type: UInt16, value: [UInt8]) {
            self.type = type
            self.value = value
        }
    }

    /// A decoded Credential attribute.
    package struct Credential: Hashable, Sendable {
        package var networkIndex: UInt8?
        package var ssid: [UInt8]
        /// Bit mask: 0x0001 open, 0x0002 WPA-Personal, 0x0004 shared, 0x0008 WPA-Enterprise, 0x0010 WPA2-Enterprise,
        /// 0x0020 WPA2-Personal.
        package var authenticationType: UInt16?
        /// Bit mask: 0x0001 none, 0x0002 WEP, 0x0004 TKIP, 0x0008 AES.
        package var encryptionType: UInt16?
        package var networkKey: [UInt8]?
        package var macAddress: [UInt8]?

        /// Names of the authentication bits (`wpa2-personal`, …).
        package var authenticationNames: [String] {
            guard let a = authenticationType else { return [] }
            let names: [(UInt16, String)] = [
                (0x0001, "open"), (0x0002, "wpa-personal"), (0x0004, "shared"), (0x0008, "wpa-enterprise"),
                (0x0010, "wpa2-enterprise"), (0x0020, "wpa2-personal"),
            ]
            return names.filter { a & $0.0 != 0 }.map(\.1)
        }

        /// Names of the encryption bits (`aes`, …).
        package var encryptionNames: [String] {
            guard let e = encryptionType else { return [] }
            let names: [(UInt16, String)] = [(0x0001, "none"), (0x0002, "wep"), (0x0004, "tkip"), (0x0008, "aes")]
            return names.filter { e & $0.0 != 0 }.map(\.1)
        }
    }

    /// The MIME type, `application/vnd.wfa.wsc`.
    package static let mediaType = "application/vnd.wfa.wsc"

    package var attributes: [Attribute]

    package init(attributes: [Attribute]) {
        self.attributes = attributes
    }

    /// A configuration token with one credential (and the Version attribute 0x104A = 0x10 first).
    package init(
        ssid: [UInt8], networkKey: [UInt8], authenticationType: UInt16 = 0x0020, encryptionType: UInt16 = 0x0008,
        macAddress: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
    ) {
        func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xFF)] }
        var credential: [UInt8] = []
        for a in [
            Attribute(type: 0x1026, value: [1]), Attribute(type: 0x1045, value: ssid),
            Attribute(type: 0x1003, value: be16(authenticationType)),
            Attribute(type: 0x100F, value: be16(encryptionType)),
            Attribute(type: 0x1027, value: networkKey), Attribute(type: 0x1020, value: macAddress),
        ] {
            credential += be16(a.type) + be16(UInt16(a.value.count)) + a.value
        }
        attributes = [Attribute(type: 0x104A, value: [0x10]), Attribute(type: 0x100E, value: credential)]
    }

    static func isWSC(_ record: NDEFRecord) -> Bool {
        record.tnf == .media && String(decoding: record.type, as: UTF8.self).lowercased() == mediaType
    }

    /// Parses a list of WSC attributes.
    static func parse(_ bytes: ArraySlice<UInt8>, base: Int) throws(NDEFError) -> [Attribute] {
        var c = PayloadCursor(bytes, base: base, code: .invalidWiFiCarrier)
        var out: [Attribute] = []
        while !c.isAtEnd {
            let type = try c.uint16()
            let n = Int(try c.uint16())
            out.append(Attribute(type: type, value: Array(try c.take(n))))
        }
        return out
    }

    /// The Credential attributes, decoded.
    package var credentials: [Credential] {
        attributes.filter { $0.type == 0x100E }.compactMap { try? Self.credential($0.value[...], base: 0) }
    }

    /// The Version attribute (0x104A), e.g. 0x10 for 1.0.
    package var version: UInt8? { attributes.first { $0.type == 0x104A }?.value.first }

    static func credential(_ bytes: ArraySlice<UInt8>, base: Int) throws(NDEFError) -> Credential {
        let attrs = try parse(bytes, base: base)
        func value(_ t: UInt16) -> [UInt8]? { attrs.first { $0.type == t }?.value }
        func u16(_ t: UInt16) -> UInt16? {
            guard let v = value(t), v.count == 2 else { return nil }
            return UInt16(v[0]) << 8 | UInt16(v[1])
        }
        guard let ssid = value(0x1045) else {
            throw NDEFError(.invalidWiFiCarrier, at: base, detail: "credential without SSID")
        }
        return Credential(
            networkIndex: value(0x1026)?.first, ssid: ssid, authenticationType: u16(0x1003),
            encryptionType: u16(0x100F), networkKey: value(0x1027), macAddress: value(0x1020))
    }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        guard Self.isWSC(record) else {
            throw NDEFError(.wrongRecordType, at: record.payloadOffset, detail: "expected application/vnd.wfa.wsc")
        }
        attributes = try Self.parse(record.payload, base: record.payloadOffset)
        // Check every credential's structure, with its offset.
        var offset = record.payloadOffset
        for a in attributes {
            if a.type == 0x100E {
                do throws(NDEFError) {
                    _ = try Self.credential(a.value[...], base: offset + 4)
                } catch {
                    try violate(
                        error.code, at: error.offset, options, &repairs, detail: error.detail, action: "kept it")
                }
            }
            offset += 4 + a.value.count
        }
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        var p: [UInt8] = []
        for a in attributes {
            guard a.value.count <= 0xFFFF else {
                throw NDEFError(.invalidWiFiCarrier, at: 0, detail: "attribute too long")
            }
            p += [UInt8(a.type >> 8), UInt8(a.type & 0xFF), UInt8(a.value.count >> 8), UInt8(a.value.count & 0xFF)]
            p += a.value
        }
        let type = Array(Self.mediaType.utf8)
        return NDEFRecord(unchecked: .media, type: type[...], id: [], payload: p[...])
    }
}
