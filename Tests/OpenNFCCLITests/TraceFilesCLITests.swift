import Foundation
import OpenNFCTestSupport
import Testing

/// pcapng and Proxmark3 traces (docs/TRACES.md): a read and a write on every NFC-A and NFC-B family recorded as
/// pcapng, dissected by tshark, converted to a Proxmark3 trace and back without loss, and replayed; a Proxmark3 trace
/// written here by hand from the documented record layout replays as a tag; damaged files are refused with where.
@Suite struct TraceFilesCLITests {
    /// `tshark`, installed by scripts/test when missing; nil (the tshark checks skipped, loudly) without it.
    static let tshark: URL? = ["/usr/bin/tshark", "/usr/local/bin/tshark"].map { URL(fileURLWithPath: $0) }
        .first { FileManager.default.isExecutableFile(atPath: $0.path) }

    struct Family: CustomStringConvertible, Sendable {
        var chip: String
        var proto: String
        /// The write and the read, or only the read for a chip without an NDEF mapping in opennfc.
        var write: [String]?
        var read: [String]
        var prepare: [String]? = nil
        var keys: [String] = []
        var description: String { chip }
    }

    static let classicKeys = ["A0A1A2A3A4A5", "D3F7D3F7D3F7", "FFFFFFFFFFFF"]
    static let families: [Family] = [
        Family(chip: "ntag215", proto: "14a", write: ["write", "--text", "hello"], read: ["read"]),
        Family(chip: "ultralight-c", proto: "14a", write: ["write", "--text", "hello"], read: ["read"]),
        Family(chip: "topaz512", proto: "14a", write: ["write", "--text", "hello"], read: ["read"]),
        Family(chip: "type4", proto: "14a", write: ["write", "--text", "hello"], read: ["read"]),
        Family(chip: "type4b", proto: "14b", write: ["write", "--text", "hello"], read: ["read"]),
        Family(chip: "desfire-ev1", proto: "14a", write: ["write", "--text", "hello"], read: ["read"]),
        Family(
            chip: "mifare-classic-1k", proto: "14a", write: ["write", "--text", "hello"], read: ["read"],
            prepare: ["format"], keys: classicKeys),
        // MIFARE Plus in security level 0 has no NDEF mapping opennfc writes: its dump is the read.
        Family(chip: "mifare-plus-ev1-2k", proto: "14a", write: nil, read: ["dump"]),
    ]

    /// The `trace show` lines without their time column (times round to the carrier cycle in a Proxmark3 trace).
    static func frames(_ ws: Workspace, _ file: String, _ extra: [String] = []) throws -> [String] {
        let r = try ws.run(["trace", "show", file] + extra)
        #expect(r.status == 0, "\(r.stderr)")
        return r.stdout.split(separator: "\n").dropFirst().map { line in
            String(line.drop(while: { $0 == " " }).drop(while: { $0 != " " }).drop(while: { $0 == " " }))
        }
    }

