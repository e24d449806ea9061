extension Type4NDEF {
    /// Size of the NDEF file created on a DESFire of each storage size (as Android formats them).
    static func desfireNDEFFileSize(storage: Int) -> Int {
        switch storage {
        case ..<4096: return 2048
        case 4096..<8192: return 4096
        default: return 7680
        }
    }

    /// Creates the NFC Forum NDEF application on a blank DESFire EV1/EV2/EV3, the way Android formats one
    /// (NXP AN11004), with ISO-wrapped native commands:
    ///
    /// 1. SelectApplication `000000` (PICC level).
    /// 2. CreateApplication `000001`: key settings `0F`, 1 key with ISO file IDs (`21`), ISO DF `E105`, DF name
    ///    `D2760000850101`.
    /// 3. SelectApplication `000001`.
    /// 4. CreateStdDataFile 1 (ISO `E103`, plain, free access `EEEE`, 15 bytes): the CC file.
    /// 5. CreateStdDataFile 2 (ISO `E104`, plain, free access, 2048 / 4096 / 7680 bytes): the NDEF file.
    /// 6. WriteData file 2: NLEN = 0.
    /// 7. WriteData file 1: the CC (mapping 2.0, MLe `003B`, MLc `0034`, file `E104`, access `00 00`), last: before
    ///    it the CC reads as zeros, so an interrupted format leaves a card that detects as not NDEF.
    ///
    /// A create answered `DE` (duplicate) counts as done, so formatting again after an interruption completes.
    /// A card whose PICC master key settings forbid free application creation answers `AE`: the error says so.
    func formatDESFire(_ version: DESFireVersion) throws(TagError) {
        let size = Self.desfireNDEFFileSize(storage: version.storageSize)
        let le3 = { (v: Int) -> [UInt8] in [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF)] }
        try native(0x5A, [0x00, 0x00, 0x00], name: "SelectApplication PICC")
        try native(
            0xCA, [0x01, 0x00, 0x00, 0x0F, 0x21, 0x05, 0xE1] + Type4Command.applicationV2,
            name: "CreateApplication 000001", duplicateIsDone: true)
        try native(0x5A, [0x01, 0x00, 0x00], name: "SelectApplication 000001")
        try native(
            0xCD, [0x01, 0x03, 0xE1, 0x00, 0xEE, 0xEE] + le3(15), name: "CreateStdDataFile CC", duplicateIsDone: true)
        try native(
            0xCD, [0x02, 0x04, 0xE1, 0x00, 0xEE, 0xEE] + le3(size), name: "CreateStdDataFile NDEF",
            duplicateIsDone: true)
        try native(0x3D, [0x02] + le3(0) + le3(2) + [0x00, 0x00], name: "WriteData NLEN")
        let cc: [UInt8] = [
            0x00, 0x0F, 0x20, 0x00, 0x3B, 0x00, 0x34, 0x04, 0x06, 0xE1, 0x04, UInt8(size >> 8), UInt8(size & 0xFF),
            0x00, 0x00,
        ]
        try native(0x3D, [0x01] + le3(0) + le3(15) + cc, name: "WriteData CC")
    }

    /// One DESFire native command wrapped in ISO 7816 (`90 CMD 00 00 Lc data 00` → `data 91 status`;
    /// NXP AN12752, ISO/IEC 7816-4 wrapping), requiring status `00` (or `DE` when `duplicateIsDone`).
    private func native(_ command: UInt8, _ data: [UInt8], name: String, duplicateIsDone: Bool = false)
        throws(TagError)
    {
        let r = try link.send([0x90, command, 0x00, 0x00, UInt8(data.count)] + data + [0x00], name: name)
        guard r.sw >> 8 == 0x91 else {
            throw TagError(.invalidResponse, "\(name) answered SW \(Self.hex(r.sw)), not a DESFire status")
        }
        switch UInt8(r.sw & 0xFF) {
        case 0x00: return
        case 0xDE where duplicateIsDone: return
        case 0xAE:
            throw TagError(
                .commandRejected, "\(name) needs authentication: the PICC master key settings forbid free creation",
                statusWord: r.sw)
        case 0x0E:
            throw TagError(.commandRejected, "\(name): the card's memory is full", statusWord: r.sw)
        default:
            throw TagError(.commandRejected, "\(name) refused", statusWord: r.sw)
        }
    }
}
