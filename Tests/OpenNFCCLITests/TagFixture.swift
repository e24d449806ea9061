import Foundation
import OpenNFCTestSupport

/// Tag files for the CLI tests, written from the NXP datasheet facts (NFC Forum T2T §2.1;
/// NTAG213/215/216 datasheet §8.5, §10.1): the memory image of an NTAG21x as its maker ships it, optionally holding an NDEF message, in the documented JSON tag-file
/// format. Independent of the simulation's own factory code, so a test that loads one checks both.
enum TagFixture {
    struct Chip {
        var name: String
        var pages: Int
        var cc: [UInt8]
        var factoryTLVs: [UInt8]
        var dynamicLockPage: Int
    }

    static let ntag213 = Chip(
        name: "ntag213", pages: 45, cc: [0xE1, 0x10, 0x12, 0x00], factoryTLVs: [0x01, 0x03, 0xA0, 0x0C, 0x34],
        dynamicLockPage: 0x28)
    static let ntag215 = Chip(
        name: "ntag215", pages: 135, cc: [0xE1, 0x10, 0x3E, 0x00], factoryTLVs: [], dynamicLockPage: 0x82)
    static let ntag216 = Chip(
        name: "ntag216", pages: 231, cc: [0xE1, 0x10, 0x6D, 0x00], factoryTLVs: [], dynamicLockPage: 0xE2)

    static let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]

    /// The URI record `https://<rest>` (URI RTD prefix 0x04), as one short record.
    /// A one-record message of TNF 5 (unknown, a long record: 4-byte PAYLOAD_LENGTH) carrying `payload`, in hex
    /// (NFC Forum NDEF 1.0 §3.2: header C5, TYPE_LENGTH 0).
    static func unknownRecordMessageHex(_ payload: [UInt8]) -> String {
        let n = payload.count
        let message =
            [0xC5, 0x00, UInt8(n >> 24), UInt8(n >> 16 & 0xFF), UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] + payload
        return hex(message)
    }

    static func uriMessage(_ rest: String) -> [UInt8] { OpenNFCTestSupport.uriMessage(rest) }

    /// The JSON text of a factory chip; `message` (if any) in an NDEF TLV after the factory TLVs; `formatted` false
    /// leaves the CC and data area zero (a blank chip); `uid` defaults to ``uid``.
    static func json(
        _ chip: Chip, message: [UInt8]? = nil, formatted: Bool = true, uid: [UInt8] = uid, data: [UInt8]? = nil
    ) -> String {
        var mem = [UInt8](repeating: 0, count: chip.pages * 4)
        mem[0] = uid[0]
        mem[1] = uid[1]
        mem[2] = uid[2]
        mem[3] = 0x88 ^ uid[0] ^ uid[1] ^ uid[2]
        for i in 0..<4 { mem[4 + i] = uid[3 + i] }
        mem[8] = uid[3] ^ uid[4] ^ uid[5] ^ uid[6]
        mem[9] = 0x48
        if formatted {
            mem.replaceSubrange(12..<16, with: chip.cc)
            var tlv = chip.factoryTLVs
            if let message {
                tlv += [0x03, UInt8(message.count)] + message + [0xFE]
            } else {
                tlv += [0x03, 0x00, 0xFE]
            }
            if let data { tlv = data }
            mem.replaceSubrange(16..<(16 + tlv.count), with: tlv)
        }
        mem.replaceSubrange((chip.dynamicLockPage * 4)..<(chip.dynamicLockPage * 4 + 4), with: [0, 0, 0, 0xBD])
        let cfg0 = (chip.pages - 4) * 4
        mem.replaceSubrange(cfg0..<(cfg0 + 4), with: [0x04, 0x00, 0x00, 0xFF])
        mem.replaceSubrange((cfg0 + 8)..<(cfg0 + 12), with: [0xFF, 0xFF, 0xFF, 0xFF])
        let pages = stride(from: 0, to: mem.count, by: 4).map { i in
            "\"" + mem[i..<(i + 4)].map { String(format: "%02X", $0) }.joined(separator: " ") + "\""
        }
        return """
            {
              "format": "opennfc-tag",
              "version": 1,
              "chip": "\(chip.name)",
              "uid": "\(uid.map { String(format: "%02X", $0) }.joined())",
              "type2": {
                "pages": [\(pages.joined(separator: ", "))]
              }
            }

            """
    }

    /// Writes a fixture file into `dir` and returns its path.
    @discardableResult
    static func write(_ text: String, to dir: URL, name: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
}

/// A temporary directory with helpers, removed at the end of a test.
struct Workspace {
    let dir: URL
    init() throws { dir = try CLIRunner.temporaryDirectory() }
    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }
    func cleanup() { try? FileManager.default.removeItem(at: dir) }

    /// `opennfc <args>` run inside the workspace.
    func run(_ args: [String], environment: [String: String] = [:], launcher: [String] = []) throws
        -> CLIRunner.Result
    {
        try CLIRunner.run(args, environment: environment, currentDirectory: dir, launcher: launcher)
    }

    @discardableResult
    func tag(_ name: String, _ chip: TagFixture.Chip, message: [UInt8]? = nil, formatted: Bool = true) throws -> String
    {
        try TagFixture.write(TagFixture.json(chip, message: message, formatted: formatted), to: dir, name: name)
        return name
    }
}
