import OpenNFCBytes
import OpenNFCRF

/// ISO/IEC 15693-3 requests the CLI's Type 5 commands send (`dump`, `restore`, `opennfc iso15693 …`): addressed
/// with the UID LSB first at high data rate (request flags `22`, §7.3.1), the Option flag (`40`) for TI chips
/// whose writes and locks need it (TI Tag-it HF-I Plus, UID manufacturer `07`), the IC manufacturer code after
/// custom command codes (§10.5), and the answer's error flag turned into one line naming the code (§7.4.2 Table 7).
struct ISO15693Requests {
    let frontend: any RFFrontend
    /// The UID MSB first (`E0 …`).
    let uid: [UInt8]

    var manufacturer: UInt8 { uid.count == 8 ? uid[1] : 0 }
    /// TI chips need the Option flag on writes and locks (TI RI-I02-112A "Write Single Block").
    var writesNeedOption: Bool { manufacturer == 0x07 }

    /// The answer after its flags byte; an error-flag answer or silence is a one-line failure.
    func send(_ code: UInt8, _ parameters: [UInt8] = [], option: Bool = false, doing what: String) throws(CLIError)
        -> [UInt8]
    {
        let custom = (0xA0...0xDF).contains(code)
        let frame =
            [0x22 | (option ? 0x40 : 0x00), code] + (custom ? [manufacturer] : []) + uid.reversed()
            + parameters
        let response: RFResponse
        do {
            response = try frontend.exchange(frame)
        } catch {
            switch error.code {
            case .timeout:
                throw CLIError.failure("the tag did not answer while trying to \(what)")
            case .linkLost:
                throw CLIError.failure("the tag left the field while trying to \(what); hold it still and try again")
            default: throw CLIError.failure("cannot \(what): \(error)")
            }
        }
        guard case .frame(let b) = response, let flags = b.first else {
            throw CLIError.failure("the tag answered \(response) instead of a response while trying to \(what)")
        }
        if flags & 0x01 != 0 {
            let e = b.count > 1 ? b[1] : 0x0F
            throw CLIError.failure(
                "the tag refused to \(what): error \(Hex.encode([e])) (\(FrameDecoder.iso15693ErrorName(e)))")
        }
        return Array(b.dropFirst())
    }

    /// A write or lock: with the Option flag where the chip needs it.
    func write(_ code: UInt8, _ parameters: [UInt8] = [], doing what: String) throws(CLIError) {
        _ = try send(code, parameters, option: writesNeedOption, doing: what)
    }

    /// What Get System Information reports (§10.4.12; the extended form §10.4.19 for memories past 256 blocks).
    struct SystemInfo {
        var dsfid: UInt8?
        var afi: UInt8?
        var blockCount: Int?
        var blockSize: Int?
        var icReference: UInt8?
    }

    func systemInfo() throws(CLIError) -> SystemInfo {
        var info = try parseSystemInfo(send(0x2B, doing: "get the system information"), extended: false)
        if info.blockCount == nil, let ext = try? send(0x3B, [0x0F], doing: "get the extended system information") {
            info = try parseSystemInfo(ext, extended: true)
        }
        return info
    }

    private func parseSystemInfo(_ b: [UInt8], extended: Bool) throws(CLIError) -> SystemInfo {
        var r = ByteReader(b)
        var info = SystemInfo()
        do {
            let flags = try r.readUInt8()
            _ = try r.readBytes(8)
            if flags & 0x01 != 0 { info.dsfid = try r.readUInt8() }
            if flags & 0x02 != 0 { info.afi = try r.readUInt8() }
            if flags & 0x04 != 0 {
                let lo = Int(try r.readUInt8())
                let blocks = extended ? lo | Int(try r.readUInt8()) << 8 : lo
                info.blockCount = blocks + 1
                info.blockSize = Int(try r.readUInt8() & 0x1F) + 1
            }
            if flags & 0x08 != 0 { info.icReference = try r.readUInt8() }
        } catch {
            throw CLIError.failure("the system information \(b.hexString) is cut short at byte \(r.offset + 1)")
        }
        return info
    }

    /// Blocks `first ..< first + count` in Read Multiple Blocks runs of at most `run` blocks.
    func readBlocks(_ first: Int, count: Int, blockSize: Int, run: Int) throws(CLIError) -> [UInt8] {
        var out: [UInt8] = []
        var b = first
        while b < first + count {
            let n = min(run, first + count - b)
            let extended = first + count > 256
            let number: [UInt8] = extended ? [UInt8(b & 0xFF), UInt8(b >> 8)] : [UInt8(b)]
            let last: [UInt8] = extended ? [UInt8((n - 1) & 0xFF), UInt8((n - 1) >> 8)] : [UInt8(n - 1)]
            let data = try send(extended ? 0x33 : 0x23, number + last, doing: "read blocks \(b)–\(b + n - 1)")
            guard data.count == n * blockSize else {
                throw CLIError.failure(
                    "blocks \(b)–\(b + n - 1): the tag answered \(data.count) bytes, not \(n * blockSize)")
            }
            out += data
            b += n
        }
        return out
    }

    /// Get Multiple Block Security Status (`2C`, extended `3C`): the locked blocks.
    func lockedBlocks(count: Int, run: Int) throws(CLIError) -> Set<Int> {
        var locked: Set<Int> = []
        var b = 0
        while b < count {
            let n = min(run, count - b)
            let extended = count > 256
            let number: [UInt8] = extended ? [UInt8(b & 0xFF), UInt8(b >> 8)] : [UInt8(b)]
            let last: [UInt8] = extended ? [UInt8((n - 1) & 0xFF), UInt8((n - 1) >> 8)] : [UInt8(n - 1)]
            let s = try send(extended ? 0x3C : 0x2C, number + last, doing: "read the security status of blocks \(b)–")
            for (i, v) in s.prefix(n).enumerated() where v & 0x01 != 0 { locked.insert(b + i) }
            b += n
        }
        return locked
    }

    /// Write Single Block (`21`, extended `31` past block 255).
    func writeBlock(_ n: Int, _ data: [UInt8]) throws(CLIError) {
        let number: [UInt8] = n > 255 ? [UInt8(n & 0xFF), UInt8(n >> 8)] : [UInt8(n)]
        try write(n > 255 ? 0x31 : 0x21, number + data, doing: "write block \(n)")
    }
}
