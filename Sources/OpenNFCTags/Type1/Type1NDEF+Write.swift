internal import OpenNFCBytes

extension Type1NDEF {
    /// Writes the message in the tear-safe order of the T1T 1.2 write procedure, through the NDEF TLV's first length
    /// byte: (1) when the stored length is not 0, or other bytes of its block change, write it as 0 (a dynamic tag's
    /// WRITE-E8 of that block already carries the block's new content, hidden behind the zero length, since the chip
    /// programs the block byte by byte); (2) write every other unit that changes, in
    /// ascending order; (3) write the length. A unit is a byte on static tags (WRITE-E) and an 8-byte block on
    /// dynamic ones (WRITE-E8; WRITE-E when only one of its bytes changes). A Type 1 tag programs byte by byte, so a
    /// tag taken away at any moment reads as the old message (before step 1 lands), empty (from then on, an erased
    /// length byte included), or the new one. Units already holding their bytes are not written; reserved, lock and
    /// earlier TLV bytes in a written block keep their value.
    package func writeMessage(_ message: [UInt8]) throws(TagError) {
        var layout = try requireLayout()
        try NDEFWriteRule.check(
            message, writable: layout.status == .readWrite, capacity: layout.tlv.capacity,
            readOnlyReason: "CC write access is \(Hex.encode([layout.cc.bytes[3]])): the tag is read-only")
        let unit = layout.isStatic ? 1 : 8
        let (final, commit) = layout.tlv.plan(message, unit: unit)
        let units = Set(final.keys.map { $0 / unit }).union([commit / unit])
        let mustKeep = { (a: Int) -> Bool in a <= layout.tlv.tlvAddress || layout.tlv.space.isReserved(a) }
        try load(units.flatMap { u in (u * unit..<u * unit + unit).filter { final[$0] == nil && mustKeep($0) } })
        func content(_ u: Int) -> [UInt8] { (u * unit..<u * unit + unit).map { final[$0] ?? memory[$0] ?? 0x00 } }
        // A block holding bytes that are not ours (earlier TLVs, reserved or lock bytes) is written byte by byte:
        // the chip erases every byte an 8-byte write covers, so a torn WRITE-E8 could erase one of them.
        func write(_ u: Int, _ bytes: [UInt8]) throws(TagError) {
            let keeps = unit == 8 && (u * 8..<u * 8 + 8).contains { final[$0] == nil && mustKeep($0) }
            try self.write(unit: u, size: unit, bytes, byteWise: keeps)
        }
        let changed = units.filter { u in
            (u * unit..<u * unit + unit).contains { memory[$0] != content(u)[$0 - u * unit] }
        }
        .sorted()
        let commitUnit = commit / unit
        let others = changed.filter { $0 != commitUnit }
        // Bytes of the commit block other than the length byte that change: they go in while the length is 0.
        let besideLength = (commitUnit * unit..<commitUnit * unit + unit).contains { a in
            a != commit && memory[a] != content(commitUnit)[a - commitUnit * unit]
        }
        if changed.isEmpty {
            // The tag already holds this message.
        } else if others.isEmpty && !besideLength {
            // Only the length byte changes: one byte write, old or (erased, torn) empty or new.
            try write(commitUnit, content(commitUnit))
        } else {
            if memory[commit] != 0x00 || besideLength {
                var hidden = content(commitUnit)
                hidden[commit - commitUnit * unit] = 0x00
                try write(commitUnit, hidden)
            }
            for u in others { try write(u, content(u)) }
            try write(commitUnit, content(commitUnit))
        }
        layout.tlv.messageLength = message.count
        layout.tlv.longLength = message.count >= 0xFF
        state = .ndef(layout)
    }

