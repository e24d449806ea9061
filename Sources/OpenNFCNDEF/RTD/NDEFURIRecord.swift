/// The URI record, well-known type `U` (NFC Forum RTD-URI 1.0 §3): an identifier code abbreviating a prefix, then
/// the rest of the URI in UTF-8.
///
/// | Aspect | Behaviour |
/// |---|---|
/// | Prefix table | codes 0x00–0x23 (RTD-URI §3.2.2, Table 3) |
/// | Encoding | picks the longest matching prefix (so `urn:epc:id:x` uses 0x1E, not 0x13) |
/// | RFU codes 0x24–0xFF | strict: error; lenient: read as 0x00 (no prefix) |
/// | Invalid UTF-8 | strict: error; lenient: U+FFFD |
public struct NDEFURIRecord: NDEFTypedRecord {
    /// The whole URI, prefix expanded.
    public var uri: String

    public init(uri: String) {
        self.uri = uri
    }

    /// The prefixes of identifier codes 0x00–0x23 (RTD-URI §3.2.2), indexed by code.
    public static let prefixes: [String] = staticPrefixes.map(\.description)

    /// The table as static strings (decoding copies a prefix straight into the result).
    static let staticPrefixes: [StaticString] = [
        "", "http://www.", "https://www.", "http://", "https://", "tel:", "mailto:", "ftp://anonymous:anonymous@",
        "ftp://ftp.", "ftps://", "sftp://", "smb://", "nfs://", "ftp://", "dav://", "news:", "telnet://", "imap:",
        "rtsp://", "urn:", "pop:", "sip:", "sips:", "tftp:", "btspp://", "btl2cap://", "btgoep://", "tcpobex://",
        "irdaobex://", "file://", "urn:epc:id:", "urn:epc:tag:", "urn:epc:pat:", "urn:epc:raw:", "urn:epc:", "urn:nfc:",
    ]

    /// The prefixes as bytes, with their codes, longest first (for the longest-match search).
    private static let prefixesByLength: [(code: UInt8, bytes: [UInt8])] = prefixes.enumerated()
        .filter { !$0.element.isEmpty }
        .map { (UInt8($0.offset), Array($0.element.utf8)) }
        .sorted { $0.bytes.count > $1.bytes.count || ($0.bytes.count == $1.bytes.count && $0.code < $1.code) }

    /// The identifier code and the length of the prefix it abbreviates for `uri` (longest match; 0 and 0 if none).
    public static func abbreviation(for uri: some Collection<UInt8>) -> (code: UInt8, prefixLength: Int) {
        // Every prefix starts with one of a few letters; cheap reject first.
        guard let f = uri.first,
            f == 0x68 || f == 0x74 || f == 0x6D || f == 0x66 || f == 0x73 || f == 0x6E
                || f == 0x64 || f == 0x69 || f == 0x72 || f == 0x75 || f == 0x70 || f == 0x62
        else { return (0, 0) }
        for (code, p) in prefixesByLength where uri.count >= p.count && uri.starts(with: p) {
            return (code, p.count)
        }
        return (0, 0)
    }

    public init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        try record.expectWellKnown("U")
        var c = PayloadCursor(record, code: .invalidURI)
        let codeOffset = c.offset
        let code = try c.byte()
        var prefix: StaticString = ""
        if Int(code) < Self.staticPrefixes.count {
            prefix = Self.staticPrefixes[Int(code)]
        } else {
            try violate(
                .reservedURIPrefix, at: codeOffset, options, &repairs,
                detail: "identifier code 0x\(String(code, radix: 16)) is reserved",
                action: "read the URI without a prefix")
        }
        let restOffset = c.offset
        uri = try decodeUTF8(
            c.rest(), at: restOffset, code: .invalidURI, options: options, repairs: &repairs, prefix: prefix)
    }

    public func record() throws(NDEFError) -> NDEFRecord {
        var u = uri
        return u.withUTF8 { bytes in
            let (code, length) = Self.abbreviation(for: bytes)
            return .wellKnown("U", payloadCapacity: 1 + bytes.count - length) { payload in
                payload.append(code)
                payload.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[length...]))
            }
        }
    }
}
