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

    /// The codes of the prefixes, grouped by first byte and longest first within a group; ``candidateStart``
    /// gives each first byte's range in it. Flat arrays of bytes, so the search retains nothing.
    private static let candidates: [UInt8] = prefixesByLength.sorted {
        ($0.bytes[0], -$0.bytes.count, $0.code) < ($1.bytes[0], -$1.bytes.count, $1.code)
    }.map(\.code)

    /// `candidateStart[b]..<candidateStart[b + 1]` are the candidates whose prefix starts with byte `b`.
    private static let candidateStart: [Int] = {
        var start = [Int](repeating: 0, count: 257)
        for code in candidates { start[Int(staticPrefixes[Int(code)].utf8Start.pointee) + 1] += 1 }
        for b in 0..<256 { start[b + 1] += start[b] }
        return start
    }()

    /// The identifier code and the length of the prefix it abbreviates for `uri` (longest match; 0 and 0 if none).
    public static func abbreviation(for uri: some Collection<UInt8>) -> (code: UInt8, prefixLength: Int) {
        if let fast = uri.withContiguousStorageIfAvailable({ abbreviation(forBytes: $0) }) { return fast }
        return abbreviation(forBytes: Array(uri))
    }

    static func abbreviation(forBytes uri: UnsafeBufferPointer<UInt8>) -> (code: UInt8, prefixLength: Int) {
        guard let base = uri.baseAddress, let first = uri.first else { return (0, 0) }
        // The common case first: "http://", "https://", each with or without "www." (codes 0x01–0x04).
        if first == 0x68, uri.count >= 7, base[1] == 0x74, base[2] == 0x74, base[3] == 0x70 {
            func www(at i: Int) -> Bool {
                uri.count >= i + 4 && base[i] == 0x77 && base[i + 1] == 0x77 && base[i + 2] == 0x77
                    && base[i + 3] == 0x2E
            }
            if base[4] == 0x73, uri.count >= 8, base[5] == 0x3A, base[6] == 0x2F, base[7] == 0x2F {
                return www(at: 8) ? (0x02, 12) : (0x04, 8)
            }
            if base[4] == 0x3A, base[5] == 0x2F, base[6] == 0x2F { return www(at: 7) ? (0x01, 11) : (0x03, 7) }
        }
        var k = candidateStart[Int(first)]
        let stop = candidateStart[Int(first) + 1]
        while k < stop {
            let code = candidates[k]
            let prefix = staticPrefixes[Int(code)]
            let n = prefix.utf8CodeUnitCount
            if uri.count >= n {
                let p = prefix.utf8Start
                var i = 1
                while i < n && base[i] == p[i] { i += 1 }
                if i == n { return (code, n) }
            }
            k += 1
        }
        return (0, 0)
    }

    /// The same search over an array.
    static func abbreviation(forBytes uri: [UInt8]) -> (code: UInt8, prefixLength: Int) {
        uri.withUnsafeBufferPointer { abbreviation(forBytes: $0) }
    }

    public init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        // Fast path: a known prefix code and valid UTF-8, decoded straight from the record's buffer.
        if let fast = record.decodedIfValid(as: Self.self) {
            self = fast
            return
        }
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

    public init(
        validFields tnf: NDEFRecord.TypeNameFormat, type: UnsafeBufferPointer<UInt8>,
        payload: UnsafeBufferPointer<UInt8>
    ) throws(NDEFError) {
        guard tnf == .wellKnown, type.count == 1, type[0] == 0x55, let code = payload.first,
            Int(code) < Self.staticPrefixes.count,
            let uri = fastUTF8String(
                prefix: Self.staticPrefixes[Int(code)], UnsafeBufferPointer(rebasing: payload.dropFirst()))
        else { throw .declined }
        self.init(uri: uri)
    }

    public func encodedLength() -> Int {
        withUTF8Bytes(uri) { bytes in
            NDEFRecord.encodedLength(
                typeCount: 1, idCount: 0,
                payloadCount: 1 + bytes.count - Self.abbreviation(forBytes: bytes).prefixLength)
        }
    }

    public func encode(into out: inout [UInt8], begin: Bool, end: Bool) {
        var u = uri
        u.withUTF8 { bytes in
            let (code, length) = Self.abbreviation(forBytes: bytes)
            NDEFRecord.writeHeader(
                into: &out, flags: (begin ? 0x80 : 0) | (end ? 0x40 : 0), tnf: 1, typeCount: 1, idCount: 0,
                payloadCount: 1 + bytes.count - length)
            out.append(0x55)  // "U"
            out.append(code)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[length...]))
        }
    }

    public func write(to buffer: UnsafeMutableBufferPointer<UInt8>, begin: Bool, end: Bool) -> Int? {
        withUTF8Bytes(uri) { bytes -> Int? in
            let (code, length) = Self.abbreviation(forBytes: bytes)
            let payloadCount = 1 + bytes.count - length
            guard NDEFRecord.headerLength(idCount: 0, payloadCount: payloadCount) + 1 + payloadCount <= buffer.count,
                let p = buffer.baseAddress
            else { return nil }
            var i = NDEFRecord.writeHeader(
                to: p, flags: (begin ? 0x80 : 0) | (end ? 0x40 : 0), tnf: 1, typeCount: 1, idCount: 0,
                payloadCount: payloadCount)
            p[i] = 0x55  // "U"
            p[i + 1] = code
            i += 2
            return i + copyBytes(UnsafeBufferPointer(rebasing: bytes[length...]), to: p + i)
        }
    }

    public func record() throws(NDEFError) -> NDEFRecord {
        var u = uri
        return u.withUTF8 { bytes in
            let (code, length) = Self.abbreviation(forBytes: bytes)
            return .wellKnown("U", payloadCapacity: 1 + bytes.count - length) { payload in
                payload.append(code)
                payload.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[length...]))
            }
        }
    }
}
