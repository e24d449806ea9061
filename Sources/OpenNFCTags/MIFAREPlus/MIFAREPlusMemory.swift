internal import OpenNFCBytes
package import OpenNFCCrypto
package import OpenNFCRF

/// What a reader learnt of a MIFARE Plus: its level, signature, the AES keys it found and the blocks those keys
/// read (nil: unread).
package struct MIFAREPlusImage: Sendable, Hashable {
    package var version: MIFAREPlusVersion
    /// 0 or 3 (a card in SL1 is a MIFARE Classic to identification).
    package var securityLevel: UInt8
    /// Read_Sig's 56 bytes, when the card answered.
    package var signature: [UInt8]?
    /// Sector keys found, by address (`4000 + 2·s` key A, `4001 + 2·s` key B).
    package var keys: [UInt16: [UInt8]]
    /// Every block (128 or 256), nil where no key found read it.
    package var blocks: [[UInt8]?]

    package var blockCount: Int { version.is4K ? 256 : 128 }

    package init(
        version: MIFAREPlusVersion, securityLevel: UInt8, signature: [UInt8]?, keys: [UInt16: [UInt8]],
        blocks: [[UInt8]?]
    ) {
        self.version = version
        self.securityLevel = securityLevel
        self.signature = signature
        self.keys = keys
        self.blocks = blocks
    }
}