    /// One erasing write of a unit, checked against the tag's echo; after a failure the unit is unknown and detection
    /// must run again. A block is written with WRITE-E8, or with one WRITE-E per changed byte when `byteWise` or
    /// when a single byte changes.
    func write(unit u: Int, size: Int, _ bytes: [UInt8], byteWise: Bool = false) throws(TagError) {
        let link = try requireLink()
        let start = u * size
        do throws(TagError) {
            if size == 1 {
                let stored = try link.write(start, bytes[0], erase: true)
                memory[start] = stored
                if stored != bytes[0] {
                    throw TagError(
                        .commandRejected,
                        "WRITE-E byte \(start) stored \(Hex.encode([stored])), not \(Hex.encode([bytes[0]])): locked")
                }
                return
            }
            let differing = (0..<8).filter { memory[start + $0] != bytes[$0] }
            if differing.count == 1 || byteWise {
                for i in differing {
                    let stored = try link.write(start + i, bytes[i], erase: true)
                    memory[start + i] = stored
                    if stored != bytes[i] {
                        throw TagError(
                            .commandRejected,
                            "WRITE-E byte \(start + i) stored \(Hex.encode([stored])), not \(Hex.encode([bytes[i]])): locked"
                        )
                    }
                }
                return
            }
            let stored = try link.writeBlock(u, bytes, erase: true)
            for (i, b) in stored.enumerated() { memory[start + i] = b }
            if stored != bytes {
                throw TagError(
                    .commandRejected,
                    "WRITE-E8 block \(u) stored \(stored.hexString), not \(bytes.hexString): the block is locked")
            }
        } catch {
            if error.code == .rf { for a in start..<start + size { memory[a] = nil } }
            state = .unknown
            throw error
        }
    }

    /// Makes the tag permanently read-only (T1T 1.2 "Read-only" procedure), in the order that leaves a consistent tag
    /// if interrupted:
    ///
    /// 1. WRITE-NE byte 11 with `0F` (CC write access none), skipped when already so: from here on every reader
    ///    treats the tag as read-only.
    /// 2. The static lock bytes LOCK0/LOCK1 (bytes 112–113) all set: two WRITE-NE on a static tag, one WRITE-NE8 of
    ///    block E (`FF FF` then six `00`, which leave the OTP bytes as they are) on a dynamic one.
    /// 3. Every dynamic lock byte the Lock Control TLVs declare, one WRITE-NE8 per block holding them (the other
    ///    bytes `00`, which an OR leaves unchanged).
    ///
    /// Each answer is checked: the bits the procedure set must read back set.
    package func makeReadOnly() throws(TagError) {
        var layout = try requireLayout()
        let link = try requireLink()
        if layout.cc.writeAccess != 0x0F {
            let stored = try link.write(11, 0x0F, erase: false)
            guard stored & 0x0F == 0x0F else {
                throw TagError(.commandRejected, "WRITE-NE byte 11 stored \(Hex.encode([stored])): the CC is locked")
            }
            memory[11] = stored
            layout.cc.bytes[3] = stored
            state = .ndef(layout)
        }
        if layout.isStatic || !hasDynamicCommands {
            for (a, bits) in [(112, UInt8(0xFF)), (113, UInt8(0x7F))] {
                let stored = try link.write(a, 0xFF, erase: false)
                guard stored & bits == bits else {
                    throw TagError(
                        .commandRejected, "WRITE-NE byte \(a) stored \(Hex.encode([stored])), lock bits clear")
                }
                memory[a] = stored
            }
        } else {
            try orBlock(14, [112: 0xFF, 113: 0xFF], expect: [112: 0xFF, 113: 0x7F])
        }
        var lockBits: [Int: UInt8] = [:]
        for area in layout.tlv.lockAreas {
            for (i, b) in area.lockedBytes.enumerated() { lockBits[area.address + i, default: 0] |= b }
        }
        guard !lockBits.isEmpty else { return }
        guard hasDynamicCommands else {
            throw TagError(.unsupported, "dynamic lock bytes on a tag without WRITE-NE8")
        }
        for block in Set(lockBits.keys.map { $0 / 8 }).sorted() {
            let bits = lockBits.filter { $0.key / 8 == block }
            try orBlock(block, bits, expect: bits)
        }
    }

    /// WRITE-NE8 of `block` with `bits` (address → bits, others 00), checking that `expect` reads back set.
    private func orBlock(_ block: Int, _ bits: [Int: UInt8], expect: [Int: UInt8]) throws(TagError) {
        let data = (block * 8..<block * 8 + 8).map { bits[$0] ?? 0x00 }
        let stored = try requireLink().writeBlock(block, data, erase: false)
        for (a, e) in expect where stored[a - block * 8] & e != e {
            throw TagError(
                .commandRejected, "WRITE-NE8 block \(block) stored \(stored.hexString): lock bits at byte \(a) clear")
        }
        for (i, b) in stored.enumerated() { memory[block * 8 + i] = b }
    }

