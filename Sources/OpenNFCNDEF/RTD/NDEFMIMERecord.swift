/// A media-type record, TNF 2 (NFC Forum NDEF 1.0 §3.2.6; RFC 2046): the type field is a MIME type, the payload
/// its content.
///
/// | Aspect | Behaviour |
/// |---|---|
/// | Syntax | `type/subtype` of RFC 2045 token characters, optional `; name=value` parameters |
/// | Case | kept as written; ``normalizedMediaType`` lower-cases and drops parameters for matching |
/// | Invalid syntax | strict: error; lenient: kept as written and reported |
package struct NDEFMIMERecord: NDEFTypedRecord {
    package var mediaType: String
    package var data: [UInt8]

    package init(mediaType: String, data: [UInt8]) {
        self.mediaType = mediaType
        self.data = data
    }

    /// Lower-cased `type/subtype` without parameters, for comparisons (media types are case-insensitive).
    package var normalizedMediaType: String {
        let bare = mediaType.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
        return String(bare.filter { $0 != " " && $0 != "\t" }).lowercased()
    }

    /// True when `type` is `type/subtype` (RFC 2045 §5.1 tokens) with optional `;name=value` parameters.
    package static func isValidMediaType(_ type: some Collection<UInt8>) -> Bool {
        func isToken(_ b: UInt8) -> Bool {
            guard b > 0x20, b < 0x7F else { return false }
            switch b {
            case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "@"),
                UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\\"), UInt8(ascii: "\""),
                UInt8(ascii: "/"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "="):
                return false
            default: return true
            }
        }
        let bytes = Array(type)
        var i = 0
        func token() -> Bool {
            let s = i
            while i < bytes.count, isToken(bytes[i]) { i += 1 }
            return i > s
        }
        func spaces() { while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 { i += 1 } }
        guard token(), i < bytes.count, bytes[i] == UInt8(ascii: "/") else { return false }
        i += 1
        guard token() else { return false }
        while true {
            spaces()
            if i == bytes.count { return true }
            guard bytes[i] == UInt8(ascii: ";") else { return false }
            i += 1
            spaces()
            guard token(), i < bytes.count, bytes[i] == UInt8(ascii: "=") else { return false }
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "\"") {
                i += 1
                while i < bytes.count, bytes[i] != UInt8(ascii: "\"") { i += 1 }
                guard i < bytes.count else { return false }
                i += 1
            } else {
                guard token() else { return false }
            }
        }
    }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        guard record.tnf == .media else {
            throw NDEFError(.wrongRecordType, at: record.payloadOffset, detail: "expected TNF 2 (media)")
        }
        if !Self.isValidMediaType(record.type) {
            try violate(
                .invalidMediaType, at: record.typeOffset, options, &repairs,
                action: "kept the media type as written")
        }
        mediaType = String(decoding: record.type, as: UTF8.self)
        data = Array(record.payload)
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        let type = Array(mediaType.utf8)
        guard Self.isValidMediaType(type), type.count <= 255 else { throw NDEFError(.invalidMediaType, at: 0) }
        return NDEFRecord(unchecked: .media, type: type[...], id: [], payload: data[...])
    }
}
