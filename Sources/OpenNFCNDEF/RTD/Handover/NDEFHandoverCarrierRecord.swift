/// The Handover Carrier record `Hc` (Connection Handover 1.3 §6.4.2): names a carrier by type (with its own TNF)
/// and carries optional carrier data, for carriers without a full configuration record.
package struct NDEFHandoverCarrierRecord: NDEFTypedRecord {
    /// The TNF of ``carrierType`` (bits 2–0 of the CTF byte).
    package var carrierTypeFormat: NDEFRecord.TypeNameFormat
    package var carrierType: [UInt8]
    package var carrierData: [UInt8]

    package init(carrierTypeFormat: NDEFRecord.TypeNameFormat, carrierType: [UInt8], carrierData: [UInt8] = []) {
        self.carrierTypeFormat = carrierTypeFormat
        self.carrierType = carrierType
        self.carrierData = carrierData
    }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        try record.expectWellKnown("Hc")
        var c = PayloadCursor(record, code: .invalidHandover)
        let at = c.offset
        let ctf = try c.byte()
        if ctf & 0xF8 != 0 {
            try violate(
                .invalidHandover, at: at, options, &repairs, detail: "reserved CTF bits set",
                action: "ignored the reserved bits")
        }
        carrierTypeFormat = NDEFRecord.TypeNameFormat(rawValue: ctf & 0x07)!
        let n = Int(try c.byte())
        carrierType = Array(try c.take(n))
        carrierData = Array(c.rest())
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        guard carrierType.count <= 255 else {
            throw NDEFError(.invalidHandover, at: 0, detail: "carrier type too long")
        }
        var p: [UInt8] = [carrierTypeFormat.rawValue, UInt8(carrierType.count)]
        p.append(contentsOf: carrierType)
        p.append(contentsOf: carrierData)
        return .wellKnown("Hc", payload: p)
    }
}
