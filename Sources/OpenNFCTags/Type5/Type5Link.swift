internal import OpenNFCBytes
package import OpenNFCRF

/// ISO/IEC 15693-3 requests as the reader procedures, the memory reader and the CLI send them: addressed (the
/// Address flag and the UID LSB first, as Core NFC addresses every command), high data rate, custom commands with
/// the IC manufacturer code (§10.5), and the answer's error flag turned into a ``TagError`` that carries the tag's
/// error code (§10.2.4: `01` not supported … `14` lock failed). Frames are built by ``ISO15693Request``.
package struct Type5Link {
    let frontend: any RFFrontend
    /// The UID MSB first, as the target reports it.
    package let uid: [UInt8]

    package init(frontend: any RFFrontend, uid: [UInt8]) {
        self.frontend = frontend
        self.uid = uid
    }

    /// The ISO/IEC 7816-6 IC manufacturer code (UID byte 2): `04` NXP, `02` ST, `07` Texas Instruments.
    package var manufacturer: UInt8 { uid.count == 8 ? uid[1] : 0 }

    /// TI chips need the Option flag on writes and locks (TI RI-I02-112A "Write Single Block").
    package var writesNeedOption: Bool { manufacturer == 0x07 }

    /// Request flags: high data rate (`02`), and Option (`40`) when asked; ``ISO15693Request/frame(flags:uid:)``
    /// adds the Address flag.
    static func flags(option: Bool) -> UInt8 {
        ISO15693Request.Flag.highDataRate | (option ? ISO15693Request.Flag.option : 0x00)
    }

    /// Sends `request`; returns the answer after its flags byte.
    package func send(_ request: ISO15693Request, option: Bool = false, what: String) throws(TagError) -> [UInt8] {
        let frame = request.frame(flags: Self.flags(option: option), uid: uid)
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

    /// A write or lock: with the Option flag where the chip needs it (TI).
    package func write(_ request: ISO15693Request, what: String) throws(TagError) {
        _ = try send(request, option: writesNeedOption, what: what)
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

    /// Read Single Block (`20`/`30`) for one block, Read Multiple Blocks (`23`, extended `33`) for more: `count`
    /// blocks from `first`, the data only.
    func readBlocks(_ first: Int, count: Int, blockSize: Int, extended: Bool) throws(TagError) -> [UInt8] {
        let what = "READ MULTIPLE BLOCKS \(first)–\(first + count - 1)"
        let request =
            count == 1
            ? ISO15693Request.readSingleBlock(first, extended: extended)
            : .readMultipleBlocks(first: first, count: count, extended: extended)
        let data = try send(request, what: what)
        guard data.count == count * blockSize else {
            throw TagError(.invalidResponse, "\(what): \(data.count) data bytes, expected \(count * blockSize)")
        }
        return data
    }

    /// Write Single Block (`21`, extended `31`).
    package func writeBlock(_ n: Int, _ data: [UInt8], extended: Bool, option: Bool) throws(TagError) {
        _ = try send(.writeSingleBlock(n, data, extended: extended), option: option, what: "WRITE SINGLE BLOCK \(n)")
    }

    /// Lock Block (`22`, extended `32`).
    func lockBlock(_ n: Int, extended: Bool, option: Bool) throws(TagError) {
        _ = try send(.lockBlock(n, extended: extended), option: option, what: "LOCK BLOCK \(n)")
    }

    /// Get System Information (`2B`), parsed.
    package func systemInfo() throws(TagError) -> Type5SystemInfo {
        let answer = try send(.getSystemInformation, what: "GET SYSTEM INFORMATION")
        var problem = ""
        guard let info = Type5SystemInfo(getSystemInformationAnswer: answer, problem: &problem) else {
            throw TagError(.invalidResponse, problem)
        }
        return info
    }

    /// Extended Get System Information (`3B`, §10.4.19) with the information request `request`, parsed.
    package func extendedSystemInfo(_ request: UInt8) throws(TagError) -> Type5SystemInfo {
        let answer = try send(.extendedGetSystemInformation(request), what: "EXTENDED GET SYSTEM INFORMATION")
        var problem = ""
        guard let info = Type5SystemInfo(getSystemInformationAnswer: answer, extended: true, problem: &problem) else {
            throw TagError(.invalidResponse, problem)
        }
        return info
    }
}

extension TagError {
    /// A refusal carrying the ISO/IEC 15693 error code of the tag's answer.
    init(_ code: Code, _ reason: String, iso15693Error: UInt8, file: StaticString = #fileID, line: UInt = #line) {
        self.init(code, reason, file: file, line: line)
        self.iso15693Error = iso15693Error
    }
}
