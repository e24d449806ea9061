internal import OpenNFCBytes
internal import OpenNFCRF

/// ISO/IEC 15693-3 requests as the reader procedures send them: addressed (the Address flag and the UID LSB first,
/// as Core NFC addresses every command), high data rate, and the answer's error flag turned into a ``TagError``
/// that carries the tag's error code (§10.2.4: `01` not supported … `14` lock failed).
package struct Type5Link {
    let frontend: any RFFrontend
    /// The UID MSB first, as the target reports it.
    let uid: [UInt8]

    /// Request flags: high data rate (`02`), addressed (`20`), and Option (`40`) when asked.
    static func flags(option: Bool) -> UInt8 { 0x02 | 0x20 | (option ? 0x40 : 0x00) }

    /// Sends `command` with `parameters`; returns the answer after its flags byte.
    func send(_ command: UInt8, _ parameters: [UInt8] = [], option: Bool = false, what: String) throws(TagError)
        -> [UInt8]
    {
        let frame = [Self.flags(option: option), command] + uid.reversed() + parameters
        let response: RFResponse
        do {
            response = try frontend.exchange(frame)
        } catch {
            throw TagError(.rf, "\(what): \(error)", rfError: error)
        }
        guard case .frame(let bytes) = response, let flags = bytes.first else {
            throw TagError(.invalidResponse, "\(what): answered \(response) instead of a response frame")
        }
        if flags & 0x01 != 0 {
            let code = bytes.count > 1 ? bytes[1] : 0x0F
            throw TagError(
                .commandRejected, "\(what): the tag answered error \(Hex.encode([code])) (\(Self.describe(code)))",
                iso15693Error: code)
        }
        return Array(bytes.dropFirst())
    }

    /// ISO/IEC 15693-3 §10.2.4 (Table 7) error code names.
    package static func describe(_ code: UInt8) -> String {
        switch code {
        case 0x01: return "command not supported"
        case 0x02: return "command not recognised"
        case 0x03: return "option not supported"
        case 0x0F: return "unknown error"
        case 0x10: return "block not available"
        case 0x11: return "block already locked"
        case 0x12: return "block locked, content cannot change"
        case 0x13: return "block not programmed"
        case 0x14: return "block not locked"
        case 0xA0...0xDF: return "custom error"
        default: return "reserved error code"
        }
    }

    /// Block numbers as one byte, or two (LSB first) with the extended commands.
    static func block(_ n: Int, extended: Bool) -> [UInt8] {
        extended ? [UInt8(n & 0xFF), UInt8(n >> 8)] : [UInt8(n)]
    }

    /// Read Multiple Blocks (`23`, extended `33`) of `count` blocks from `first`; the data only.
    func readBlocks(_ first: Int, count: Int, blockSize: Int, extended: Bool) throws(TagError) -> [UInt8] {
        let what = "READ MULTIPLE BLOCKS \(first)–\(first + count - 1)"
        let data: [UInt8]
        if count == 1 {
            data = try send(extended ? 0x30 : 0x20, Self.block(first, extended: extended), what: what)
        } else {
            let n = Self.block(first, extended: extended) + Self.block(count - 1, extended: extended)
            data = try send(extended ? 0x33 : 0x23, n, what: what)
        }
        guard data.count == count * blockSize else {
            throw TagError(.invalidResponse, "\(what): \(data.count) data bytes, expected \(count * blockSize)")
        }
        return data
    }

    /// Write Single Block (`21`, extended `31`).
    func writeBlock(_ n: Int, _ data: [UInt8], extended: Bool, option: Bool) throws(TagError) {
        _ = try send(
            extended ? 0x31 : 0x21, Self.block(n, extended: extended) + data, option: option,
            what: "WRITE SINGLE BLOCK \(n)")
    }

    /// Lock Block (`22`, extended `32`).
    func lockBlock(_ n: Int, extended: Bool, option: Bool) throws(TagError) {
        _ = try send(extended ? 0x32 : 0x22, Self.block(n, extended: extended), option: option, what: "LOCK BLOCK \(n)")
    }
}

extension TagError {
    /// A refusal carrying the ISO/IEC 15693 error code of the tag's answer.
    init(_ code: Code, _ reason: String, iso15693Error: UInt8, file: StaticString = #fileID, line: UInt = #line) {
        self.init(code, reason, file: file, line: line)
        self.iso15693Error = iso15693Error
    }
}
