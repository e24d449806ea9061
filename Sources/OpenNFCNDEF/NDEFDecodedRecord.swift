/// A record recognised by type and decoded: the dispatch over every typed record the codec knows.
///
/// | Recognised by | Case |
/// |---|---|
/// | well-known `T`, `U`, `Sp`, `Hr`/`Hs`/`Hm`/`Hi`, `Hc`, `Sig`, `Di` | text, uri, smartPoster, handover, handoverCarrier, signature, deviceInformation |
/// | media `application/vnd.bluetooth.ep.oob` / `.le.oob` | bluetooth |
/// | media `application/vnd.wfa.wsc` | wifi |
/// | any other media type | mime |
/// | external `android.com:pkg` | androidApplication |
/// | any other external type | external |
/// | absolute URI | absoluteURI |
///
/// Local types (`act`, `s`, `t`, `ac`, `cr`, `err`) are decoded by their parent; at the top level they are left
/// unrecognised, as are other well-known types and TNF 0 and 5.
package enum NDEFDecodedRecord: Hashable, Sendable {
    case text(NDEFTextRecord)
    case uri(NDEFURIRecord)
    case smartPoster(NDEFSmartPosterRecord)
    case mime(NDEFMIMERecord)
    case external(NDEFExternalRecord)
    case absoluteURI(NDEFAbsoluteURIRecord)
    case androidApplication(NDEFAndroidApplicationRecord)
    case handover(NDEFHandoverRecord)
    case handoverCarrier(NDEFHandoverCarrierRecord)
    case bluetooth(NDEFBluetoothCarrier)
    case wifi(NDEFWiFiCarrier)
    case signature(NDEFSignatureRecord)
    case deviceInformation(NDEFDeviceInformationRecord)

    /// Decodes `record` by its type; nil when the type is not one the codec knows. Throws (strict) or repairs
    /// (lenient) when a recognised record breaks its RTD.
    package init?(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        switch record.tnf {
        case .wellKnown:
            if record.isWellKnown("U") {
                self = .uri(try NDEFURIRecord(decoding: record, options: options, repairs: &repairs))
            } else if record.isWellKnown("T") {
                self = .text(try NDEFTextRecord(decoding: record, options: options, repairs: &repairs))
            } else if record.isWellKnown("Sp") {
                self = .smartPoster(try NDEFSmartPosterRecord(decoding: record, options: options, repairs: &repairs))
            } else if NDEFHandoverRecord.kind(of: record) != nil {
                self = .handover(try NDEFHandoverRecord(decoding: record, options: options, repairs: &repairs))
            } else if record.isWellKnown("Hc") {
                self = .handoverCarrier(
                    try NDEFHandoverCarrierRecord(decoding: record, options: options, repairs: &repairs))
            } else if record.isWellKnown("Sig") {
                self = .signature(try NDEFSignatureRecord(decoding: record, options: options, repairs: &repairs))
            } else if record.isWellKnown("Di") {
                self = .deviceInformation(
                    try NDEFDeviceInformationRecord(decoding: record, options: options, repairs: &repairs))
            } else {
                return nil
            }
        case .media:
            if NDEFBluetoothCarrier.transport(of: record) != nil {
                self = .bluetooth(try NDEFBluetoothCarrier(decoding: record, options: options, repairs: &repairs))
            } else if NDEFWiFiCarrier.isWSC(record) {
                self = .wifi(try NDEFWiFiCarrier(decoding: record, options: options, repairs: &repairs))
            } else {
                self = .mime(try NDEFMIMERecord(decoding: record, options: options, repairs: &repairs))
            }
        case .external:
            if NDEFAndroidApplicationRecord.isAAR(record) {
                self = .androidApplication(
                    try NDEFAndroidApplicationRecord(decoding: record, options: options, repairs: &repairs))
            } else {
                self = .external(try NDEFExternalRecord(decoding: record, options: options, repairs: &repairs))
            }
        case .absoluteURI:
            self = .absoluteURI(try NDEFAbsoluteURIRecord(decoding: record, options: options, repairs: &repairs))
        case .empty, .unknown, .unchanged, .reserved:
            return nil
        }
    }

    /// Decodes `record` (strict by default), discarding repairs.
    package init?(decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions = .strict) throws(NDEFError) {
        var repairs: [NDEFRepair] = []
        guard let d = try NDEFDecodedRecord(decoding: record, options: options, repairs: &repairs) else { return nil }
        self = d
    }
}

extension NDEFMessage {
    /// Each record decoded by type (nil where the type is not recognised).
    ///
    /// Strict mode throws the first RTD violation. Lenient mode repairs what it can; a record that still fails is
    /// left undecoded (nil) and reported as a repair, so lenient mode never throws here.
    package func decodedRecords(
        options: NDEFDecodingOptions = .strict, repairs: inout [NDEFRepair]
    ) throws(NDEFError) -> [NDEFDecodedRecord?] {
        var out: [NDEFDecodedRecord?] = []
        out.reserveCapacity(records.count)
        for r in records {
            do throws(NDEFError) {
                out.append(try NDEFDecodedRecord(decoding: r, options: options, repairs: &repairs))
            } catch {
                guard options.isLenient else { throw error }
                repairs.append(NDEFRepair(error.code, at: error.offset, action: "left the record undecoded"))
                out.append(nil)
            }
        }
        return out
    }
}
