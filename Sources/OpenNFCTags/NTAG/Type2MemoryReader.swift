internal import OpenNFCBytes
package import OpenNFCRF

/// Every page of a Type 2 chip, as a reader can see it: what `opennfc dump` saves.
package struct Type2MemoryImage: Sendable, Hashable {
    /// Page contents in order (4 bytes each); nil for a page the chip refused to read (password-protected).
    package var pages: [[UInt8]?]
    /// The first page the chip refused to read, if any: from there on the pages need the password (AUTH0 with PROT).
    package var firstProtectedPage: Int?

    package init(pages: [[UInt8]?], firstProtectedPage: Int?) {
        self.pages = pages
        self.firstProtectedPage = firstProtectedPage
    }

    /// All bytes, with unreadable pages as zeros.
    package var bytes: [UInt8] { pages.flatMap { $0 ?? [0, 0, 0, 0] } }
}

/// Reads a whole Type 2 chip, configuration pages included, with the fewest frames the frontend allows
/// (NTAG213/215/216 datasheet §10.2 READ, §10.3 FAST_READ; T2T §5.1).
///
/// | Chip | How |
/// |---|---|
/// | size known (NTAG21x, Ultralight EV1) | FAST_READ in ranges that fit the frontend's largest answer; READ (4 pages) without FAST_READ |
/// | NTAG I2C plus | the same over every page of ``Type2Chip/memoryPages`` (sector 0 through E9h, the 2k's sector 1 after a SECTOR_SELECT); runs never cross a sector; the 2k's missing pages EAh–FFh are zeros, never read |
/// | size unknown (Ultralight, generic) | READ 4 pages at a time until the chip refuses a page past its end, then re-activates |
/// | password-protected reads (PROT) | the refused range is re-read page by page after re-activation, to find the first protected page; with the password, PWD_AUTH first and everything is read |
///
/// PWD and PACK always read as zeros (datasheet §8.8.1): the image holds zeros there whatever the secret is.
package final class Type2MemoryReader {
    let link: Type2Link
    let frontend: any RFFrontend
    let target: RFTarget
    let chip: Type2Chip
    let password: [UInt8]?
    /// The PACK the chip answered to the password, once ``read()`` has authenticated.
    package private(set) var pack: [UInt8]?

    package init(target: RFTarget, chip: Type2Chip, frontend: any RFFrontend, password: [UInt8]? = nil) {
        self.link = Type2Link(frontend: frontend, target: target)
        self.frontend = frontend
        self.target = target
        self.chip = chip
        self.password = password
    }

    package func read() throws(TagError) -> Type2MemoryImage {
        if let password { try authenticate(password) }
        guard let total = chip.memoryPages else { return try readUnknownSize() }
        var pages: [[UInt8]?] = []
        var page = 0
        let perFrame = max(1, min(frontend.capabilities.maxResponseSize / 4, 64))
        while page < total {
            if let missing = chip.missingPages, missing.contains(page) {
                // Pages that do not exist (NTAG I2C plus 2k, sector 0 EAh–FFh): zeros, as the tag file holds them.
                while page <= missing.upperBound && page < total {
                    pages.append([0, 0, 0, 0])
                    page += 1
                }
                continue
            }
            // A run ends at the chip's end, its sector's end (one SECTOR_SELECT each) and before missing pages.
            var last = min(total - 1, page | 0xFF)
            if let missing = chip.missingPages, missing.lowerBound > page { last = min(last, missing.lowerBound - 1) }
            let end = chip.hasFastRead ? min(last, page + perFrame - 1) : min(last, page + 3)
            do {
                let data =
                    chip.hasFastRead
                    ? try link.fastRead(from: page, to: end)
                    : Array(try link.read(page: page).prefix((end - page + 1) * 4))
                for p in 0...(end - page) { pages.append(Array(data[(p * 4)..<(p * 4 + 4)])) }
                page = end + 1
            } catch let e where e.code == .commandRejected {
                // Refused: a protected range. Find its first page one page at a time, then stop: every page from
                // AUTH0 on is protected.
                try reactivate()
                var first = page
                while first <= end {
                    do {
                        let one =
                            chip.hasFastRead
                            ? try link.fastRead(from: first, to: first) : Array(try link.read(page: first).prefix(4))
                        pages.append(one)
                        first += 1
                    } catch let e where e.code == .commandRejected {
                        try reactivate()
                        break
                    }
                }
                let protectedFrom = first
                while pages.count < total { pages.append(nil) }
                return Type2MemoryImage(pages: pages, firstProtectedPage: protectedFrom < total ? protectedFrom : nil)
            }
        }
        // Leave the chip in sector 0, where every other procedure (each with its own link) expects it.
        try link.select(sector: 0)
        return Type2MemoryImage(pages: pages, firstProtectedPage: nil)
    }

    private func readUnknownSize() throws(TagError) -> Type2MemoryImage {
        var pages: [[UInt8]?] = []
        var page = 0
        // 256 pages is the most a Type 2 chip addresses without SECTOR_SELECT.
        while page < 256 {
            do {
                let data = try link.read(page: page)
                for p in 0..<4 { pages.append(Array(data[(p * 4)..<(p * 4 + 4)])) }
                page += 4
            } catch let e where e.code == .commandRejected {
                try reactivate()
                // READ rolls over at the end of memory, so the last group read may hold pages 0, 1, … again: the
                // chip ends at the first of the last three pages that a READ refuses.
                var end = page
                for q in max(0, page - 3)..<page {
                    do {
                        _ = try link.read(page: q)
                    } catch let e where e.code == .commandRejected {
                        try reactivate()
                        end = q
                        break
                    }
                }
                pages = Array(pages.prefix(end))
                break
            }
        }
        return Type2MemoryImage(pages: pages, firstProtectedPage: nil)
    }

    /// Re-activates through the link, which then knows the chip is back in sector 0.
    private func reactivate() throws(TagError) {
        try link.reactivate(after: "a refused read")
        if let password { try authenticate(password) }
    }

    private func authenticate(_ password: [UInt8]) throws(TagError) {
        guard let pw = try? NTAGPassword(target: target, chip: chip, frontend: frontend) else {
            throw TagError(.unsupported, "\(chip.name) has no password (PWD_AUTH)")
        }
        pack = try pw.authenticate(password: password)
    }
}

extension Type2MemoryReader {
    /// READ_SIG (`3C 00`, NTAG21x §10.10 / MF0ULx1 §9.13): the 32-byte originality signature, nil when the chip has
    /// none or the answer is not 32 bytes.
    package static func readSignature(_ chip: Type2Chip, _ frontend: any RFFrontend) -> [UInt8]? {
        guard chip.family == .ntag21x || chip.family == .ultralightEV1 else { return nil }
        if case .frame(let b)? = try? frontend.exchange([0x3C, 0x00]), b.count == 32 { return b }
        return nil
    }

    /// CFG0 and CFG1 (AUTH0, ACCESS) of a chip whose last four pages hold its configuration (NTAG213/215/216 §8.5.7,
    /// MF0ULx1 §8.5): one READ of the fourth page from the end, its first 8 bytes; nil when the chip's size is
    /// unknown or the read fails.
    package static func readConfigurationPages(_ chip: Type2Chip, _ frontend: any RFFrontend) -> [UInt8]? {
        guard let total = chip.totalPages, total >= 4 else { return nil }
        if case .frame(let b)? = try? frontend.exchange([0x30, UInt8((total - 4) & 0xFF)]), b.count >= 8 {
            return Array(b[0..<8])
        }
        return nil
    }
}
