extension Type4NDEF {
    /// Writes the message in the tear-safe order of T4T 2.0 §5.4.4:
    ///
    /// 1. UPDATE BINARY at offset 0: NLEN = `00 00` followed by the first message bytes, as many as fit in one
    ///    command (MLc). UPDATE BINARY writes in ascending offset order, so NLEN is 0 before any old byte is
    ///    overwritten. Skipped when NLEN is already 0: the data then starts at offset 2.
    /// 2. UPDATE BINARY of the remaining message bytes in chunks of at most MLc.
    /// 3. UPDATE BINARY of NLEN: below 256 bytes only its low byte (offset 1, one byte: no tear can split it),
    ///    else both bytes at offset 0.
    ///
    /// A tag taken away during 1–2 reads as empty. A card that commits an UPDATE BINARY byte by byte can be torn
    /// between the two bytes of NLEN when both change (zeroing an old NLEN ≥ 256 in step 1, or committing a new one
    /// ≥ 256 in step 3): NLEN then names a proper prefix of the old or new message, which is never a well-framed
    /// message (its last record lacks ME or is cut), so reading reports ``TagError/Code/tornStateDetected`` instead
    /// of returning it. The one-command shortcut (NLEN and message together) is never used: a
    /// tear part way would leave the new NLEN over old bytes.
    public func writeMessage(_ message: [UInt8]) throws(TagError) {
        guard !message.isEmpty else { throw TagError(.emptyMessage, "an NDEF message of 0 bytes cannot be written") }
        var layout = try requireLayout()
        guard layout.cc.isWritable else {
            throw TagError(
                .readOnly, "NDEF file write access is \(Self.hex(UInt16(layout.cc.writeAccess))): the tag is read-only")
        }
        guard message.count <= layout.cc.capacity else {
            throw TagError(
                .capacityExceeded, "the message is \(message.count) bytes; the tag holds at most \(layout.cc.capacity)")
        }
        if layout.message == message { return }
        try selectNDEFFile(layout)
        let chunk = writeChunk(layout.cc)
        var image: [UInt8] = layout.messageLength == 0 ? message : [0x00, 0x00] + message
        var offset = layout.messageLength == 0 ? 2 : 0
        layout.message = nil
        state = .unknown  // until NLEN lands, the tag is in an intermediate state
        while !image.isEmpty {
            let n = min(chunk, image.count)
            try update(offset: offset, image.prefix(n))
            image.removeFirst(n)
            offset += n
        }
        if message.count < 0x100 {
            // NLEN's high byte is already 0: the one byte that changes is written alone, which no tear can split.
            try update(offset: 1, [UInt8(message.count)][...])
        } else if chunk >= 2 {
            try update(offset: 0, [UInt8(message.count >> 8), UInt8(message.count & 0xFF)][...])
        } else {
            // MLc 1: one byte per command, high byte first (either order leaves a proper prefix if torn between).
            try update(offset: 0, [UInt8(message.count >> 8)][...])
            try update(offset: 1, [UInt8(message.count & 0xFF)][...])
        }
        layout.messageLength = message.count
        layout.message = message
        state = .ndef(layout)
    }

    func update(offset: Int, _ data: ArraySlice<UInt8>) throws(TagError) {
        _ = try link.expectSuccess(
            Type4Command.updateBinary(offset: offset, data: data), name: "UPDATE BINARY offset \(offset)")
    }
}
