/// The bytes of a Type 2 tag the procedure has read or written during this activation, by byte address.
///
/// The procedures only send a command for bytes they do not know yet, and skip WRITEs of pages that already hold
/// the wanted bytes. Covers 4 sectors of 256 pages (page = sector × 256 + page in the sector): sector 0 is what a
/// READ or WRITE addresses without SECTOR_SELECT; NTAG I2C 2k data reaches into sector 1.
struct Type2Memory {
    static let pageCount = 1024
    fileprivate var bytes = [UInt8?](repeating: nil, count: pageCount * 4)

    subscript(address: Int) -> UInt8? { address < bytes.count ? bytes[address] : nil }

    /// The page's 4 bytes, when all are known.
    func page(_ p: Int) -> [UInt8]? {
        guard p < Self.pageCount else { return nil }
        var out: [UInt8] = []
        for a in p * 4..<(p * 4 + 4) {
            guard let b = bytes[a] else { return nil }
            out.append(b)
        }
        return out
    }

    func isKnown(page p: Int) -> Bool {
        p < Self.pageCount && !bytes[p * 4..<(p * 4 + 4)].contains(nil)
    }

    mutating func store(_ data: [UInt8], fromPage p: Int, pageLimit: Int? = nil) {
        for (i, b) in data.enumerated() {
            let page = p + i / 4
            if page >= Self.pageCount { break }
            if let pageLimit, page >= pageLimit { break }
            bytes[p * 4 + i] = b
        }
    }

    mutating func set(_ b: UInt8, at address: Int) { bytes[address] = b }
}

extension Type2Memory {
    /// Forgets a page whose content is uncertain (a WRITE that failed may or may not have happened).
    mutating func forget(page p: Int) {
        guard p < Self.pageCount else { return }
        for a in p * 4..<(p * 4 + 4) { bytes[a] = nil }
    }
}
