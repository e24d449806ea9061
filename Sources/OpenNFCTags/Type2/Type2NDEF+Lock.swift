internal import OpenNFCBytes

extension Type2NDEF {
    /// Makes the tag permanently read-only (T2T §7.6), in the order that leaves a
    /// consistent tag if interrupted:
    ///
    /// 1. WRITE the CC with write access `0F` (skipped when already so): from here on every reader treats the tag
    ///    as read-only, whatever happens next. The CC page is OTP, so the WRITE ORs the nibble in.
    /// 2. WRITE page 2 `00 00 FF FF`: every static lock and block-lock bit (pages 3–15). The chip ignores the
    ///    first two bytes (serial number and internal byte).
    /// 3. WRITE the dynamic lock bytes: at the chip's lock page for a known chip (``Type2Chip/dynamicLockPage``),
    ///    else where the Lock Control TLVs say, else at the NFC Forum default position after the data area. Pages
    ///    that hold other bytes as well are read first and written back with only the lock bits added.
    ///
    /// A tag interrupted after step 1 reads as read-only with part of its memory not yet locked by hardware: the
    /// same status a reader reports, and calling this again completes the locking.
    package func makeReadOnly() throws(TagError) {
        var layout = try requireLayout()
        var lockBits: [Int: UInt8] = [:]
        if let page = chip.dynamicLockPage, let bytes = chip.dynamicLockBytes {
            for (i, b) in bytes.enumerated() where b != 0 { lockBits[page * 4 + i] = b }
        } else {
            let areas =
                layout.lockAreas.isEmpty
                ? TLVLockArea.type2DefaultArea(dataAreaSize: layout.cc.dataAreaSize).map { [$0] } ?? []
                : layout.lockAreas
            for area in areas {
                for (i, b) in area.lockedBytes.enumerated() { lockBits[area.address + i, default: 0] |= b }
            }
        }
        let pages = Set(lockBits.keys.map { $0 / 4 }).sorted()
        let reach = chip.hasSectorSelect ? Type2Memory.pageCount : 256
        if let beyond = pages.first(where: { $0 >= reach }) {
            throw TagError(
                .unsupported,
                "dynamic lock bytes at page \(beyond) lie past page \(reach - 1) (\(chip.name) is not known to have "
                    + "SECTOR_SELECT)")
        }
        if layout.cc.writeAccess != 0x0F {
            var cc = layout.cc
            cc.access = (cc.access & 0xF0) | 0x0F
            try write(page: 3, cc.bytes)
            layout.cc = cc
            state = .ndef(layout)
        }
        try write(page: 2, [0x00, 0x00, 0xFF, 0xFF])
        memory.forget(page: 2)  // the chip kept bytes 0–1 and ORed the lock bits: the page is not what was sent

        let ownWholePage = { (p: Int) in (p * 4..<p * 4 + 4).allSatisfy { lockBits[$0] != nil } }
        if chip.dynamicLockPage == nil { try load(pages: Set(pages.filter { !ownWholePage($0) })) }
        for p in pages {
            let bytes = (p * 4..<p * 4 + 4).map { a in (memory[a] ?? 0x00) | (lockBits[a] ?? 0x00) }
            try write(page: p, bytes)
            if chip.dynamicLockPage != nil { memory.forget(page: p) }  // ORed into content that was not read
        }
    }
}
