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
    ///
    /// A mapping 3.0 ENDEF file does the same with its 4-byte ENLEN: zeroed with the first data, and written last
    /// from its first non-zero byte on (one byte below 256; a tear inside leaves its high bytes over zeros, a length
    /// below the new one, so again a proper prefix). Commands starting past offset `7FFF` are odd-INS `D7`.
    package func writeMessage(_ message: [UInt8]) throws(TagError) {
        var layout = try requireLayout()
        try NDEFWriteRule.check(
            message, writable: layout.cc.isWritable, capacity: layout.cc.capacity,
            readOnlyReason: "NDEF file write access is \(Self.hex(UInt16(layout.cc.writeAccess))): the tag is read-only"
        )
        if layout.message == message { return }
        try selectNDEFFile(layout)
        let cc = layout.cc
        let lengthSize = cc.lengthFieldSize
        let chunk = writeChunk(cc)
        let oddChunk = writeChunkODO(cc)
        var image: [UInt8] = layout.messageLength == 0 ? message : Array(repeating: 0, count: lengthSize) + message
        var offset = layout.messageLength == 0 ? lengthSize : 0
        var done = 0
        layout.message = nil
        state = .unknown  // until NLEN lands, the tag is in an intermediate state
        while done < image.count {
            if offset <= Type4Command.lastEvenOffset || !cc.isExtended {
                let n = min(chunk, image.count - done)
                try update(offset: offset, image[done..<done + n])
                done += n
                offset += n
            } else {
                let n = min(oddChunk, image.count - done)
                try updateODO(offset: offset, image[done..<done + n])
                done += n
                offset += n
            }
        }
        image = []
        // The length last, from its first non-zero byte (the bytes before it are already 0): below 256 that is one
        // byte, which no tear can split.
        let length = (0..<lengthSize).reversed().map { UInt8(truncatingIfNeeded: message.count >> ($0 * 8)) }
        let first = length.firstIndex { $0 != 0 } ?? lengthSize - 1
        if chunk >= lengthSize - first {
            try update(offset: first, length[first...])
        } else {
            // MLc 1: one byte per command, high byte first (a tear between leaves a proper prefix).
            for i in first..<lengthSize { try update(offset: i, length[i...i]) }
        }
        layout.messageLength = message.count
        layout.message = message
        state = .ndef(layout)
    }

    func update(offset: Int, _ data: ArraySlice<UInt8>) throws(TagError) {
        _ = try link.expectSuccess(
            Type4Command.updateBinary(offset: offset, data: data), name: "UPDATE BINARY offset \(offset)")
    }

    func updateODO(offset: Int, _ data: ArraySlice<UInt8>) throws(TagError) {
        _ = try link.expectSuccess(
            Type4Command.updateBinaryODO(offset: offset, data: data), name: "UPDATE BINARY (odd INS) offset \(offset)")
    }
}
