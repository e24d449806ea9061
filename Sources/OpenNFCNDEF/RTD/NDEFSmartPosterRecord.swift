/// The Smart Poster record, well-known type `Sp` (NFC Forum Smart Poster RTD 1.0 §3): its payload is an NDEF
/// message with exactly one URI record, any number of Title records (one per language), and optionally an action
/// (`act`), a size (`s`), a type (`t`) and icons (MIME `image/*` or `video/*`).
///
/// | Aspect | Behaviour |
/// |---|---|
/// | URI record | exactly one; strict: error otherwise; lenient: first one used, none is still an error |
/// | Titles | any number; two with the same language: strict error, lenient kept |
/// | `act` | 1 byte: 0 do the action, 1 save for later, 2 open for editing; other values: strict error |
/// | `s` / `t` | 4-byte big-endian size / UTF-8 MIME type |
/// | Icons | MIME records whose type starts with `image/` or `video/` |
/// | Other records | kept in ``otherRecords`` (the RTD says to ignore them) and still checked by their own RTD |
/// | Nesting | the inner message counts one level against ``NDEFDecodingOptions/maxNestingDepth`` |
package struct NDEFSmartPosterRecord: NDEFTypedRecord {
    /// The `act` record's values (SPR 1.0 §3.3.2).
    package enum Action: UInt8, Hashable, Sendable {
        case doAction = 0
        case saveForLater = 1
        case openForEditing = 2
    }

    package var uri: String
    package var titles: [NDEFTextRecord]
    package var action: Action?
    /// Size in bytes of the referenced object (`s`).
    package var size: UInt32?
    /// MIME type of the referenced object (`t`).
    package var mediaType: String?
    package var icons: [NDEFMIMERecord]
    /// Records of other types found in the poster, in order.
    package var otherRecords: [NDEFRecord]

    package init(
        uri: String, titles: [NDEFTextRecord] = [], action: Action? = nil, size: UInt32? = nil,
        mediaType: String? = nil, icons: [NDEFMIMERecord] = [], otherRecords: [NDEFRecord] = []
    ) {
        self.uri = uri
        self.titles = titles
        self.action = action
        self.size = size
        self.mediaType = mediaType
        self.icons = icons
        self.otherRecords = otherRecords
    }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        try record.expectWellKnown("Sp")
        let inner = try NDEFMessage(
            nestedIn: record.payload, at: record.payloadOffset, options: options, repairs: &repairs)
        var nested = options
        nested.depth += 1
        var uri: String? = nil
        titles = []
        action = nil
        size = nil
        mediaType = nil
        icons = []
        otherRecords = []
        for r in inner.records {
            if r.isWellKnown("U") {
                let u = try NDEFURIRecord(decoding: r, options: nested, repairs: &repairs)
                if uri == nil {
                    uri = u.uri
                } else {
                    try violate(
                        .invalidSmartPoster, at: r.typeOffset, options, &repairs, detail: "more than one URI record",
                        action: "used the first URI record")
                }
            } else if r.isWellKnown("T") {
                let t = try NDEFTextRecord(decoding: r, options: nested, repairs: &repairs)
                if titles.contains(where: { $0.language.lowercased() == t.language.lowercased() }) {
                    try violate(
                        .invalidSmartPoster, at: r.payloadOffset, options, &repairs,
                        detail: "two titles in language \(t.language)", action: "kept both titles")
                }
                titles.append(t)
            } else if r.isWellKnown("act") {
                var c = PayloadCursor(r, code: .invalidSmartPoster)
                let at = c.offset
                let value = try c.byte()
                if let a = Action(rawValue: value), c.isAtEnd {
                    action = a
                } else {
                    try violate(
                        .invalidSmartPoster, at: at, options, &repairs, detail: "invalid action record",
                        action: "ignored the action")
                }
            } else if r.isWellKnown("s") {
                var c = PayloadCursor(r, code: .invalidSmartPoster)
                let v = try c.uint32()
                if !c.isAtEnd {
                    try violate(
                        .invalidSmartPoster, at: c.offset, options, &repairs, detail: "size record longer than 4 bytes",
                        action: "read the first 4 bytes")
                }
                size = v
            } else if r.isWellKnown("t") {
                mediaType = try decodeUTF8(
                    r.payload, at: r.payloadOffset, code: .invalidSmartPoster, options: options, repairs: &repairs)
            } else if r.tnf == .media, NDEFSmartPosterRecord.isIconType(r.type) {
                icons.append(try NDEFMIMERecord(decoding: r, options: nested, repairs: &repairs))
            } else {
                _ = try NDEFDecodedRecord(decoding: r, options: nested, repairs: &repairs)
                otherRecords.append(r)
            }
        }
        guard let uri else {
            throw NDEFError(.invalidSmartPoster, at: record.payloadOffset, detail: "no URI record")
        }
        self.uri = uri
    }

    static func isIconType(_ type: some Collection<UInt8>) -> Bool {
        let lower = type.prefix(6).map { $0 | 0x20 }
        return lower.elementsEqual("image/".utf8) || lower.elementsEqual("video/".utf8)
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        var records: [NDEFRecord] = [try NDEFURIRecord(uri: uri).record()]
        for t in titles { records.append(try t.record()) }
        if let action { records.append(.wellKnown("act", payload: [action.rawValue])) }
        if let size {
            records.append(
                .wellKnown(
                    "s",
                    payload: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
            )
        }
        if let mediaType { records.append(.wellKnown("t", payload: Array(mediaType.utf8))) }
        for i in icons { records.append(try i.record()) }
        records.append(contentsOf: otherRecords)
        return .wellKnown("Sp", payload: NDEFMessage(records: records).encoded())
    }
}
