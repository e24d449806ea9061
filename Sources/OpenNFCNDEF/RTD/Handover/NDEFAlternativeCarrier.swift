/// The Alternative Carrier record `ac` (Connection Handover 1.3 §6.4.1): carrier power state, a reference to the
/// carrier data record (its record ID), and auxiliary data references.
package struct NDEFAlternativeCarrier: NDEFTypedRecord {
    /// Carrier power state (bits 1–0 of the first byte).
    package enum PowerState: UInt8, Hashable, Sendable {
        case inactive = 0
        case active = 1
        case activating = 2
        case unknown = 3

        /// Lower-case name used in JSON and listings.
        package var name: String {
            switch self {
            case .inactive: "inactive"
            case .active: "active"
            case .activating: "activating"
            case .unknown: "unknown"
            }
        }
    }

    package var powerState: PowerState
    /// The ID of the carrier configuration record (1–255 bytes).
    package var carrierDataReference: [UInt8]
    package var auxiliaryDataReferences: [[UInt8]]

    package init(powerState: PowerState, carrierDataReference: [UInt8], auxiliaryDataReferences: [[UInt8]] = []) {
        self.powerState = powerState
        self.carrierDataReference = carrierDataReference
        self.auxiliaryDataReferences = auxiliaryDataReferences
    }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        try record.expectWellKnown("ac")
        var c = PayloadCursor(record, code: .invalidHandover)
        let cpsOffset = c.offset
        let cps = try c.byte()
        if cps & 0xFC != 0 {
            try violate(
                .invalidHandover, at: cpsOffset, options, &repairs, detail: "reserved CPS bits set",
                action: "ignored the reserved bits")
        }
        powerState = PowerState(rawValue: cps & 0x03)!
        let cdrOffset = c.offset
        let cdrLength = Int(try c.byte())
        if cdrLength == 0 {
            try violate(
                .invalidHandover, at: cdrOffset, options, &repairs, detail: "empty carrier data reference",
                action: "accepted it")
        }
        carrierDataReference = Array(try c.take(cdrLength))
        let count = Int(try c.byte())
        auxiliaryDataReferences = []
        for _ in 0..<count {
            let n = Int(try c.byte())
            auxiliaryDataReferences.append(Array(try c.take(n)))
        }
        if !c.isAtEnd {
            try violate(
                .invalidHandover, at: c.offset, options, &repairs, detail: "bytes after the last reference",
                action: "ignored them")
        }
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        guard (1...255).contains(carrierDataReference.count), auxiliaryDataReferences.count <= 255,
            auxiliaryDataReferences.allSatisfy({ $0.count <= 255 })
        else { throw NDEFError(.invalidHandover, at: 0, detail: "reference longer than 255 bytes") }
        var p: [UInt8] = [powerState.rawValue, UInt8(carrierDataReference.count)]
        p.append(contentsOf: carrierDataReference)
        p.append(UInt8(auxiliaryDataReferences.count))
        for a in auxiliaryDataReferences {
            p.append(UInt8(a.count))
            p.append(contentsOf: a)
        }
        return .wellKnown("ac", payload: p)
    }
}