    /// tshark dissects every packet as ISO 14443 with no malformed-packet or error expert info, with one exception
    /// that is Wireshark's (docs/TRACES.md, "S(DESELECT)"): its ISO 14443 dissector (4.0.17 here) takes one INF byte
    /// in every S-block, which S(DESELECT) has not (ISO/IEC 14443-4 §7.1.1.2), so it reads the first CRC byte as INF
    /// and runs out of bytes reading the CRC. Each packet it flags is checked to be exactly that: a DESELECT of
    /// three bytes, `C2` and the CRC of `C2` that the file's technology requires (computed here), shown with the
    /// first CRC byte as "INF" and an exception, not a wrong CRC; on 4.0, every DESELECT is flagged.
    static func checkWithTShark(_ path: String, proto: String) throws {
        guard let tshark else {
            print("SKIPPED: tshark is not installed (scripts/test installs Debian's tshark); \(path) not dissected")
            return
        }
        let verbose = try TestProcess.run(tshark, ["-r", path, "-V", "-x"])
        #expect(verbose.status == 0, "\(verbose.stderr)")
        let packets = verbose.stdout.components(separatedBy: "\nFrame ")
        #expect(packets.count > 4)
        let deselect = proto == "14b" ? Self.crcB([0xC2]) : Self.crcA([0xC2])
        var flagged = 0
        for p in packets where p.contains("Malformed") || p.contains("Expert Info (Error") {
            flagged += 1
            // The packet's bytes from tshark's hex dump: the 4-byte pseudo-header, then the frame.
            let hex = p.split(separator: "\n").filter { $0.count > 6 && $0.prefix(4).allSatisfy(\.isHexDigit) }
                .flatMap { $0.dropFirst(6).prefix(47).split(separator: " ").compactMap { UInt8($0, radix: 16) } }
            #expect(
                Array(hex.dropFirst(4)) == deselect, "tshark flags a packet of \(path) that is not S(DESELECT):\n\(p)")
            #expect(p.contains("Command: Deselect (0x0)") && p.contains("Malformed Packet (Exception occurred)"))
            #expect(p.contains(String(format: "INF: %02x", deselect[1])), "\(p)")
            #expect(!p.contains("[incorrect") && !p.contains("Wrong CRC"), "\(p)")
        }
        let version = try TestProcess.run(tshark, ["-v"]).stdout
        if version.contains("TShark (Wireshark) 4.0.") {
            let deselects = packets.filter { $0.contains("Command: Deselect (0x0)") }.count
            #expect(flagged == deselects, "\(path): \(flagged) packets flagged, \(deselects) DESELECTs")
        }
        let summary = try TestProcess.run(tshark, ["-r", path])
        let lines = summary.stdout.split(separator: "\n")
        #expect(lines.allSatisfy { $0.contains("ISO 14443") || $0.contains("  8 ") || $0.contains("→  ") })
        #expect(summary.stdout.contains("Field on") && summary.stdout.contains("Field off"))
        #expect(
            (summary.stdout.contains("WUPA") && summary.stdout.contains("ATQA"))
                || (summary.stdout.contains("WUPB") && summary.stdout.contains("ATQB")), "\(summary.stdout)")
    }

    @Test(arguments: families)
    func recordDissectConvertReplay(family: Family) throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", family.chip, "-o", "t.json"]).status == 0)
        if let prepare = family.prepare {
            let p = try ws.run(prepare + ["--device", "sim:t.json"])
            #expect(p.status == 0, "\(p.stderr)")
        }
        let keyOptions = family.keys.flatMap { ["--key", $0] }
        let keySuffix = family.keys.map { ",key=\($0)" }.joined()
        for (name, command) in [("w", family.write), ("r", family.read)] {
            guard let command else { continue }
            let recorded = try ws.run(command + ["--device", "sim:t.json", "--record", "\(name).pcapng"])
            #expect(recorded.status == 0, "\(family.chip) \(command): \(recorded.stderr)")
            try Self.checkWithTShark(ws.path("\(name).pcapng"), proto: family.proto)
            // pcapng → Proxmark3 trace → pcapng: the same frames, directions and order.
            #expect(try ws.run(["trace", "convert", "\(name).pcapng", "-o", "\(name).trace"]).status == 0)
            let back = try ws.run(
                ["trace", "convert", "\(name).trace", "--protocol", family.proto, "-o", "\(name)2.pcapng"])
            #expect(back.status == 0, "\(back.stderr)")
            let original = try Self.frames(ws, "\(name).pcapng", keyOptions)
            #expect(original.count > 6)
            // A Proxmark3 trace has no field events; every frame is back.
            #expect(try Self.frames(ws, "\(name)2.pcapng", keyOptions) == original.filter { !$0.hasPrefix("*") })
            let viaTrace = try Self.frames(ws, "\(name).trace", ["--protocol", family.proto] + keyOptions)
            #expect(viaTrace == original.filter { !$0.hasPrefix("*") })
            // Replayed from the Proxmark3 trace and from the pcapng: the same procedure gets the same answers.
            for device in [
                "replay:\(name).trace,protocol=\(family.proto)\(keySuffix)", "replay:\(name).pcapng\(keySuffix)",
            ] {
                let replayed = try ws.run(command + ["--device", device])
                #expect(replayed.status == 0, "\(family.chip) \(command) on \(device): \(replayed.stderr)")
                #expect(replayed.stdout == recorded.stdout)
            }
        }
    }

    /// The Proxmark3 record layout written by hand (docs/TRACES.md): 32-bit start, 16-bit duration, 15-bit length
    /// with bit 15 for the tag's frames, the data, and ⌈n/8⌉ parity bytes, odd parity MSB first. CRC_A computed
    /// here too (ISO/IEC 14443-3 Annex B: init 6363, reflected 8408, low byte first).
    static func crcA(_ b: [UInt8]) -> [UInt8] {
        var crc: UInt16 = 0x6363
        for x in b {
            crc ^= UInt16(x)
            for _ in 0..<8 { crc = crc & 1 != 0 ? crc >> 1 ^ 0x8408 : crc >> 1 }
        }
        return b + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }

    /// CRC_B (ISO/IEC 14443-3 Annex B: init FFFF, reflected 8408, complemented, low byte first).
    static func crcB(_ b: [UInt8]) -> [UInt8] {
        var crc: UInt16 = 0xFFFF
        for x in b {
            crc ^= UInt16(x)
            for _ in 0..<8 { crc = crc & 1 != 0 ? crc >> 1 ^ 0x8408 : crc >> 1 }
        }
        crc = ~crc
        return b + [UInt8(crc & 0xFF), UInt8(crc >> 8)]
    }

    static func record(_ time: UInt32, _ duration: UInt16, tag: Bool, _ data: [UInt8]) -> [UInt8] {
        var out = [UInt8(time & 0xFF), UInt8(time >> 8 & 0xFF), UInt8(time >> 16 & 0xFF), UInt8(time >> 24)]
        out += [UInt8(duration & 0xFF), UInt8(duration >> 8)]
        let header = UInt16(data.count) | (tag ? 0x8000 : 0)
        out += [UInt8(header & 0xFF), UInt8(header >> 8)] + data
        var parity = [UInt8](repeating: 0, count: (data.count - 1) / 8 + 1)
        for (j, b) in data.enumerated() where b.nonzeroBitCount % 2 == 0 { parity[j / 8] |= 0x80 >> UInt8(j % 8) }
        return out + parity
    }

    @Test func handWrittenProxmarkTraceReplaysAsATag() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        // An NTAG213, UID 04F805BAB9A8C1, holding a Text record "hi": the frames a read sends, answered.
        let frames: [(Bool, [UInt8])] = [
            (false, [0x52]), (true, [0x44, 0x00]),
            (false, [0x93, 0x20]), (true, [0x88, 0x04, 0xF8, 0x05, 0x88 ^ 0x04 ^ 0xF8 ^ 0x05]),
            (false, Self.crcA([0x93, 0x70, 0x88, 0x04, 0xF8, 0x05, 0x88 ^ 0x04 ^ 0xF8 ^ 0x05])),
            (true, Self.crcA([0x04])),
            (false, [0x95, 0x20]), (true, [0xBA, 0xB9, 0xA8, 0xC1, 0xBA ^ 0xB9 ^ 0xA8 ^ 0xC1]),
            (false, Self.crcA([0x95, 0x70, 0xBA, 0xB9, 0xA8, 0xC1, 0xBA ^ 0xB9 ^ 0xA8 ^ 0xC1])),
            (true, Self.crcA([0x00])),
            (false, Self.crcA([0x60])), (true, Self.crcA([0x00, 0x04, 0x04, 0x02, 0x01, 0x00, 0x0F, 0x03])),
            (false, Self.crcA([0x30, 0x03])),
            (
                true,
                Self.crcA([
                    0xE1, 0x10, 0x12, 0x00, 0x01, 0x03, 0xA0, 0x0C, 0x34, 0x03, 0x09, 0xD1, 0x01, 0x05, 0x54, 0x02,
                ])
            ),
            (false, Self.crcA([0x3A, 0x07, 0x07])), (true, Self.crcA([0x65, 0x6E, 0x68, 0x69])),
            (false, Self.crcA([0x50, 0x00])),
        ]
        var bytes: [UInt8] = []
        for (k, (tag, data)) in frames.enumerated() {
            // REQA/WUPA lasts S + 7 bits = 1024 carrier cycles; the client reads that as a 7-bit frame.
            let duration = data.count == 1 && !tag ? 1024 : UInt16(1 + 9 * data.count) * 128
            bytes += Self.record(UInt32(k) * 20_000, duration, tag: tag, data)
        }
        // The layout's worked example (ATQA 44 00 at 11223344, duration 0A0B): 44 33 22 11 0B 0A 02 80 44 00 C0.
        #expect(
            Self.record(0x1122_3344, 0x0A0B, tag: true, [0x44, 0x00]) == [
                0x44, 0x33, 0x22, 0x11, 0x0B, 0x0A, 0x02, 0x80, 0x44, 0x00, 0xC0,
            ])
        try Data(bytes).write(to: URL(fileURLWithPath: ws.path("hand.trace")))
        let missing = try ws.run(["trace", "show", "hand.trace"])
        #expect(missing.status == 1)
        #expect(
            missing.stderr.contains("does not say which protocol it holds; name it with --protocol 14a|14b|15|felica"))
        let show = try ws.run(["trace", "show", "hand.trace", "--protocol", "14a"])
        #expect(show.stdout.contains("> 52 (7 bits)  # WUPA"), "\(show.stdout)")
        #expect(show.stdout.contains("> 3003999A  # frame + CRC: READ page 3"))
        let read = try ws.run(["read", "--device", "replay:hand.trace,protocol=14a"])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout.contains("ntag213, UID 04F805BAB9A8C1"))
        #expect(read.stdout.contains("Text (en, utf-8): hi"))
        // A program asking something else fails there, naming the frame.
        let other = try ws.run(["dump", "--device", "replay:hand.trace,protocol=14a"])
        #expect(other.status != 0)
        #expect(other.stderr.contains("replay: frame"))
        // And back to our transcript.
        #expect(try ws.run(["trace", "convert", "hand.trace", "--protocol", "14a", "-o", "hand.json"]).status == 0)
        #expect(try ws.run(["read", "--device", "replay:hand.json"]).stdout == read.stdout)
    }

    // MARK: damaged files

    /// A little-endian pcapng by hand: SHB (28 bytes), IDB (link type 264, 20 bytes), one EPB with WUPA.
    static func pcapng(bigEndian: Bool = false, extraBlock: Bool = false) -> [UInt8] {
        func u16(_ v: UInt16) -> [UInt8] {
            bigEndian ? [UInt8(v >> 8), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8)]
        }
        func u32(_ v: UInt32) -> [UInt8] {
            let le = (0..<4).map { UInt8(truncatingIfNeeded: v >> UInt32(8 * $0)) }
            return bigEndian ? le.reversed() : le
        }
        func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
            u32(type) + u32(UInt32(12 + body.count)) + body + u32(UInt32(12 + body.count))
        }
        var out = block(0x0A0D_0D0A, u32(0x1A2B_3C4D) + u16(1) + u16(0) + [UInt8](repeating: 0xFF, count: 8))
        out += block(1, u16(264) + u16(0) + u32(0))
        if extraBlock { out += block(0x0000_0BAD, [1, 2, 3, 4]) }
        out += block(6, u32(0) + u32(0) + u32(7) + u32(5) + u32(5) + [0x00, 0xFE, 0x00, 0x01, 0x52, 0, 0, 0])
        out += block(6, u32(0) + u32(0) + u32(9) + u32(6) + u32(6) + [0x00, 0xFF, 0x00, 0x02, 0x44, 0x00, 0, 0])
        return out
    }

    @Test func pcapngBothByteOrdersAndUnknownBlocks() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try Data(Self.pcapng()).write(to: URL(fileURLWithPath: ws.path("le.pcapng")))
        try Data(Self.pcapng(bigEndian: true, extraBlock: true)).write(to: URL(fileURLWithPath: ws.path("be.pcapng")))
        let le = try Self.frames(ws, "le.pcapng")
        #expect(le == ["> 52  # WUPA", "< 4400  # ATQA"])
        #expect(try Self.frames(ws, "be.pcapng") == le)
        if let tshark = Self.tshark {
            #expect(try TestProcess.run(tshark, ["-r", ws.path("be.pcapng")]).stdout.contains("WUPA"))
        }
    }

    @Test func damagedFilesNameTheirPlace() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let good = Self.pcapng()
        func show(_ bytes: [UInt8], _ name: String, _ extra: [String] = []) throws -> String {
            try Data(bytes).write(to: URL(fileURLWithPath: ws.path(name)))
            let r = try ws.run(["trace", "show", name] + extra)
            #expect(r.status == 1)
            return r.stderr
        }
        // Truncated: the last EPB (40 bytes at byte 88, its length at 92) cut by 6 bytes.
        #expect(
            try show(Array(good.dropLast(6)), "cut.pcapng").contains(
                "block 4 at byte 92: truncated: the block says 40 bytes, 34 are left in the file"))
        // Bad block length: the IDB's length (at byte 32) made 21.
        var bad = good
        bad[32] = 21
        #expect(try show(bad, "len.pcapng").contains("block 2 at byte 32: bad block length 21"))
        // Wrong byte-order magic (at byte 8).
        var magic = good
        magic[8] = 0x00
        #expect(try show(magic, "magic.pcapng").contains("block 1 at byte 8: wrong byte-order magic"))
        // A pseudo-header whose length disagrees: the first EPB at 48, its data at 76, the length field at 78.
        var pseudo = good
        pseudo[48 + 28 + 3] = 0x02
        #expect(
            try show(pseudo, "pseudo.pcapng").contains("block 3 at byte 78: pseudo-header length 2 but 1 bytes follow"))
        // A Proxmark3 record whose length runs past the end: record 2 at byte 10 says 16 bytes.
        let trace =
            Self.record(0, 1024, tag: false, [0x52]) + [0, 0, 0, 0, 0, 0, 0x10, 0x80] + [0x44, 0x00, 0xC0]
        #expect(
            try show(trace, "short.trace", ["--protocol", "14a"]).contains(
                "record 2 at byte 10: the record's 16 data bytes and 2 parity bytes run past the end of the file"))
        #expect(
            try show([0, 0, 0], "tiny.trace", ["--protocol", "14a"]).contains(
                "record 1 at byte 0: truncated: 3 bytes left, a record header has 8"))
    }

    @Test func recordFormatAndRefusals() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["tag", "new", "--chip", "ntag213", "--text", "x", "-o", "t.json"]).status == 0)
        // --record-format forces the format whatever the extension.
        let r = try ws.run(["read", "--device", "sim:t.json", "--record", "out.bin", "--record-format", "pcapng"])
        #expect(r.status == 0, "\(r.stderr)")
        let head = try Data(contentsOf: URL(fileURLWithPath: ws.path("out.bin"))).prefix(4)
        #expect(Array(head) == [0x0A, 0x0D, 0x0D, 0x0A])
        let bad = try ws.run(["read", "--device", "sim:t.json", "--record", "o.json", "--record-format", "pcap"])
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--record-format 'pcap': expected json|pcapng|trace"))
        // NFC-F and NFC-V have no pcapng link type Wireshark reads: refused, named.
        #expect(try ws.run(["tag", "new", "--chip", "felica-lite-s", "--text", "f", "-o", "f.json"]).status == 0)
        let recorded = try ws.run(["read", "--device", "sim:f.json", "--record", "f.trace"])
        #expect(recorded.status == 0)
        #expect(try Self.frames(ws, "f.trace", ["--protocol", "felica"]).contains { $0.contains("Polling") })
        let json = try ws.run(["read", "--device", "sim:f.json", "--record", "f-rec.json"])
        #expect(json.status == 0)
        let refused = try ws.run(["trace", "convert", "f-rec.json", "-o", "f.pcapng"])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("cannot carry NFC-F (FeliCa) frames"))
        #expect(try ws.run(["read", "--device", "replay:f.trace,protocol=felica"]).stdout == recorded.stdout)
    }
}
