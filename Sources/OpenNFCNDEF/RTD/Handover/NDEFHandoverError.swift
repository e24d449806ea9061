/// The Handover Error record `err` (Connection Handover 1.3 §6.5): a reason and its data.
package struct NDEFHandoverError: Hashable, Sendable {
    /// 0x01 temporary memory constraint (data: 1 byte, retry after ms), 0x02 permanent memory constraint (4 bytes,
    /// maximum request size), 0x03 carrier-specific constraint (1 byte, retry after ms).
    package var reason: UInt8
    package var data: UInt32

    package init(reason: UInt8, data: UInt32) {
        self.reason = reason
        self.data = data
    }

    /// Length of the data for each defined reason.
    static func dataLength(_ reason: UInt8) -> Int? {
        switch reason {
        case 0x01, 0x03: 1
        case 0x02: 4
        default: nil
        }
    }

    init(decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair])
        throws(NDEFError)
    {
        var c = PayloadCursor(record, code: .invalidHandover)
        let at = c.offset
        reason = try c.byte()
        guard let n = Self.dataLength(reason) else {
            throw NDEFError(.invalidHandover, at: at, detail: "unknown error reason \(reason)")
        }
        data = try c.take(n).reduce(0) { $0 << 8 | UInt32($1) }
        if !c.isAtEnd {
            try violate(
                .invalidHandover, at: c.offset, options, &repairs, detail: "bytes after the error data",
                action: "ignored them")
        }
    }

    func record() -> NDEFRecord {
        let n = Self.dataLength(reason) ?? 4
        var p: [UInt8] = [reason]
        for k in stride(from: n - 1, through: 0, by: -1) {
            p.append(UInt8(truncatingIfNeeded: data >> (8 * UInt32(k))))
        }
        return .wellKnown("err", payload: p)
    }
}