    /// Formats a blank tag, or empties an NDEF one:
    ///
    /// - Blank tag (NMN, byte 8, 00): the size comes from HR0 (`11` static 120 bytes, `12` dynamic 512
    ///   bytes; others are refused). Writes the TLVs from byte 12 (dynamic: Lock Control `01 03 F2 30 33` for the
    ///   lock bytes at 122–127 and Memory Control `02 03 F0 02 03` for the reserved bytes 120–121, the Topaz 512
    ///   layout), an empty NDEF TLV and a Terminator, then the CC `00 10 TMS 00` and last the magic number E1h at
    ///   byte 8, so that a tag taken away early stays blank rather than half formatted.
    /// - NDEF tag: sets the NDEF TLV's length to 0 with a Terminator after it; the control TLVs stay.
    package func format() throws(TagError) {
        try loadStaticArea()
        guard let header else { preconditionFailure("RALL sets the header") }
        let cc = Type1CapabilityContainer(bytes: (8..<12).map { memory[$0]! })
        if cc.magic == Type1CapabilityContainer.magicNDEF {
            if let reason = cc.unsupportedReason { throw TagError(.unsupported, reason) }
            if cc.writeAccess != 0 {
                throw TagError(.readOnly, "CC write access is \(Hex.encode([cc.bytes[3]])): the tag is read-only")
            }
            guard case .ndef(var layout) = try detectLayout() else {
                throw TagError(.unsupported, "the CC is NDEF but its TLV area has no NDEF TLV: not reformatted")
            }
            let l = layout.tlv.lengthAddresses(long: false)[0]
            var final: [Int: UInt8] = [l: 0x00]
            let t = layout.tlv.space.next(l)
            if t < layout.tlv.space.dataEnd { final[t] = 0xFE }
            try load(Array(final.keys))
            for a in [l] + (final[t] == nil ? [] : [t]) where memory[a] != final[a] {
                try writeByte(a, final[a]!)
            }
            layout.tlv.messageLength = 0
            layout.tlv.longLength = false
            state = .ndef(layout)
            return
        }
        // Blank: NMN 00 (CC1–CC3 may hold what a format interrupted before its last write left).
        guard cc.magic == 0x00 else {
            throw TagError(.unsupported, "the CC holds \(cc.bytes.hexString): not a blank Type 1 tag")
        }
        let tms: UInt8
        let tlvs: [UInt8]
        switch header.hr0 {
        case 0x11:
            tms = 0x0E
            tlvs = [0x03, 0x00, 0xFE]
        case 0x12 where hasDynamicCommands:
            tms = 0x3F
            tlvs = [0x01, 0x03, 0xF2, 0x30, 0x33, 0x02, 0x03, 0xF0, 0x02, 0x03, 0x03, 0x00, 0xFE]
        default:
            throw TagError(
                .unsupported, "the memory size of a Type 1 tag with HR0 \(Hex.encode([header.hr0])) is unknown")
        }
        var bytes: [Int: UInt8] = [9: 0x10, 10: tms, 11: 0x00]
        for (i, b) in tlvs.enumerated() { bytes[12 + i] = b }
        if tms == 0x0E {
            for a in bytes.keys.sorted(by: { $0 > $1 }) where memory[a] != bytes[a] { try writeByte(a, bytes[a]!) }
        } else {
            for block in Set(bytes.keys.map { $0 / 8 }).sorted(by: >) {
                let data = (block * 8..<block * 8 + 8).map { bytes[$0] ?? memory[$0] ?? 0x00 }
                if (0..<8).allSatisfy({ memory[block * 8 + $0] == data[$0] }) { continue }
                try write(unit: block, size: 8, data)
            }
        }
        try writeByte(8, Type1CapabilityContainer.magicNDEF)
        state = .unknown
    }

    /// One WRITE-E, checked against the echo.
    private func writeByte(_ a: Int, _ value: UInt8) throws(TagError) {
        try write(unit: a, size: 1, [value])
    }
}
