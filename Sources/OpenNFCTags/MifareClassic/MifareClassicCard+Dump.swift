/// A whole card as read with a key dictionary: every block that some key opened, and the keys found per sector.
package struct MifareClassicDump: Sendable, Hashable {
    package var model: MifareClassicCard.Model
    package var uid: [UInt8]
    /// Every block; nil where no key opened it. Trailers carry the keys found (key A never reads back).
    package var blocks: [[UInt8]?]
    /// Key A and key B per sector, nil where no dictionary key authenticated.
    package var keysA: [[UInt8]?]
    package var keysB: [[UInt8]?]

    package init(model: MifareClassicCard.Model, uid: [UInt8], blocks: [[UInt8]?], keysA: [[UInt8]?], keysB: [[UInt8]?])
    {
        self.model = model
        self.uid = uid
        self.blocks = blocks
        self.keysA = keysA
        self.keysB = keysB
    }

    /// Whether every block was read.
    package var isComplete: Bool { blocks.allSatisfy { $0 != nil } }
}

extension MifareClassicCard {
    /// Reads the sector's blocks that `keyA`/`key` may read into `blocks` (skipping those already known).
    private func readSector(_ s: Int, keyA: Bool, key: [UInt8], into blocks: inout [[UInt8]?]) throws(TagError) {
        let first = Self.firstBlock(ofSector: s)
        for b in first..<first + Self.blockCount(inSector: s) where blocks[b] == nil {
            if authenticated == nil { try authenticate(sector: s, keyA: keyA, key: key) }
            do {
                blocks[b] = try readBlock(b)
            } catch {
                guard error.code == .commandRejected else { throw error }
                try reactivate()
            }
        }
    }

    /// Reads the whole card: for each sector the first dictionary key A that authenticates, then key B (taken from
    /// the trailer when readable, else from the dictionary), each block with whichever key may read it. Trailers
    /// get the keys found written into bytes 0–5 and 10–15.
    package func dump(keys: MifareClassicKeyDictionary) throws(TagError) -> MifareClassicDump {
        var blocks = [[UInt8]?](repeating: nil, count: model.blockCount)
        var keysA = [[UInt8]?](repeating: nil, count: model.sectorCount)
        var keysB = [[UInt8]?](repeating: nil, count: model.sectorCount)
        for s in 0..<model.sectorCount {
            let trailer = Self.trailerBlock(ofSector: s)
            if let k = try findKey(sector: s, keyA: true, in: keys) {
                keysA[s] = k
                try readSector(s, keyA: true, key: k, into: &blocks)
                if let t = blocks[trailer], let access = try? MifareClassicAccessBits(bytes: Array(t[6..<9])),
                    access.trailer.keyBRead.grants(keyA: true)
                {
                    keysB[s] = Array(t[10..<16])
                }
            }
            if keysB[s] == nil {
                if authenticated != nil { try reactivate() }
                if let k = try findKey(sector: s, keyA: false, in: keys) {
                    keysB[s] = k
                    try readSector(s, keyA: false, key: k, into: &blocks)
                }
            }
            if authenticated != nil { try reactivate() }
            if var t = blocks[trailer] {
                if let a = keysA[s] { t.replaceSubrange(0..<6, with: a) }
                if let b = keysB[s] { t.replaceSubrange(10..<16, with: b) }
                blocks[trailer] = t
            }
        }
        return MifareClassicDump(model: model, uid: target.identifier, blocks: blocks, keysA: keysA, keysB: keysB)
    }

