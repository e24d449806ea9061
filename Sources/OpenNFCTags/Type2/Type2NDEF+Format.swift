internal import OpenNFCBytes

extension Type2NDEF {
    /// Formats a blank tag, or empties an NDEF one (T2T §7.4.2 "initialised state"):
    ///
    /// - Blank tag (CC page all zero): WRITE the chip's factory control TLVs (NTAG212/213: Lock Control) followed by
    ///   an empty NDEF TLV and a Terminator (`03 00 FE`), then WRITE the CC `E1 10 size 00` last, so that a tag taken
    ///   away early stays blank rather than half formatted. Needs a chip of known size (an NXP chip without
    ///   GET_VERSION is sized with one probing READ of page 16).
    /// - NDEF tag (CC `E1`): sets the NDEF TLV's length to 0 with a Terminator after it; the control TLVs stay.
    /// - Torn NDEF tag (an NDEF TLV declaring more bytes than the data area holds, as a write interrupted in its
    ///   length field leaves it): the TLV area is rewritten as the factory left it (control TLVs, `03 00 FE`), its
    ///   pages last first so that page 4, where detection starts, changes in the final WRITE (a tear before it
    ///   leaves the tag still torn, and formatting again completes).
    ///
    /// The CC page is one-time programmable: a CC holding anything else cannot be rewritten (``TagError/Code/unsupported``).
    package func format() throws(TagError) {
        let ccBytes = try pageBytes(3)
        let cc = Type2CapabilityContainer(page: ccBytes)
        if cc.magic == Type2CapabilityContainer.magicNDEF {
            if let reason = cc.unsupportedReason { throw TagError(.unsupported, "\(reason); the CC is OTP") }
            if cc.writeAccess != 0 {
                throw TagError(.readOnly, "CC write access is \(Hex.encode([cc.access])): the tag is read-only")
            }
            let detected: NDEFLayoutState<Type2Layout>
            do {
                detected = try detectLayout()
            } catch  where error.code == .tornStateDetected {
                try writeTLVArea(dataEnd: 16 + cc.dataAreaSize, lastPageFirst: true)
                state = .unknown
                return
            }
            if case .ndef(var layout) = detected {
                let l = layout.lengthAddresses(long: false)[0]
                let t = layout.space.next(l)
                try writeEmptyNDEF(lengthAt: l, terminatorAt: t < layout.space.dataEnd ? t : nil)
                layout.messageLength = 0
                layout.longLength = false
                state = .ndef(layout)
                return
            }
            try writeTLVArea(dataEnd: 16 + cc.dataAreaSize)
            state = .unknown
            return
        }
        guard ccBytes == [0, 0, 0, 0] else {
            throw TagError(.unsupported, "the CC page holds \(ccBytes.hexString): it is OTP and cannot be formatted")
        }
        guard let size = try formatDataAreaSize() else {
            throw TagError(.unsupported, "the data area size of a \(chip.name) tag is unknown: cannot format it")
        }
        try writeTLVArea(dataEnd: 16 + size)
        try write(
            page: 3, [Type2CapabilityContainer.magicNDEF, Type2CapabilityContainer.version10, UInt8(size / 8), 0])
        state = .unknown
    }

    /// The data area size to format with: the chip's, or for an NXP chip without GET_VERSION, probed with READ
    /// page 16: MIFARE Ultralight (16 pages, 48-byte data area) refuses it; Ultralight C and NTAG203 (144-byte data
    /// area, CC2 `12`) answer. A NAK mutes the chip, which is then re-activated.
    private func formatDataAreaSize() throws(TagError) -> Int? {
        if let size = chip.dataAreaSize { return size }
        guard chip.family == .ultralight else { return nil }
        do {
            memory.store(try link.read(page: 16), fromPage: 16)
            return 144
        } catch  where error.code == .commandRejected || error.rfError?.code == .timeout {
            try link.reactivate(after: "READ page 16")
            return 48
        }
    }

    /// Sets an NDEF TLV's 1-byte length to 0 (its page first: the tag is empty from that WRITE on), then the
    /// Terminator if it lies in another page.
    private func writeEmptyNDEF(lengthAt l: Int, terminatorAt t: Int?) throws(TagError) {
        var final: [Int: UInt8] = [l: 0x00]
        if let t { final[t] = 0xFE }
        let pages = Set(final.keys.map { $0 / 4 }).sorted { a, b in a == l / 4 || (b != l / 4 && a < b) }
        try load(pages: Set(pages))
        for p in pages {
            let bytes = (p * 4..<p * 4 + 4).map { a in final[a] ?? memory[a]! }
            if memory.page(p) != bytes { try write(page: p, bytes) }
        }
    }

    /// Writes the chip's factory control TLVs, an empty NDEF TLV and a Terminator from byte 16, padded with NULL;
    /// page 4 last with `lastPageFirst`. Pages that already hold the bytes are not written.
    private func writeTLVArea(dataEnd: Int, lastPageFirst: Bool = false) throws(TagError) {
        var area = chip.factoryControlTLVs + [0x03, 0x00, 0xFE]
        while area.count % 4 != 0 { area.append(0x00) }
        guard 16 + area.count <= dataEnd else {
            throw TagError(.unsupported, "a \(dataEnd - 16)-byte data area is too small for the TLVs")
        }
        var offsets = Array(stride(from: 0, to: area.count, by: 4))
        if lastPageFirst { offsets.reverse() }
        for i in offsets {
            let bytes = Array(area[i..<i + 4])
            if lastPageFirst, memory.page(4 + i / 4) == bytes { continue }
            try write(page: 4 + i / 4, bytes)
        }
    }
}
