internal import OpenNFCBytes

/// An Answer To Reset, decoded per ISO/IEC 7816-3 §8.2: initial character TS, format byte T0, interface byte groups
/// TAi/TBi/TCi/TDi, historical bytes and the check byte TCK.
///
/// Contactless readers synthesise an ATR for every card (PC/SC Part 3 §3.1.3.2.3): storage cards carry a PC/SC
/// registered-application TLV in the historical bytes (see ``ContactlessCard``); ISO 14443-4 cards carry their ATS
/// historical bytes.
package struct ATR: Sendable, Hashable, CustomStringConvertible {
    /// One group of interface bytes; group `i` holds TAi, TBi, TCi and TDi.
    package struct InterfaceGroup: Sendable, Hashable {
        package var index: Int
        package var ta: UInt8?
        package var tb: UInt8?
        package var tc: UInt8?
        package var td: UInt8?
        /// The protocol TDi announces for the next group (`T=` low nibble of TDi).
        package var announcedProtocol: Int? { td.map { Int($0 & 0x0F) } }
    }

    /// A malformed ATR, with the byte offset where decoding stopped.
    package struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        package var reason: String
        package var offset: Int
        package init(_ reason: String, offset: Int) {
            self.reason = reason
            self.offset = offset
        }
        package var description: String { "invalid ATR: \(reason) at byte \(offset)" }
    }

    package var bytes: [UInt8]
    /// TS: `3B` direct convention, `3F` inverse convention.
    package var isInverseConvention: Bool
    package var groups: [InterfaceGroup]
    package var historicalBytes: [UInt8]
    /// TCK when present (it is whenever a protocol other than T=0 is announced).
    package var tck: UInt8?

    /// The largest ATR ISO 7816-3 allows (and pcsc-lite's `MAX_ATR_SIZE`).
    package static let maximumLength = 33

    package init(decoding bytes: [UInt8]) throws(ATR.Error) {
        guard !bytes.isEmpty else { throw Error("empty", offset: 0) }
        guard bytes.count <= Self.maximumLength else {
            throw Error("\(bytes.count) bytes, more than the \(Self.maximumLength) ISO 7816-3 allows", offset: 33)
        }
        var r = ByteReader(bytes)
        func next(_ what: String) throws(ATR.Error) -> UInt8 {
            do { return try r.readUInt8() } catch { throw ATR.Error("ends before \(what)", offset: r.offset) }
        }
        let ts = try next("TS")
        guard ts == 0x3B || ts == 0x3F else {
            throw Error("TS is \(Hex.encode([ts])), not 3B (direct) or 3F (inverse convention)", offset: 0)
        }
        let t0 = try next("T0")
        var y = t0 >> 4
        var groups: [InterfaceGroup] = []
        var index = 1
        while true {
            var g = InterfaceGroup(index: index)
            if y & 0x1 != 0 { g.ta = try next("TA\(index)") }
            if y & 0x2 != 0 { g.tb = try next("TB\(index)") }
            if y & 0x4 != 0 { g.tc = try next("TC\(index)") }
            if y & 0x8 != 0 { g.td = try next("TD\(index)") }
            groups.append(g)
            guard let td = g.td else { break }
            y = td >> 4
            index += 1
        }
        let k = Int(t0 & 0x0F)
        var hist: [UInt8] = []
        for i in 0..<k { hist.append(try next("historical byte \(i + 1) of \(k)")) }
        let needsTCK = groups.contains { ($0.announcedProtocol ?? 0) != 0 }
        var tck: UInt8?
        if needsTCK {
            let start = r.offset
            let check = try next("TCK")
            let x = bytes[1...].reduce(0, ^)
            if x != 0 {
                throw Error(
                    "TCK \(Hex.encode([check])) is wrong (expected \(Hex.encode([check ^ x])))", offset: start)
            }
            tck = check
        }
        if !r.isAtEnd {
            throw Error("\(r.remaining) bytes after the end the format byte announces", offset: r.offset)
        }
        self.bytes = bytes
        self.isInverseConvention = ts == 0x3F
        self.groups = groups
        self.historicalBytes = hist
        self.tck = tck
    }

    /// The protocols offered (`T=0` when no TD1 announces any).
    package var protocols: [Int] {
        let announced = groups.compactMap(\.announcedProtocol)
        var seen: [Int] = []
        for p in announced.isEmpty ? [0] : announced where !seen.contains(p) { seen.append(p) }
        return seen
    }

    package var description: String { bytes.hexString }
}
