internal import OpenNFCBytes
package import OpenNFCRF

/// NDEF on an NFC Forum Type 2 tag (NFC Forum Type 2 Tag Technical Specification §6–7).
///
/// | Operation | Commands | Frames (after identification) |
/// |---|---|---|
/// | detect | READ page 3 (CC + the first 12 TLV bytes), more READs only if the TLVs run further | 1 usually |
/// | read | FAST_READ of the message pages not yet known, in runs of ⌊maxResponseSize ÷ 4⌋ pages (READ when the chip has no FAST_READ) | 1 + ⌈pages ÷ run⌉ |
/// | write | WRITE per changed page: length byte to 0 (if it was not), data, length last | see `docs/PROCEDURES.md` |
/// | make read-only | WRITE CC access `0F`, static lock bytes, dynamic lock bytes | 3–6 |
/// | format | WRITE empty NDEF TLV (+ factory Lock Control TLV), then the CC | 2–3 |
///
/// Data areas past page 255 (NTAG I2C 2k) are reached with SECTOR_SELECT (2 frames each time the sector changes;
/// pages are numbered sector × 256 + page, FAST_READ runs never cross a sector), up to 4 sectors. What it does not
/// do: password authentication (PWD_AUTH), and proprietary access conditions (a CC access nibble other than 0 or F
/// is treated as not readable / read-only).
///
/// With a frontend that cannot send raw frames (``RFCapabilities/rawFrames`` false, e.g. a PC/SC reader offering
/// only storage-card APDUs), only READ `30` and WRITE `A2` are sent: the frontend maps those to its pseudo-APDUs.
package final class Type2NDEF: NDEFTagProcedure, LayoutDetectingProcedure {
    /// The chip, from identification; decides FAST_READ and the dynamic lock bytes.
    package let chip: Type2Chip
    let link: Type2Link
    let capabilities: RFCapabilities
    var memory = Type2Memory()
    var state: NDEFLayoutState<Type2Layout> = .unknown

    /// - Parameters:
    ///   - target: the activated target, used to re-activate before repeating a read that met a timeout or a
    ///     transmission error; nil disables those retries.
    ///   - chip: from ``TagIdentifier``; ``Type2Chip/generic`` when unknown.
    package init(target: RFTarget?, chip: Type2Chip, frontend: any RFFrontend) {
        self.chip = chip
        self.link = Type2Link(frontend: frontend, target: target)
        self.capabilities = frontend.capabilities
    }

    /// Pages per FAST_READ, or nil when FAST_READ must not be used.
    var fastReadPages: Int? {
        guard chip.hasFastRead, capabilities.rawFrames, capabilities.maxCommandSize >= 3 else { return nil }
        let pages = min(capabilities.maxResponseSize / 4, Type2Memory.pageCount)
        return pages >= 1 ? pages : nil
    }

    // MARK: detect

    package func detect() throws(TagError) -> NDEFDetection { try detectedStatus() }

    /// NDEF detection procedure (T2T §7.4.1): CC check, then the TLV walk up to the NDEF TLV.
    func detectionProcedure() throws(TagError) -> NDEFLayoutState<Type2Layout> {
        let cc = Type2CapabilityContainer(page: try pageBytes(3))
        if let reason = cc.unsupportedReason { return .notNDEF(reason) }
        let space = TLVAddressSpace(dataEnd: TLVAddressSpace.type2DataStart + cc.dataAreaSize)
        if space.dataEnd > 256 * 4 && !chip.hasSectorSelect {
            throw TagError(
                .unsupported,
                "data area of \(cc.dataAreaSize) bytes goes past page 255 and \(chip.name) is not known to have "
                    + "SECTOR_SELECT")
        }
        guard space.dataEnd <= Type2Memory.pageCount * 4 else {
            throw TagError(
                .unsupported,
                "data area of \(cc.dataAreaSize) bytes goes past sector 3 (page \(Type2Memory.pageCount - 1))")
        }
        switch try TLVWalk.findNDEF(in: space, from: TLVAddressSpace.type2DataStart, byte: byte) {
        case .ndef(let tlv): return .ndef(Type2Layout(cc: cc, tlv: tlv))
        case .notNDEF(let reason): return .notNDEF(reason)
        }
    }

    // MARK: read

    package func readMessage() throws(TagError) -> [UInt8] {
        let layout = try requireLayout()
        guard layout.messageLength > 0 else { return [] }
        let addresses = layout.messageAddresses
        var pages: [Int] = []  // the message's pages, ascending, each once (the addresses ascend)
        pages.reserveCapacity(addresses.count / 4 + 2)
        for a in addresses where pages.last != a / 4 { pages.append(a / 4) }
        try load(pages: pages)
        return try NDEFFraming.checked(addresses.map { memory[$0]! })
    }

    // MARK: memory access

    /// One byte, reading its page (READ, 4 pages) when not known yet.
    func byte(_ address: Int) throws(TagError) -> UInt8 {
        if let b = memory[address] { return b }
        try readWithREAD(page: address / 4)
        return memory[address]!
    }

    /// A page's 4 bytes, reading it (READ, 4 pages) when not known yet.
    func pageBytes(_ p: Int) throws(TagError) -> [UInt8] {
        if let b = memory.page(p) { return b }
        try readWithREAD(page: p)
        return memory.page(p)!
    }

    private func readWithREAD(page p: Int) throws(TagError) {
        storeREAD(try link.read(page: p), page: p)
        if memory.page(p) == nil {
            throw TagError(.invalidResponse, "READ page \(p) did not return page \(p)")
        }
    }

    /// Keeps the 16 bytes of a READ of page `p`. READ rolls over to page 0 past the chip's last page (T2T §5.1), so
    /// pages after `p` are kept only where they surely exist: below the chip's page count, or, for a chip of unknown
    /// size, inside the data area the CC declares.
    private func storeREAD(_ data: [UInt8], page p: Int, requestedThrough last: Int? = nil) {
        var limit: Int
        if let total = chip.totalPages {
            limit = total
        } else if let cc = memory.page(3).map(Type2CapabilityContainer.init(page:)),
            cc.magic == Type2CapabilityContainer.magicNDEF
        {
            limit = max(p + 1, (TLVAddressSpace.type2DataStart + cc.dataAreaSize) / 4)
        } else {
            limit = max(p + 1, 7)  // the first READ (page 3): pages 3–6 exist on every Type 2 tag (16 pages at least)
        }
        if let last { limit = max(limit, last + 1) }  // pages asked for by name are taken as answered
        if let wrap = ultralightCWrap(data, page: p) { limit = min(limit, wrap) }
        if chip.hasSectorSelect && p >= 256 { limit = max(limit, (p / 256 + 1) * 256) }
        limit = min(limit, (p / 256 + 1) * 256)  // a READ never leaves its sector
        memory.store(data, fromPage: p, pageLimit: limit)
    }

    /// Where a READ of an Ultralight C wrapped. With AUTH1 protecting reads (MF0ICU2 §7.5.8), a READ that runs into
    /// the first protected page (AUTH0) may continue from page 0 (the virtual chip does: docs/PROCEDURES.md,
    /// "Ultralight C"; a chip that NAKs instead needs nothing here), so the answer's pages from there are pages 0, 1, …
    /// and not the protected ones. Page 0 is UID0–UID2 and BCC0 = 88h ⊕ UID0 ⊕ UID1 ⊕ UID2 (MF0ICU2, UID/serial
    /// number), known from the activation. Returns the first page not to keep, or nil; the later READ of that page
    /// gets the chip's NAK, whose message names the page and the password.
    private func ultralightCWrap(_ data: [UInt8], page p: Int) -> Int? {
        guard chip.family == .ultralightC, let uid = link.target?.identifier, uid.count == 7 else { return nil }
        let page0 = Array(uid[0..<3]) + [0x88 ^ uid[0] ^ uid[1] ^ uid[2]]
        for k in 1..<(data.count / 4) where p + k < 0x30 && Array(data[4 * k..<4 * k + 4]) == page0 {
            return p + k
        }
        return nil
    }

    /// Reads every page of `pages` that is not known yet, with the fewest frames: runs of consecutive missing pages,
    /// each in FAST_READs of up to ``fastReadPages`` pages, or in READs (4 pages each) placed so that the last one
    /// ends on the run's last page (a READ never reaches past what is needed).
    func load(pages: some Sequence<Int>) throws(TagError) {
        let missing = pages.filter { !memory.isKnown(page: $0) }.sorted()
        guard !missing.isEmpty else { return }
        var runs: [ClosedRange<Int>] = []
        for p in missing where runs.last?.contains(p) != true {  // a page named twice is read once
            // Runs never cross a sector (each is read after one SECTOR_SELECT).
            if let last = runs.last, last.upperBound + 1 == p, last.upperBound >> 8 == p >> 8 {
                runs[runs.count - 1] = last.lowerBound...p
            } else {
                runs.append(p...p)
            }
        }
        for run in runs {
            if let per = fastReadPages {
                var start = run.lowerBound
                while start <= run.upperBound {
                    let end = min(start + per - 1, run.upperBound)
                    memory.store(try link.fastRead(from: start, to: end), fromPage: start)
                    start = end + 1
                }
            } else {
                var start = run.lowerBound
                while start <= run.upperBound {
                    let p = min(start, max(run.upperBound & ~0xFF, run.upperBound - 3))
                    storeREAD(try link.read(page: p), page: p, requestedThrough: run.upperBound)
                    start = p + 4
                }
            }
        }
    }
}
