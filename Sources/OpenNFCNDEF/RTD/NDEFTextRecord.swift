/// The Text record, well-known type `T` (NFC Forum RTD-Text 1.0 §3).
///
/// Payload: a status byte (bit 7: 0 UTF-8 / 1 UTF-16; bit 6 reserved, 0; bits 5–0 the length of the IANA language
/// code, 1–63), the language code in US-ASCII, then the text.
///
/// | Aspect | Decoding | Encoding |
/// |---|---|---|
/// | UTF-8 | yes | yes (default) |
/// | UTF-16 with BOM `FE FF` / `FF FE` | yes, either byte order | big-endian with BOM `FE FF` |
/// | UTF-16 without BOM | read big-endian (RTD-Text §3.4) | — |
/// | Reserved bit 6 set | strict: error; lenient: ignored | never set |
/// | Empty language code | strict: error; lenient: `""` | rejected |
package struct NDEFTextRecord: NDEFTypedRecord {
    /// The text encoding named by bit 7 of the status byte; the raw value is the name used in JSON output.
    package enum Encoding: String, Hashable, Sendable {
        case utf8 = "utf-8"
        case utf16 = "utf-16"
    }

    package var text: String
    /// IANA language code (`en`, `de-CH`), 1–63 ASCII characters.
    package var language: String
    package var encoding: Encoding

    package init(text: String, language: String = "en", encoding: Encoding = .utf8) {
        self.text = text
        self.language = language
        self.encoding = encoding
    }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        // Fast path: UTF-8 text, no reserved bit, a 1–63 character printable ASCII language code, valid UTF-8.
        if let fast = record.decodedIfValid(as: Self.self) {
            self = fast
            return
        }
        try record.expectWellKnown("T")
        var c = PayloadCursor(record, code: .invalidText)
        let statusOffset = c.offset
        let status = try c.byte()
        if status & 0x40 != 0 {
            try violate(
                .invalidText, at: statusOffset, options, &repairs, detail: "reserved bit 6 of the status byte is set",
                action: "ignored the reserved bit")
        }
        let languageLength = Int(status & 0x3F)
        if languageLength == 0 {
            try violate(
                .invalidText, at: statusOffset, options, &repairs, detail: "empty language code",
                action: "read an empty language code")
        }
        let languageOffset = c.offset
        let languageBytes = try c.take(languageLength)
        if !languageBytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            try violate(
                .invalidText, at: languageOffset, options, &repairs, detail: "language code is not ASCII",
                action: "decoded the language code as UTF-8")
        }
        language = try decodeUTF8(
            languageBytes, at: languageOffset, code: .invalidText, options: .lenient, repairs: &repairs)
        let textOffset = c.offset
        let body = c.rest()
        if status & 0x80 == 0 {
            encoding = .utf8
            text = try decodeUTF8(body, at: textOffset, code: .invalidText, options: options, repairs: &repairs)
        } else {
            encoding = .utf16
            text = try Self.decodeUTF16(body, at: textOffset, options: options, repairs: &repairs)
        }
    }

    package init(
        validFields tnf: NDEFRecord.TypeNameFormat, type: UnsafeBufferPointer<UInt8>,
        payload: UnsafeBufferPointer<UInt8>
    ) throws(NDEFError) {
        guard tnf == .wellKnown, type.count == 1, type[0] == 0x54, let status = payload.first, status & 0xC0 == 0
        else { throw .declined }
        let languageLength = Int(status & 0x3F)
        guard languageLength >= 1, payload.count >= 1 + languageLength else { throw .declined }
        let languageBytes = UnsafeBufferPointer(rebasing: payload[1..<1 + languageLength])
        guard isPrintableASCII(languageBytes),
            let text = fastUTF8String(UnsafeBufferPointer(rebasing: payload[(1 + languageLength)...]))
        else { throw .declined }
        self.init(text: text, language: Self.languageCode(languageBytes), encoding: .utf8)
    }

    /// The language code as a String; the most common codes come from literals (no allocation, no copy).
    @inline(__always)
    static func languageCode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if bytes.count == 2 {
            switch (bytes[0], bytes[1]) {
            case (0x65, 0x6E): return "en"
            case (0x64, 0x65): return "de"
            case (0x66, 0x72): return "fr"
            case (0x65, 0x73): return "es"
            case (0x69, 0x74): return "it"
            case (0x6A, 0x61): return "ja"
            case (0x7A, 0x68): return "zh"
            case (0x6E, 0x6C): return "nl"
            case (0x70, 0x74): return "pt"
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// UTF-16 with an optional BOM; big-endian without one (RTD-Text §3.4).
    static func decodeUTF16(
        _ body: ArraySlice<UInt8>, at offset: Int, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) -> String {
        var bytes = body
        if bytes.count % 2 != 0 {
            try violate(
                .invalidText, at: offset + bytes.count - 1, options, &repairs, detail: "odd number of UTF-16 bytes",
                action: "dropped the last byte")
            bytes = bytes.dropLast()
        }
        var bigEndian = true
        if bytes.count >= 2 {
            let b0 = bytes[bytes.startIndex]
            let b1 = bytes[bytes.startIndex + 1]
            if b0 == 0xFE && b1 == 0xFF {
                bytes = bytes.dropFirst(2)
            } else if b0 == 0xFF && b1 == 0xFE {
                bigEndian = false
                bytes = bytes.dropFirst(2)
            }
        }
        var units: [UInt16] = []
        units.reserveCapacity(bytes.count / 2)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let hi = bigEndian ? bytes[i] : bytes[i + 1]
            let lo = bigEndian ? bytes[i + 1] : bytes[i]
            units.append(UInt16(hi) << 8 | UInt16(lo))
            i += 2
        }
        if let s = String(validating: units, as: UTF16.self) { return s }
        try violate(
            .invalidText, at: offset, options, &repairs, detail: "invalid UTF-16",
            action: "replaced invalid UTF-16 with U+FFFD")
        return String(decoding: units, as: UTF16.self)
    }

    package func encodedLength() throws(NDEFError) -> Int {
        let lang = try checkedLanguageCount()
        let body = encoding == .utf8 ? text.utf8.count : 2 + 2 * text.utf16.count
        return NDEFRecord.encodedLength(typeCount: 1, idCount: 0, payloadCount: 1 + lang + body)
    }

    package func encode(into out: inout [UInt8], begin: Bool, end: Bool) throws(NDEFError) {
        guard encoding == .utf8 else { return try record().encode(into: &out, begin: begin, end: end) }
        _ = try checkedLanguageCount()
        var languageCopy = language
        var textCopy = text
        languageCopy.withUTF8 { languageBytes in
            textCopy.withUTF8 { body in
                NDEFRecord.writeHeader(
                    into: &out, flags: (begin ? 0x80 : 0) | (end ? 0x40 : 0), tnf: 1, typeCount: 1, idCount: 0,
                    payloadCount: 1 + languageBytes.count + body.count)
                out.append(0x54)  // "T"
                out.append(UInt8(languageBytes.count))
                out.append(contentsOf: languageBytes)
                out.append(contentsOf: body)
            }
        }
    }

    package func write(to buffer: UnsafeMutableBufferPointer<UInt8>, begin: Bool, end: Bool) throws(NDEFError) -> Int? {
        guard encoding == .utf8 else {
            var out: [UInt8] = []
            try record().encode(into: &out, begin: begin, end: end)
            guard out.count <= buffer.count else { return nil }
            return out.withUnsafeBufferPointer { copyBytes($0, to: buffer.baseAddress!) }
        }
        let written = withUTF8Bytes(language) { languageBytes -> Int? in
            guard (1...63).contains(languageBytes.count), isPrintableASCII(languageBytes) else { return -1 }
            return withUTF8Bytes(text) { body -> Int? in
                let payloadCount = 1 + languageBytes.count + body.count
                guard
                    NDEFRecord.headerLength(idCount: 0, payloadCount: payloadCount) + 1 + payloadCount
                        <= buffer.count, let p = buffer.baseAddress
                else { return nil }
                var i = NDEFRecord.writeHeader(
                    to: p, flags: (begin ? 0x80 : 0) | (end ? 0x40 : 0), tnf: 1, typeCount: 1, idCount: 0,
                    payloadCount: payloadCount)
                p[i] = 0x54  // "T"
                p[i + 1] = UInt8(languageBytes.count)
                i += 2
                i += copyBytes(languageBytes, to: p + i)
                return i + copyBytes(body, to: p + i)
            }
        }
        guard written != -1 else {
            throw NDEFError(.invalidText, at: 0, detail: "language code must be 1–63 ASCII characters")
        }
        return written
    }

    /// The language code's length, checked as ``record()`` checks it (1–63 printable ASCII characters).
    private func checkedLanguageCount() throws(NDEFError) -> Int {
        let count = withUTF8Bytes(language) { bytes in
            (1...63).contains(bytes.count) && isPrintableASCII(bytes) ? bytes.count : 0
        }
        guard count > 0 else {
            throw NDEFError(.invalidText, at: 0, detail: "language code must be 1–63 ASCII characters")
        }
        return count
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        _ = try checkedLanguageCount()
        let lang = language.utf8
        switch encoding {
        case .utf8:
            // Contiguous UTF-8 of both strings (no copy for native strings), appended as buffers.
            var languageCopy = language
            var textCopy = text
            return languageCopy.withUTF8 { languageBytes in
                textCopy.withUTF8 { body in
                    .wellKnown("T", payloadCapacity: 1 + languageBytes.count + body.count) { payload in
                        payload.append(UInt8(languageBytes.count))
                        payload.append(contentsOf: languageBytes)
                        payload.append(contentsOf: body)
                    }
                }
            }
        case .utf16:
            let body = text.utf16
            return .wellKnown("T", payloadCapacity: 3 + lang.count + 2 * body.count) { payload in
                payload.append(0x80 | UInt8(lang.count))
                payload.append(contentsOf: lang)
                payload.append(contentsOf: [0xFE, 0xFF] as [UInt8])
                for u in body {
                    payload.append(UInt8(u >> 8))
                    payload.append(UInt8(u & 0xFF))
                }
            }
        }
    }
}
