internal import OpenNFCBytes

/// The whole memory of a Type 1 tag, for `opennfc dump` and `opennfc restore`.
package struct Type1MemoryImage: Sendable, Hashable {
    package var hr0: UInt8
    package var hr1: UInt8
    /// Every byte, block 0 included (120 bytes static, else the size HR0 or the CC names).
    package var bytes: [UInt8]
}

extension Type1NDEF {
    /// The memory size a dump reads: 120 bytes for HR0 `11`, 512 for `12` (Topaz 96, Topaz 512), else what an NDEF
    /// CC declares.
    func memorySize() throws(TagError) -> Int {
        try loadStaticArea()
        switch header?.hr0 {
        case 0x11?: return 120
        case 0x12?: return 512
        default:
            let cc = Type1CapabilityContainer(bytes: (8..<12).map { memory[$0]! })
            guard cc.magic == Type1CapabilityContainer.magicNDEF, cc.memorySize <= 2048 else {
                throw TagError(
                    .unsupported,
                    "the memory size of a Type 1 tag with HR0 \(Hex.encode([header?.hr0 ?? 0])) and no NDEF CC is unknown"
                )
            }
            return cc.memorySize
        }
    }

    /// Reads every byte: RALL, then (dynamic tags) READ8 of block F and RSEG of every further segment.
    package func readImage() throws(TagError) -> Type1MemoryImage {
        let size = try memorySize()
        try load(Array(0..<size))
        guard let header else { preconditionFailure("RALL sets the header") }
        return Type1MemoryImage(hr0: header.hr0, hr1: header.hr1, bytes: (0..<size).map { memory[$0]! })
    }

    /// Writes the data blocks of `wanted` (blocks 1–C, and 10h on for dynamic tags) that differ from the tag, leaving
    /// block 0 (ROM), D (reserved), E (static locks, OTP) and F (dynamic locks, reserved) alone. When anything
    /// changes, the NDEF magic number (byte 8) is cleared first and written last, so a tag pulled away part way
    /// reads as not NDEF formatted rather than as a mixture. Returns the number of write commands sent.
    package func restore(_ wanted: [UInt8]) throws(TagError) -> Int {
        let image = try readImage()
        guard wanted.count == image.bytes.count else {
            throw TagError(
                .unsupported, "the image has \(wanted.count) bytes, the tag \(image.bytes.count): not the same chip")
        }
        let blocks = (1..<13) + (wanted.count > 128 ? Array(16..<wanted.count / 8) : [])
        let changed = blocks.filter { b in (b * 8..<b * 8 + 8).contains { memory[$0] != wanted[$0] } }
        guard !changed.isEmpty else { return 0 }
        var writes = 0
        let unit = hasDynamicCommands ? 8 : 1
        let ndef = wanted[8]
        if memory[8] != 0x00 {
            try write(unit: 8 / unit, size: unit, unit == 1 ? [0x00] : [0x00] + (9..<16).map { memory[$0]! })
            writes += 1
        }
        var target = wanted
        target[8] = 0x00
        // Block 1 (the CC) last, before the magic number.
        for b in changed.filter({ $0 != 1 }) + (changed.contains(1) ? [1] : []) {
            if unit == 8 {
                if (0..<8).contains(where: { memory[b * 8 + $0] != target[b * 8 + $0] }) {
                    try write(unit: b, size: 8, Array(target[b * 8..<b * 8 + 8]))
                    writes += 1
                }
            } else {
                for a in b * 8..<b * 8 + 8 where memory[a] != target[a] {
                    try write(unit: a, size: 1, [target[a]])
                    writes += 1
                }
            }
        }
        if ndef != 0x00 {
            try write(unit: 8, size: 1, [ndef])
            writes += 1
        }
        state = .unknown
        return writes
    }
}
