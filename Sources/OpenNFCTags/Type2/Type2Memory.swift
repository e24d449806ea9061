/// The bytes of a Type 2 tag the procedure has read or written during this activation, by byte address.
///
/// The procedures only send a command for bytes they do not know yet, and skip WRITEs of pages that already hold
/// the wanted bytes. Covers 4 sectors of 256 pages (page = sector × 256 + page in the sector): sector 0 is what a
/// READ or WRITE addresses without SECTOR_SELECT; NTAG I2C 2k data reaches into sector 1.
struct Type2Memory {
    static let pageCount = 1024
    /// Known bytes by address, nil where unknown. Grown as bytes become known, up to `pageCount * 4`: a session
    /// usually knows a few pages, and building (and zeroing) all 4,096 cost more than the read itself.
    fileprivate var bytes: [UInt8?] = []

    subscript(address: Int) -> UInt8? { address < bytes.count ? bytes[address] : nil }

    /// The page's 4 bytes, when all are known.
    func page(_ p: Int) -> [UInt8]? {
        guard p < Self.pageCount, p * 4 + 4 <= bytes.count else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(4)
        for a in p * 4..<(p * 4 + 4) {
            guard let b = bytes[a] else { return nil }
            out.append(b)
        }
        return out
    }

    func isKnown(page p: Int) -> Bool {
        p < Self.pageCount && p * 4 + 4 <= bytes.count && !bytes[p * 4..<(p * 4 + 4)].contains(nil)
    }

    mutating func store(_ data: [UInt8], fromPage p: Int, pageLimit: Int? = nil) {
        let endPage = min(Self.pageCount, pageLimit ?? Self.pageCount)
        let end = min(p * 4 + data.count, endPage * 4)
        guard end > p * 4 else { return }
        grow(to: end)
        for i in 0..<(end - p * 4) { bytes[p * 4 + i] = data[i] }
    }

    mutating func set(_ b: UInt8, at address: Int) {
        precondition(address < Self.pageCount * 4, "byte address \(address) is past the Type 2 memory")
        grow(to: address + 1)
        bytes[address] = b
    }

    /// Makes addresses below `end` storable (unknown until stored).
    private mutating func grow(to end: Int) {
        if end > bytes.count { bytes.append(contentsOf: repeatElement(nil, count: end - bytes.count)) }
    }
}

extension Type2Memory {
    /// Forgets a page whose content is uncertain (a WRITE that failed may or may not have happened).
    mutating func forget(page p: Int) {
        // Nothing is known past the grown end, so a page there is already forgotten.
        guard p >= 0, p < Self.pageCount, p * 4 < bytes.count else { return }
        for a in p * 4..<min(p * 4 + 4, bytes.count) { bytes[a] = nil }
    }
}
