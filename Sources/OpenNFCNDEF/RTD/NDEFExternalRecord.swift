/// An NFC Forum external type record, TNF 4 (NFC Forum RTD 1.0 §3.3): type `domain:type` with the `urn:nfc:ext:`
/// prefix omitted; compared case-insensitively.
///
/// | Aspect | Behaviour |
/// |---|---|
/// | Domain | letters, digits, `.`, `-`; not empty |
/// | Type | URN NSS characters (RFC 2141: letters, digits, `()+,-.:=@;$_!*'%`); not empty |
/// | Invalid syntax | strict: error; lenient: kept as written and reported |
package struct NDEFExternalRecord: NDEFTypedRecord {
    package var domain: String
    package var name: String
    package var data: [UInt8]

    package init(domain: String, name: String, data: [UInt8]) {
        self.domain = domain
        self.name = name
        self.data = data
    }

    /// `domain:type` as in the type field.
    package var externalType: String { domain + ":" + name }

    /// Splits `domain:type` at the first colon after checking the syntax; nil when invalid.
    package static func parse(_ type: some Collection<UInt8>) -> (domain: String, name: String)? {
        let bytes = Array(type)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0, colon < bytes.count - 1 else {
            return nil
        }
        let domainOK = bytes[..<colon].allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x2E || b == 0x2D
        }
        let nssOK = bytes[(colon + 1)...].allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
                || Array("()+,-.:=@;$_!*'%".utf8).contains(b)
        }
        guard domainOK, nssOK else { return nil }
        return (
            String(decoding: bytes[..<colon], as: UTF8.self), String(decoding: bytes[(colon + 1)...], as: UTF8.self)
        )
    }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        guard record.tnf == .external else {
            throw NDEFError(.wrongRecordType, at: record.payloadOffset, detail: "expected TNF 4 (external)")
        }
        if let (d, n) = Self.parse(record.type) {
            domain = d
            name = n
        } else {
            try violate(
                .invalidExternalType, at: record.typeOffset, options,
                &repairs, action: "kept the external type as written")
            let text = String(decoding: record.type, as: UTF8.self)
            let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            domain = String(parts[0])
            name = parts.count > 1 ? String(parts[1]) : ""
        }
        data = Array(record.payload)
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        let type = Array(externalType.utf8)
        guard Self.parse(type) != nil, type.count <= 255 else { throw NDEFError(.invalidExternalType, at: 0) }
        return NDEFRecord(unchecked: .external, type: type[...], id: [], payload: data[...])
    }
}