/// The memory reader of `opennfc dump` and `restore` for MIFARE Plus in SL0/SL3 (MIFARE Plus EV1 datasheet; the
/// sector layout of MIFARE Classic 4K, MF1S70yyX §8.6). Keys come from a dictionary — the caller's, then the
/// public defaults (`FF`×16, `00`×16, the MAD key `A0A1…A7` ×2, the NDEF key `D3F7`×8; AN10787 and AN1305 analogues)
/// — each tried for every sector key, as MIFARE Classic key files work.
///
/// | Step | Frames |
/// |---|---|
/// | level probe: WritePerso to `9090` (`09` SL0, `0B` SL3) | 1 |
/// | Read_Sig | 1 |
/// | per sector: each key B candidate, then each key A candidate (AuthenticateFirst/NonFirst + Continue) | 2 per try |
/// | per sector: Read `33` (MACed, plain data), up to 4 blocks a frame; `31` (encrypted) where plain is refused; key B where key A is refused | 1 per 4 blocks, more on refusals |
///
/// A 2K whose keys are the first candidates: 1 + 1 + 32 × (2 + 2 + 1) = 162 frames (docs/PROCEDURES.md).
package struct MIFAREPlusMemory {
    package let link: MIFAREPlusLink
    package let version: MIFAREPlusVersion
    package var random: any RandomSource = SystemRandomSource()

    /// The public default keys tried after the caller's.
    package static let defaultKeys: [[UInt8]] = [
        [UInt8](repeating: 0xFF, count: 16), [UInt8](repeating: 0x00, count: 16),
        [0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7, 0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7],
        [UInt8]([0xD3, 0xF7]) + [0xD3, 0xF7] + [0xD3, 0xF7] + [0xD3, 0xF7] + [0xD3, 0xF7] + [0xD3, 0xF7] + [0xD3, 0xF7]
            + [0xD3, 0xF7],
    ]

    package init(
        target: RFTarget, frontend: any RFFrontend, version: MIFAREPlusVersion,
        framing: MIFAREPlusLink.Framing = .wrapped
    ) {
        self.link = MIFAREPlusLink(frontend: frontend, framing: framing)
        self.version = version
    }

    /// A key dictionary file: one AES key (32 hex digits) a line; blank lines and `#` comments ignored. Errors name
    /// the line.
    package static func parseKeys(_ text: String, file: String) throws(TagError) -> [[UInt8]] {
        var keys: [[UInt8]] = []
        for (i, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line =
                raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first
                .map { $0.trimmingCharacters(in: " \t\r") } ?? ""
            if line.isEmpty { continue }
            guard line.count == 32, let key = try? Hex.decode(line), key.count == 16 else {
                throw TagError(
                    .invalidResponse, "\(file), line \(i + 1): '\(line)' is not an AES key (32 hex digits)")
            }
            if !keys.contains(key) { keys.append(key) }
        }
        return keys
    }

    /// The level: WritePerso to an address no chip has answers `09` in SL0 and `0B` in SL3.
    package func securityLevel() throws(TagError) -> UInt8 {
        let (status, _) = try link.send(MIFAREPlusLink.levelProbe, name: "MIFARE Plus level probe (WritePerso 9090)")
        switch status {
        case MIFAREPlusLink.Status.invalidBlock: return 0
        case MIFAREPlusLink.Status.notAllowed: return 3
        default:
            throw TagError(
                .invalidResponse,
                "the level probe answered \(Hex.encode([status])) (\(MIFAREPlusLink.Status.meaning(status))), "
                    + "neither SL0 (09) nor SL3 (0B)")
        }
    }

    /// Reads everything the keys open.
    package func read(keys candidates: [[UInt8]]) throws(TagError) -> MIFAREPlusImage {
        let level = try securityLevel()
        let (s, sig) = try link.send(MIFAREPlusLink.readSignature, name: "MIFARE Plus Read_Sig")
        var image = MIFAREPlusImage(
            version: version, securityLevel: level,
            signature: s == MIFAREPlusLink.Status.ok && sig.count == 56 ? sig : nil,
            keys: [:], blocks: [[UInt8]?](repeating: nil, count: version.is4K ? 256 : 128))
        guard level == 3 else { return image }
        var tried = candidates
        for k in Self.defaultKeys where !tried.contains(k) { tried.append(k) }
        var session = MIFAREPlusSession(link: link, random: random)
        for sector in 0..<version.sectorCount {
            let keyA = UInt16(0x4000 + 2 * sector)
            for address in [keyA + 1, keyA] {
                for key in tried {
                    do {
                        try session.authenticate(address, key: key)
                        image.keys[address] = key
                        break
                    } catch  where error.code == .commandRejected {
                        continue
                    }
                }
            }
            try readSector(sector, &image, &session)
        }
        return image
    }

    static func firstBlock(_ sector: Int) -> Int { sector < 32 ? sector * 4 : 128 + (sector - 32) * 16 }
    static func blocks(_ sector: Int) -> Int { sector < 32 ? 4 : 16 }

    /// Reads a sector's blocks with key A (the session after the last successful authentication), else key B;
    /// MACed plain reads, encrypted where the sector wants it.
    private func readSector(_ sector: Int, _ image: inout MIFAREPlusImage, _ session: inout MIFAREPlusSession)
        throws(TagError)
    {
        let keyA = UInt16(0x4000 + 2 * sector)
        let usable = [keyA, keyA + 1].filter { image.keys[$0] != nil }
        guard !usable.isEmpty else { return }
        var pending = Array(Self.firstBlock(sector)..<Self.firstBlock(sector) + Self.blocks(sector))
        for address in usable where !pending.isEmpty {
            if session.keys?.keyAddress != address {
                try session.authenticate(address, key: image.keys[address]!)
            }
            var left: [Int] = []
            var i = 0
            while i < pending.count {
                let run = Array(pending[i..<min(i + 4, pending.count)])
                i += run.count
                if let data = try readRun(run, &session) {
                    for (j, b) in run.enumerated() { image.blocks[b] = Array(data[j * 16..<j * 16 + 16]) }
                    continue
                }
                // Block by block: one refused block must not hide the others.
                for b in run {
                    if let data = try readRun([b], &session) { image.blocks[b] = data } else { left.append(b) }
                }
            }
            pending = left
        }
    }

    /// One Read of consecutive blocks, MACed plain then encrypted; nil when the card refuses both (access).
    private func readRun(_ run: [Int], _ session: inout MIFAREPlusSession) throws(TagError) -> [UInt8]? {
        for mode in [MIFAREPlusCommunication.maced, .encrypted] {
            do {
                return try session.read(UInt16(run[0]), count: run.count, mode: mode)
            } catch  where error.code == .commandRejected {
                // A refusal keeps the session (access conditions); try the next mode.
                if session.keys == nil { return nil }
            }
        }
        return nil
    }

    /// Writes the data blocks of `image` (not block 0, not trailers, not keys) with the keys it holds or the
    /// caller's; returns how many blocks were written. Each block is one MACed Write (`A3`) answered with a MAC, or
    /// encrypted (`A1`) where the sector refuses plain data.
    package func restore(_ image: MIFAREPlusImage, keys extra: [[UInt8]]) throws(TagError) -> Int {
        guard try securityLevel() == 3 else {
            throw TagError(.commandRejected, "the card is in security level 0: personalise it before restoring data")
        }
        var session = MIFAREPlusSession(link: link, random: random)
        var written = 0
        for sector in 0..<version.sectorCount {
            let first = Self.firstBlock(sector)
            let blocks = (first..<first + Self.blocks(sector) - 1).filter { $0 != 0 && image.blocks[$0] != nil }
            guard !blocks.isEmpty else { continue }
            let keyA = UInt16(0x4000 + 2 * sector)
            var done = false
            for address in [keyA + 1, keyA] where !done {
                var candidates = image.keys[address].map { [$0] } ?? []
                for k in extra + Self.defaultKeys where !candidates.contains(k) { candidates.append(k) }
                for key in candidates where !done {
                    do {
                        try session.authenticate(address, key: key)
                    } catch  where error.code == .commandRejected {
                        continue
                    }
                    do {
                        for b in blocks { try writeBlock(UInt16(b), image.blocks[b]!, &session) }
                        written += blocks.count
                        done = true
                    } catch  where error.code == .commandRejected && session.keys != nil {
                        break  // this key may not write: the other key
                    }
                }
            }
            guard done else {
                throw TagError(
                    .commandRejected,
                    "sector \(sector): no key (of the dump's, the --keys file's, the defaults) may write it")
            }
        }
        return written
    }

    private func writeBlock(_ block: UInt16, _ data: [UInt8], _ session: inout MIFAREPlusSession) throws(TagError) {
        do {
            try session.write(block, data, mode: .maced)
        } catch  where error.code == .commandRejected && session.keys != nil {
            try session.write(block, data, mode: .encrypted)
        }
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: String) -> String {
        String(drop { set.contains($0) }.reversed().drop { set.contains($0) }.reversed())
    }
}
