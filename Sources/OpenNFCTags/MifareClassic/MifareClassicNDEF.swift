package import OpenNFCRF

/// NDEF on MIFARE Classic as a reader reads NXP AN1304/AN1305 ("NFC Type MIFARE Classic Tag Operation"): the MAD
/// (read with key A `A0A1A2A3A4A5`) names the NDEF sectors (AID `03 E1`); each is read with the NFC Forum key A
/// `D3F7D3F7D3F7`; their data blocks, trailers skipped, form one TLV stream holding the NDEF TLV (`03`).
///
/// | Operation | What it does | Frames (1K, message in one block) |
/// |---|---|---|
/// | ``detect()`` | MAD, then every NDEF sector's data blocks and trailer (GPB `40` read/write, `43` read-only) | see docs/PROCEDURES.md |
/// | ``writeMessage(_:)`` | tear-safe: the first block with an empty NDEF TLV, the rest of the message, then the first block with the real length; one block write when the TLV fits in one block | |
/// | ``makeReadOnly()`` | every NDEF sector's trailer to `07 8F 0F` GPB `43`, then the MAD sector(s) to `07 8F 0F` (GPB kept), each with its key B (the dictionary's keys tried, `FFFFFFFFFFFF` first); every key B is found before the first write | |
/// | ``format()`` | a blank card (transport key `FFFFFFFFFFFF`): MAD1 (and MAD2 on the 4K), NDEF trailers `D3F7D3F7D3F7 7F0788 40 FFFFFFFFFFFF`, an empty NDEF TLV | |
///
/// Needs a frontend that performs Crypto1 (``RFCapabilities/mifareClassicAuthentication``); without one, detection
/// says not supported.
package final class MifareClassicNDEF: NDEFTagProcedure {
    /// The NFC Forum sector key A (AN1305 §6.1).
    package static let keyA: [UInt8] = [0xD3, 0xF7, 0xD3, 0xF7, 0xD3, 0xF7]

    package let card: MifareClassicCard
    /// Keys tried as key B for ``makeReadOnly()`` and key A/B for ``format()``.
    package var keys: MifareClassicKeyDictionary = .wellKnown

    private struct Layout {
        var sectors: [Int]
        /// Every data block of the NDEF sectors, in order.
        var blocks: [Int]
        /// The TLV stream read so far (a prefix of the whole area).
        var stream: [UInt8]
        var readOnly: Bool
        var area: Int { blocks.count * 16 }
    }

    private var layout: Layout?

    package init(target: RFTarget, frontend: any RFFrontend) {
        card = MifareClassicCard(target: target, frontend: frontend)
    }

    /// The data blocks of the NDEF sectors, in order.
    private func dataBlocks(_ sectors: [Int]) -> [Int] {
        sectors.flatMap { s in
            (MifareClassicCard.firstBlock(ofSector: s)..<MifareClassicCard.trailerBlock(ofSector: s)).map { $0 }
        }
    }

    /// Reads the MAD, then the NDEF sectors in order (each trailer first, for its GPB and access bits), block by
    /// block until the NDEF TLV (or a Terminator TLV) is complete: a short message costs one sector.
    private func load() throws(TagError) -> Layout {
        if let layout { return layout }
        guard card.frontend.capabilities.mifareClassicAuthentication else {
            throw TagError(.unsupported, "this reader cannot authenticate MIFARE Classic (Crypto1)")
        }
        let mad: MifareApplicationDirectory
        do {
            mad = try card.readMAD()
        } catch {
            if error.code == .commandRejected || error.code == .invalidResponse {
                throw TagError(.notFormatted, "no MAD readable with the MAD key: \(error.reason)")
            }
            throw error
        }
        let sectors = mad.sectors(for: MifareApplicationDirectory.ndefAID)
        guard !sectors.isEmpty else { throw TagError(.notFormatted, "the MAD names no NDEF sector (AID 03 E1)") }
        var l = Layout(sectors: sectors, blocks: dataBlocks(sectors), stream: [], readOnly: false)
        sectorLoop: for s in sectors {
            do {
                try card.authenticate(sector: s, keyA: true, key: Self.keyA)
            } catch {
                if error.code == .commandRejected {
                    throw TagError(.notFormatted, "NDEF sector \(s) does not open with the NFC Forum key A")
                }
                throw error
            }
            let trailer = try card.readBlock(MifareClassicCard.trailerBlock(ofSector: s))
            // AN1305 §6.1.2: GPB bits 1–0 = write access (00 granted, 11 none), bits 3–2 read access, 7–4 version.
            if trailer[9] & 0x03 == 0x03 { l.readOnly = true }
            if let access = try? MifareClassicAccessBits(bytes: Array(trailer[6..<9])),
                !access.data(0).write.grants(keyA: true)
            {
                l.readOnly = true
            }
            for b in MifareClassicCard.firstBlock(ofSector: s)..<MifareClassicCard.trailerBlock(ofSector: s) {
                l.stream += try card.readBlock(b)
                if try Self.scan(l.stream, area: l.area) != .needMore { break sectorLoop }
            }
        }
        layout = l
        return l
    }

    private enum Scan: Equatable {
        case needMore
        /// The NDEF TLV's value starts at `start` and has `length` bytes, all read.
        case ndef(start: Int, length: Int)
        /// A Terminator TLV, or the area's end, before any NDEF TLV.
        case none
    }

    /// Walks the TLVs read so far. Throws `tornStateDetected` for a length past the area's end.
    private static func scan(_ s: [UInt8], area: Int) throws(TagError) -> Scan {
        var i = 0
        while true {
            guard i < s.count else { return s.count >= area ? .none : .needMore }
            let t: UInt8
            let length: Int
            let start: Int
            switch try TLVHeader.read(at: i, end: s.count, byte: { s[$0] }) {
            case .null:
                i += 1
                continue
            case .terminator: return .none
            case .cut: return .needMore
            case .tlv(let type, let n, _, let last): (t, length, start) = (type, n, last + 1)
            }
            guard start + length <= area else {
                throw TagError(
                    .tornStateDetected,
                    "the TLV at byte \(i) of the NDEF sectors claims \(length) bytes, only \(area - start) follow")
            }
            guard start + length <= s.count else { return .needMore }
            if t == 0x03 { return .ndef(start: start, length: length) }
            i = start + length
        }
    }

    private static func capacity(_ area: Int) -> Int { area - 2 < 0xFF ? area - 2 : area - 4 }

    package func detect() throws(TagError) -> NDEFDetection {
        let l: Layout
        do {
            l = try load()
        } catch {
            if error.code == .notFormatted || error.code == .unsupported { return .notSupported(error.reason) }
            throw error
        }
        guard case .ndef(_, let length) = try Self.scan(l.stream, area: l.area) else {
            return .notSupported("no NDEF TLV in the NDEF sectors")
        }
        return NDEFDetection(
            status: l.readOnly ? .readOnly : .readWrite, capacity: Self.capacity(l.area), messageLength: length)
    }

    package func readMessage() throws(TagError) -> [UInt8] {
        let l = try load()
        guard case .ndef(let start, let length) = try Self.scan(l.stream, area: l.area) else {
            throw TagError(.notFormatted, "no NDEF TLV in the NDEF sectors")
        }
        let m = Array(l.stream[start..<start + length])
        return m.isEmpty ? [] : try NDEFFraming.checked(m)
    }

    private func writeBlocks(_ writes: [(block: Int, data: [UInt8])]) throws(TagError) {
        // The sector detection left authenticated with key A needs no new authentication.
        var sector = card.authenticated.flatMap { $0.keyA ? $0.sector : nil }
        for w in writes {
            let s = MifareClassicCard.sector(ofBlock: w.block)
            if sector != s || card.authenticated == nil {
                try card.authenticate(sector: s, keyA: true, key: Self.keyA)
                sector = s
            }
            try card.writeBlock(w.block, w.data)
        }
    }

    package func writeMessage(_ message: [UInt8]) throws(TagError) {
        let l = try load()
        try NDEFWriteRule.check(
            message, writable: !l.readOnly, capacity: Self.capacity(l.area),
            readOnlyReason: "the NDEF sectors are read-only (GPB or access bits)")
        let header: [UInt8] =
            message.count < 0xFF
            ? [0x03, UInt8(message.count)] : [0x03, 0xFF, UInt8(message.count >> 8), UInt8(message.count & 0xFF)]
        var tlv = header + message
        if tlv.count < l.area { tlv.append(0xFE) }
        let padded = tlv + [UInt8](repeating: 0, count: (16 - tlv.count % 16) % 16)
        let blocks = (0..<padded.count / 16).map { (block: l.blocks[$0], data: Array(padded[16 * $0..<16 * $0 + 16])) }
        if blocks.count == 1 {
            try writeBlocks(blocks)
        } else {
            // Tear-safe order: an empty NDEF TLV first, the tail, then the head with the real length.
            let empty = [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 13)
            try writeBlocks([(blocks[0].block, empty)] + blocks.dropFirst() + [blocks[0]])
        }
        layout?.stream = padded
    }

    /// Read-only for good (AN1305 §6.5, from READ/WRITE to READ-ONLY): the NDEF sectors' trailers get access bits
    /// `07 8F 0F` (data blocks read with key A or B and never written, the trailer frozen: MF1S50yyX §8.7 condition
    /// 010 for the data, 110 for the trailer) and GPB `43` (write access bits 11: none); then the MAD sector(s) (0,
    /// and 16 on a 4K) get the same access bits with their GPB kept, so the directory that names the NDEF sectors
    /// cannot be pointed elsewhere either. The trailers are written with key B, so every sector's key B is found
    /// first (``keys``): when one is missing, nothing is written and the error names the sector and its trailer.
    package func makeReadOnly() throws(TagError) {
        let l = try load()
        let madSectors = card.model == .classic4K ? [0, 16] : [0]
        var plan: [(sector: Int, keyB: [UInt8])] = []
        for s in l.sectors + madSectors {
            // The key B of the sector before is the likeliest: cards are keyed alike.
            let tried = plan.last.map { MifareClassicKeyDictionary(keys: [$0.keyB]).followed(by: keys) } ?? keys
            guard let key = try card.findKey(sector: s, keyA: false, in: tried) else {
                let what = madSectors.contains(s) ? "the MAD sector \(s)" : "NDEF sector \(s)"
                throw TagError(
                    .cannotMakeReadOnly,
                    "no known key B opens \(what) (its trailer, block \(MifareClassicCard.trailerBlock(ofSector: s)), "
                        + "is written with key B); nothing was locked: give its key B with --keys FILE")
            }
            plan.append((s, key))
        }
        let madGPB: UInt8 = card.model == .classic4K ? 0xC2 : 0xC1
        for (s, key) in plan {
            try card.authenticate(sector: s, keyA: false, key: key)
            if madSectors.contains(s) {
                try card.writeTrailer(
                    sector: s, keyA: MifareApplicationDirectory.keyA, access: .ndefReadOnly, gpb: madGPB, keyB: key)
            } else {
                try card.writeTrailer(sector: s, keyA: Self.keyA, access: .ndefReadOnly, gpb: 0x43, keyB: key)
            }
        }
        layout?.readOnly = true
    }

    package func format() throws(TagError) {
        let model = card.model
        let transport: [UInt8] = [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]
        if (try? load()) != nil, let l = layout, !l.readOnly {
            // Already NFC formatted: empty the message.
            try writeBlocks([(l.blocks[0], [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 13))])
            layout = nil
            return
        }
        layout = nil
        try card.reactivate()
        let mad = MifareApplicationDirectory.allSectors(MifareApplicationDirectory.ndefAID, model: model)
        try card.writeMAD(mad, currentKey: transport, currentKeyIsA: true, keyB: transport)
        let sectors = mad.sectors(for: MifareApplicationDirectory.ndefAID)
        for (i, s) in sectors.enumerated() {
            try card.authenticate(sector: s, keyA: true, key: transport)
            for b in MifareClassicCard.firstBlock(ofSector: s)..<MifareClassicCard.trailerBlock(ofSector: s) {
                try card.writeBlock(
                    b,
                    i == 0 && b == MifareClassicCard.firstBlock(ofSector: s)
                        ? [0x03, 0x00, 0xFE] + [UInt8](repeating: 0, count: 13) : [UInt8](repeating: 0, count: 16))
            }
            try card.writeTrailer(sector: s, keyA: Self.keyA, access: .ndefReadWrite, gpb: 0x40, keyB: transport)
        }
    }
}
