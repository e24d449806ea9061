/// The Connection Handover records `Hr` (request), `Hs` (select), `Hm` (mediation) and `Hi` (initiate)
/// (NFC Forum Connection Handover 1.3/1.4 §6.1–§6.3): a version byte (major‖minor nibbles) followed by an NDEF
/// message of local records — `ac` alternative carriers, `cr` collision resolution (`Hr` from 1.2), `err` (`Hs`).
///
/// | Aspect | Behaviour |
/// |---|---|
/// | Version | major 1 required (strict); any minor |
/// | `Hr` | needs a `cr` record from version 1.2 and at least one `ac` (strict) |
/// | `Hs` | zero or more `ac`; an `Hs` of the version byte alone means "no carrier" |
/// | `err` | only in `Hs` (strict) |
/// | Other local records | kept in ``otherRecords`` |
/// | Carrier records | are siblings of this record in the outer message, found through each `ac`'s CDR |
package struct NDEFHandoverRecord: NDEFTypedRecord {
    /// Which handover record this is; the raw value is its well-known type.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        case request = "Hr"
        case select = "Hs"
        case mediation = "Hm"
        case initiate = "Hi"
    }

    package var kind: Kind
    /// The version byte: major version in the high nibble, minor in the low (`0x13` = 1.3).
    package var version: UInt8
    package var alternativeCarriers: [NDEFAlternativeCarrier]
    /// The `cr` random number.
    package var collisionResolution: UInt16?
    package var error: NDEFHandoverError?
    package var otherRecords: [NDEFRecord]

    package init(
        kind: Kind, version: UInt8 = 0x13, alternativeCarriers: [NDEFAlternativeCarrier] = [],
        collisionResolution: UInt16? = nil, error: NDEFHandoverError? = nil, otherRecords: [NDEFRecord] = []
    ) {
        self.kind = kind
        self.version = version
        self.alternativeCarriers = alternativeCarriers
        self.collisionResolution = collisionResolution
        self.error = error
        self.otherRecords = otherRecords
    }

    package var majorVersion: Int { Int(version >> 4) }
    package var minorVersion: Int { Int(version & 0x0F) }

    static func kind(of record: NDEFRecord) -> Kind? {
        guard record.tnf == .wellKnown, record.type.count == 2 else { return nil }
        return Kind.allCases.first { record.type.elementsEqual($0.rawValue.utf8) }
    }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        guard let kind = Self.kind(of: record) else {
            throw NDEFError(.wrongRecordType, at: record.payloadOffset, detail: "expected Hr, Hs, Hm or Hi")
        }
        self.kind = kind
        var c = PayloadCursor(record, code: .invalidHandover)
        let versionOffset = c.offset
        version = try c.byte()
        if version >> 4 != 1 {
            try violate(
                .invalidHandover, at: versionOffset, options, &repairs, detail: "unsupported major version",
                action: "read the record as version 1")
        }
        alternativeCarriers = []
        collisionResolution = nil
        error = nil
        otherRecords = []
        if !c.isAtEnd {
            let innerOffset = c.offset
            let inner = try NDEFMessage(nestedIn: c.rest(), at: innerOffset, options: options, repairs: &repairs)
            var nested = options
            nested.depth += 1
            for r in inner.records {
                if r.isWellKnown("ac") {
                    alternativeCarriers.append(
                        try NDEFAlternativeCarrier(decoding: r, options: nested, repairs: &repairs))
                } else if r.isWellKnown("cr") {
                    var rc = PayloadCursor(r, code: .invalidHandover)
                    let v = try rc.uint16()
                    if !rc.isAtEnd {
                        try violate(
                            .invalidHandover, at: rc.offset, options, &repairs, detail: "cr longer than 2 bytes",
                            action: "read the first 2 bytes")
                    }
                    collisionResolution = v
                } else if r.isWellKnown("err") {
                    if kind != .select {
                        try violate(
                            .invalidHandover, at: r.typeOffset, options, &repairs, detail: "err outside Hs",
                            action: "kept the error record")
                    }
                    error = try NDEFHandoverError(decoding: r, options: nested, repairs: &repairs)
                } else {
                    _ = try NDEFDecodedRecord(decoding: r, options: nested, repairs: &repairs)
                    otherRecords.append(r)
                }
            }
        }
        if kind == .request {
            if version & 0x0F >= 2 && collisionResolution == nil {
                try violate(
                    .invalidHandover, at: record.payloadOffset, options, &repairs,
                    detail: "Hr without a collision resolution record", action: "accepted it")
            }
            if alternativeCarriers.isEmpty {
                try violate(
                    .invalidHandover, at: record.payloadOffset, options, &repairs,
                    detail: "Hr without an alternative carrier", action: "accepted it")
            }
        }
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        var inner: [NDEFRecord] = []
        if let collisionResolution {
            inner.append(
                .wellKnown("cr", payload: [UInt8(collisionResolution >> 8), UInt8(collisionResolution & 0xFF)]))
        }
        for ac in alternativeCarriers { inner.append(try ac.record()) }
        if let error { inner.append(error.record()) }
        inner.append(contentsOf: otherRecords)
        var payload: [UInt8] = [version]
        if !inner.isEmpty { NDEFMessage(records: inner).encode(into: &payload) }
        let type = Array(kind.rawValue.utf8)
        return NDEFRecord(unchecked: .wellKnown, type: type[...], id: [], payload: payload[...])
    }
}