    /// Writes a dump back: per sector, the data blocks (block 0 only with `includeBlock0`, for gen2/CUID cards),
    /// then the trailer last, each with the first key (the dump's, then the dictionary's; key B before key A) that
    /// lets it write. Returns the blocks written.
    ///
    /// A trailer whose key A or key B the dump does not know (nil in `keysA`/`keysB`) is written with the card's own
    /// key there, found before the first write of the whole restore (the dictionary, or key B read through key A where
    /// the access bits allow it); when the card's key cannot be found either, nothing is written and the error names
    /// the sector and its trailer block.
    @discardableResult
    package func restore(
        _ dump: MifareClassicDump, keys: MifareClassicKeyDictionary, includeBlock0: Bool = false
    ) throws(TagError) -> [Int] {
        guard dump.model == model else {
            throw TagError(
                .invalidResponse, "the dump is of a MIFARE Classic \(dump.model.rawValue), the card a \(model.rawValue)"
            )
        }
        var blocks = dump.blocks
        var found: [[UInt8]] = []
        for s in 0..<model.sectorCount where dump.keysA[s] == nil || dump.keysB[s] == nil {
            let t = Self.trailerBlock(ofSector: s)
            guard var trailer = blocks[t] else { continue }
            let (a, b) = try cardKeys(sector: s, dump: dump, keys: keys)
            for (key, isB, range) in [(a, false, 0..<6), (b, true, 10..<16)] {
                let dumpKey = isB ? dump.keysB[s] : dump.keysA[s]
                guard dumpKey == nil else { continue }
                guard let key else {
                    throw TagError(
                        .commandRejected,
                        "sector \(s) (trailer block \(t)): the dump does not know key \(isB ? "B" : "A") and no key tried "
                            + "opens the card's, so it cannot be kept; nothing was written (give it with --keys FILE)")
                }
                trailer.replaceSubrange(range, with: key)
                found.append(key)
            }
            blocks[t] = trailer
        }
        if authenticated != nil { try reactivate() }
        let tryKeys = MifareClassicKeyDictionary(keys: found).followed(by: keys)
        var written: [Int] = []
        for s in 0..<model.sectorCount {
            let first = Self.firstBlock(ofSector: s)
            let wanted = (first..<first + Self.blockCount(inSector: s)).filter {
                blocks[$0] != nil && ($0 != 0 || includeBlock0)
            }
            if wanted.isEmpty { continue }
            var candidates: [(Bool, [UInt8])] = []
            if let b = dump.keysB[s] { candidates.append((false, b)) }
            if let a = dump.keysA[s] { candidates.append((true, a)) }
            for k in tryKeys.keys {
                candidates.append((false, k))
                candidates.append((true, k))
            }
            var done = Set<Int>()
            for (isA, key) in candidates where done.count < wanted.count {
                if authenticated != nil { try reactivate() }
                do {
                    try authenticate(sector: s, keyA: isA, key: key)
                } catch {
                    if error.code == .commandRejected { continue }
                    throw error
                }
                for b in wanted where !done.contains(b) {
                    // The trailer last: once it is written the keys may be others.
                    if Self.isTrailer(b) && done.count < wanted.count - 1 { continue }
                    if authenticated == nil { try authenticate(sector: s, keyA: isA, key: key) }
                    do {
                        try writeBlock(b, blocks[b]!)
                        done.insert(b)
                        written.append(b)
                    } catch {
                        guard error.code == .commandRejected else { throw error }
                        try reactivate()
                    }
                }
            }
            if done.count < wanted.count {
                let missing = wanted.filter { !done.contains($0) }.map(String.init).joined(separator: ", ")
                throw TagError(.commandRejected, "sector \(s): no known key may write block(s) \(missing)")
            }
        }
        if authenticated != nil { try reactivate() }
        return written
    }

    /// The card's own key A and key B of `sector` where the dump lacks them: each found with the dictionary (the
    /// dump's known keys first), key B also read from the trailer through key A when the access bits let key A read
    /// it (MF1S50yyX §8.7.2). Nil where neither works.
    private func cardKeys(sector s: Int, dump: MifareClassicDump, keys: MifareClassicKeyDictionary) throws(TagError)
        -> (a: [UInt8]?, b: [UInt8]?)
    {
        let tried = MifareClassicKeyDictionary(keys: [dump.keysA[s], dump.keysB[s]].compactMap { $0 }).followed(
            by: keys)
        if authenticated != nil { try reactivate() }
        let a = try findKey(sector: s, keyA: true, in: tried)
        var b: [UInt8]?
        if dump.keysB[s] == nil, a != nil {
            do {
                let t = try readBlock(Self.trailerBlock(ofSector: s))
                if let access = try? MifareClassicAccessBits(bytes: Array(t[6..<9])),
                    access.trailer.keyBRead.grants(keyA: true)
                {
                    b = Array(t[10..<16])
                }
            } catch {
                guard error.code == .commandRejected else { throw error }
                try reactivate()
            }
        }
        if dump.keysB[s] == nil, b == nil {
            if authenticated != nil { try reactivate() }
            b = try findKey(sector: s, keyA: false, in: tried)
        }
        return (a, b)
    }
}
