package import OpenNFCRF

/// The memory reader behind `opennfc dump` and `restore` for ISO/IEC 15693 tags (NFC Forum Type 5): Get System
/// Information (its extended form when the short one gives no memory size), every block by Read Multiple Blocks,
/// and the lock state of every block by Get Multiple Block Security Status (ISO/IEC 15693-3 §10.4).
package enum Type5MemoryReader {
    package struct Image: Sendable, Hashable {
        package var info: Type5SystemInfo
        package var blockCount: Int
        package var blockSize: Int
        package var memory: [UInt8]
        package var locked: Set<Int>
    }

    /// Read Multiple Blocks run: at most 32 blocks (ST chips do not read across their 32-block sectors, AOSP reads at
    /// most 128 bytes), fewer when the frontend's answers are shorter.
    package static func run(_ frontend: any RFFrontend, blockSize: Int) -> Int {
        max(1, min(32, (frontend.capabilities.maxResponseSize - 1) / max(1, blockSize)))
    }

    /// System information, with the extended form (information request `0F`: everything) when the short answer has
    /// no memory size and the tag has the command.
    package static func systemInfo(_ link: Type5Link) throws(TagError) -> Type5SystemInfo {
        let info = try link.systemInfo()
        if info.blockCount == nil, let ext = try? link.extendedSystemInfo(0x0F) { return ext }
        return info
    }

    /// The whole memory and its lock state.
    package static func read(_ link: Type5Link) throws(TagError) -> Image {
        let info = try systemInfo(link)
        guard let count = info.blockCount, let size = info.blockSize else {
            throw TagError(
                .unsupported, "the tag's system information does not give its memory size; it cannot be dumped")
        }
        let memory = try readBlocks(link, 0, count: count, blockSize: size, run: run(link.frontend, blockSize: size))
        let locked = try lockedBlocks(link, count: count, run: 64)
        return Image(info: info, blockCount: count, blockSize: size, memory: memory, locked: locked)
    }

    /// Blocks `first ..< first + count` in Read Multiple Blocks runs of at most `run` blocks (the extended command
    /// past block 255).
    package static func readBlocks(
        _ link: Type5Link, _ first: Int, count: Int, blockSize: Int, run: Int
    ) throws(TagError) -> [UInt8] {
        var out: [UInt8] = []
        var b = first
        let extended = first + count > 256
        while b < first + count {
            let n = min(run, first + count - b)
            let what = "READ MULTIPLE BLOCKS \(b)–\(b + n - 1)"
            let data = try link.send(.readMultipleBlocks(first: b, count: n, extended: extended), what: what)
            guard data.count == n * blockSize else {
                throw TagError(.invalidResponse, "\(what): the tag answered \(data.count) bytes, not \(n * blockSize)")
            }
            out += data
            b += n
        }
        return out
    }

    /// Get Multiple Block Security Status (`2C`, extended `3C`) in runs of `run`: the locked blocks.
    package static func lockedBlocks(_ link: Type5Link, count: Int, run: Int) throws(TagError) -> Set<Int> {
        var locked: Set<Int> = []
        var b = 0
        let extended = count > 256
        while b < count {
            let n = min(run, count - b)
            let s = try link.send(
                .getMultipleBlockSecurityStatus(first: b, count: n, extended: extended),
                what: "GET MULTIPLE BLOCK SECURITY STATUS \(b)–\(b + n - 1)")
            for (i, v) in s.prefix(n).enumerated() where v & 0x01 != 0 { locked.insert(b + i) }
            b += n
        }
        return locked
    }

    /// Write Single Block (`21`, extended `31` past block 255), with the Option flag where the chip needs it.
    package static func writeBlock(_ link: Type5Link, _ n: Int, _ data: [UInt8]) throws(TagError) {
        try link.writeBlock(n, data, extended: n > 255, option: link.writesNeedOption)
    }
}
