internal import OpenNFCBytes

extension Type2NDEF {
    /// Writes the message in the tear-safe order of T2T §7.5.1, with one WRITE per page that
    /// changes:
    ///
    /// 1. If the stored length is not already 0: WRITE the page holding the first length byte with that byte 0
    ///    (the rest of that page already carries its new content, hidden behind the zero length).
    /// 2. WRITE every other page that changes (message, the rest of a 3-byte length, a Terminator TLV when it falls
    ///    in a page written anyway), in ascending order.
    /// 3. WRITE the page holding the first length byte with its final value.
    ///
    /// A page WRITE is atomic on Type 2 chips, so a tag taken away at any moment reads as the old message (before
    /// step 1 lands), empty (during step 2), or the new message (after step 3). When the only page that changes is
    /// the length page itself, that single WRITE is already atomic and steps 1 and 3 merge. Pages whose content is
    /// known (read or written during this activation) and unchanged are not written. Bytes of reserved and lock
    /// areas are never changed: a page mixing them with message bytes is written with their current value.
    package func writeMessage(_ message: [UInt8]) throws(TagError) {
        var layout = try requireLayout()
        try NDEFWriteRule.check(
            message, writable: layout.status == .readWrite, capacity: layout.capacity,
            readOnlyReason: "CC write access is \(Hex.encode([layout.cc.access])): the tag is read-only")
        let long = message.count >= 0xFF
        let (final, commitAddress) = layout.tlv.plan(message, unit: 4)
        let commitPage = commitAddress / 4
        let pages = Set(final.keys.map { $0 / 4 }).union([commitPage])

        // Bytes of these pages that are not ours to change (earlier TLVs, reserved and lock areas) must be known.
        let mustKeep = { (a: Int) -> Bool in a <= layout.tlvAddress || layout.space.isReserved(a) }
        try load(pages: Set(pages.filter { p in (p * 4..<p * 4 + 4).contains { final[$0] == nil && mustKeep($0) } }))
        func content(_ p: Int) -> [UInt8] {
            (p * 4..<p * 4 + 4).map { a in final[a] ?? memory[a] ?? 0x00 }
        }
        let changed = pages.filter { memory.page($0) != content($0) }.sorted()

        if changed.isEmpty {
            // The tag already holds this message.
        } else if changed == [commitPage] {
            try write(page: commitPage, content(commitPage))
        } else {
            if memory[commitAddress] != 0x00 {
                var hidden = content(commitPage)
                hidden[commitAddress % 4] = 0x00
                try write(page: commitPage, hidden)
            }
            for p in changed where p != commitPage { try write(page: p, content(p)) }
            try write(page: commitPage, content(commitPage))
        }
        layout.messageLength = message.count
        layout.longLength = long
        state = .ndef(layout)
    }

    /// One WRITE, keeping the memory image in step; after a failure the page's content is unknown and detection
    /// must run again.
    func write(page p: Int, _ bytes: [UInt8]) throws(TagError) {
        do {
            try link.write(page: p, bytes)
        } catch {
            memory.forget(page: p)
            state = .unknown
            throw error
        }
        memory.store(bytes, fromPage: p)
    }
}
