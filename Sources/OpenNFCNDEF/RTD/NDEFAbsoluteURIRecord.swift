/// An absolute-URI record, TNF 3 (NFC Forum NDEF 1.0 §3.2.6): the type field holds an RFC 3986 absolute URI that
/// names the payload's type (the payload itself is opaque).
///
/// The check is RFC 3986 §3.1 scheme syntax (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":"`) followed by visible
/// ASCII; strict mode rejects anything else, lenient keeps it and reports.
package struct NDEFAbsoluteURIRecord: NDEFTypedRecord {
    package var uri: String
    package var data: [UInt8]

    package init(uri: String, data: [UInt8] = []) {
        self.uri = uri
        self.data = data
    }

    /// True for `scheme:rest` with an RFC 3986 scheme and visible ASCII throughout.
    package static func isValid(_ uri: some Collection<UInt8>) -> Bool {
        guard let colon = uri.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let scheme = uri[..<colon]
        guard let f = scheme.first, (f | 0x20) >= 0x61 && (f | 0x20) <= 0x7A else { return false }
        let schemeOK = scheme.allSatisfy { b in
            ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2B || b == 0x2D
                || b == 0x2E
        }
        return schemeOK && uri.allSatisfy { $0 > 0x20 && $0 < 0x7F }
    }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        guard record.tnf == .absoluteURI else {
            throw NDEFError(.wrongRecordType, at: record.payloadOffset, detail: "expected TNF 3 (absolute URI)")
        }
        if !Self.isValid(record.type) {
            try violate(
                .invalidAbsoluteURI, at: record.typeOffset, options,
                &repairs, action: "kept the URI as written")
        }
        uri = String(decoding: record.type, as: UTF8.self)
        data = Array(record.payload)
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        let type = Array(uri.utf8)
        guard Self.isValid(type), type.count <= 255 else { throw NDEFError(.invalidAbsoluteURI, at: 0) }
        return NDEFRecord(unchecked: .absoluteURI, type: type[...], id: [], payload: data[...])
    }
}
