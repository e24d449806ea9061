internal import OpenNFCBytes
internal import OpenNFCRF

/// pcapng with link type 264, `LINKTYPE_ISO_14443` (tcpdump.org link-layer registry), as Wireshark dissects it
/// (docs/TRACES.md). Blocks from the pcapng specification (IETF draft-ietf-opsawg-pcapng §4): a Section Header, one
/// Interface Description with `if_tsresol` 9 (nanoseconds, so the virtual clock's times are exact) and an Enhanced
/// Packet per frame or field event.
///
/// Each packet is the link type's 4-byte pseudo-header (version `00`; event `FE` PCD→PICC, `FF` PICC→PCD, `FC` field
/// on, `FD` field off; the length of what follows, big-endian) and the frame as it travelled, CRC included. What the
/// link type cannot carry — the bits of a short frame, MIFARE Classic's enciphered parity, the frame's duration when
/// it is not the one ``AirTimeModel`` gives for its bytes — goes in the packet's comment as `bits=7`, `parity=0110…`,
/// `duration=…ns`, which this reader reads back; a frame without a duration gets the model's.
///
/// NFC-F and NFC-V frames are refused: link type 264 is ISO/IEC 14443 only (docs/TRACES.md, "NFC-F and NFC-V").
package enum PcapNG {
    static let linkType: UInt16 = 264
    /// DLT_USER0, for the enciphered frames' interface named ``encipheredInterface``.
    static let userLinkType: UInt16 = 147
    static let encipheredInterface = "nfc-crypto1"
    static let sectionHeader: UInt32 = 0x0A0D_0D0A
    static let byteOrderMagic: UInt32 = 0x1A2B_3C4D
    /// Largest block read (bytes); a frame is at most a few kilobytes.
    static let maxBlock = 1 << 20

    enum PseudoEvent: UInt8 {
        case tagData = 0xFF, readerData = 0xFE, fieldOff = 0xFD, fieldOn = 0xFC
        case tagDataNoCRC = 0xFB, readerDataNoCRC = 0xFA
    }

    // MARK: writing

    package static func encode(_ trace: AirTrace, application: String = "OpenCoreNFC") throws(AirTrace.Problem)
        -> [UInt8]
    {
        let uncovered = trace.protocols.subtracting([.iso14443a, .iso14443b])
        guard uncovered.isEmpty else {
            let names = uncovered.map { $0 == .felica ? "NFC-F (FeliCa)" : "NFC-V (ISO 15693)" }.sorted()
            throw AirTrace.Problem(
                "pcapng link type 264 (ISO 14443) cannot carry \(names.joined(separator: " and ")) frames, and "
                    + "Wireshark has no dissector for them; record to .json or a Proxmark3 .trace instead "
                    + "(docs/TRACES.md)")
        }
        var out: [UInt8] = []
        // Section Header Block: byte-order magic, version 1.0, section length unknown (-1), shb_userappl.
        var shb: [UInt8] = []
        u32(&shb, byteOrderMagic)
        u16(&shb, 1)
        u16(&shb, 0)
        shb += [UInt8](repeating: 0xFF, count: 8)
        option(&shb, 4, Array(application.utf8))
        endOptions(&shb)
        block(&out, sectionHeader, shb)
        // Interface Description Block: link type 264, snap length 0 (none), if_name, if_tsresol 9 (ns).
        var idb: [UInt8] = []
        u16(&idb, linkType)
        u16(&idb, 0)
        u32(&idb, 0)
        option(&idb, 2, Array("nfc".utf8))
        let techs = trace.protocols.map(\.rawValue).sorted().joined(separator: ",")
        option(&idb, 3, Array("ISO/IEC 14443 \(techs)".utf8))
        option(&idb, 9, [9])
        endOptions(&idb)
        block(&out, 1, idb)
        // Enciphered frames have no meaning link type 264 can give: Wireshark would parse ciphertext as commands
        // (a first byte 93 as SELECT, …) and flag them malformed. They go on a second interface of link type
        // DLT_USER0 (147), same pseudo-header, which Wireshark shows as data (docs/TRACES.md).
        let enciphered = trace.reading().enciphered
        if !enciphered.isEmpty {
            var user: [UInt8] = []
            u16(&user, userLinkType)
            u16(&user, 0)
            u32(&user, 0)
            option(&user, 2, Array(encipheredInterface.utf8))
            option(
                &user, 3,
                Array(
                    "ISO/IEC 14443-A frames enciphered by Crypto1 (MIFARE Classic), link type 264's pseudo-header".utf8)
            )
            option(&user, 9, [9])
            endOptions(&user)
            block(&out, 1, user)
        }
        let modelled = trace.modelledAir()
        for (k, f) in trace.frames.enumerated() {
            let event: PseudoEvent
            switch f.event {
            case .reader: event = .readerData
            // A 4-bit ACK/NAK carries no CRC: "CRC not captured" is what Wireshark reads it as without a malformed-
            // packet error (it takes the answer to a WRITE `A2`, whose first byte looks like an R-block, for a block).
            case .tag: event = f.lastBits != nil && f.bytes.count == 1 ? .tagDataNoCRC : .tagData
            case .fieldOn: event = .fieldOn
            case .fieldOff: event = .fieldOff
            }
            let data = [0x00, event.rawValue, UInt8(f.bytes.count >> 8), UInt8(f.bytes.count & 0xFF)] + f.bytes
            var epb: [UInt8] = []
            u32(&epb, enciphered.contains(k) ? 1 : 0)
            u32(&epb, UInt32(truncatingIfNeeded: f.time >> 32))
            u32(&epb, UInt32(truncatingIfNeeded: f.time))
            u32(&epb, UInt32(data.count))
            u32(&epb, UInt32(data.count))
            epb += data
            pad(&epb)
            var notes: [String] = []
            if let b = f.lastBits { notes.append("bits=\(b)") }
            if let p = f.parity, p != AirFrame.oddParity(f.bytes) {
                notes.append("parity=" + p.map { $0 & 1 == 1 ? "1" : "0" }.joined())
            }
            // A duration the model gives for these bytes is left out: the reader gives it back (docs/TRACES.md).
            if f.air > .zero, f.air != modelled[k] { notes.append("duration=\(f.air.nanoseconds)ns") }
            if !notes.isEmpty { option(&epb, 1, Array(notes.joined(separator: " ").utf8)) }
            // epb_flags: direction inbound (card → reader) or outbound (reader → card).
            if f.isFrame { option(&epb, 2, le32(f.event == .tag ? 1 : 2)) }
            endOptions(&epb)
            block(&out, 6, epb)
        }
        return out
    }

    static func u16(_ b: inout [UInt8], _ v: UInt16) { b += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func u32(_ b: inout [UInt8], _ v: UInt32) { b += le32(v) }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> UInt32(8 * $0)) } }
    static func pad(_ b: inout [UInt8]) { b += [UInt8](repeating: 0, count: (4 - b.count % 4) % 4) }
    static func option(_ b: inout [UInt8], _ code: UInt16, _ value: [UInt8]) {
        u16(&b, code)
        u16(&b, UInt16(value.count))
        b += value
        pad(&b)
    }
    static func endOptions(_ b: inout [UInt8]) { b += [0, 0, 0, 0] }
    static func block(_ out: inout [UInt8], _ type: UInt32, _ body: [UInt8]) {
        let total = UInt32(12 + body.count)
        u32(&out, type)
        u32(&out, total)
        out += body
        u32(&out, total)
    }

    // MARK: reading

    /// Whether the bytes start like a pcapng file (a Section Header Block).
    package static func looksLike(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 4 && Array(bytes.prefix(4)) == [0x0A, 0x0D, 0x0D, 0x0A]
    }

    /// Reads every section's ISO 14443 interfaces (link type 264). Strict: a block that does not fit, a length that
    /// is not a multiple of 4 or disagrees with its trailing copy, a wrong byte-order magic, a packet whose
    /// pseudo-header is wrong — each is an error naming the block (1-based) and its byte offset. Blocks of other
    /// types (name resolution, statistics, custom) are skipped; packets of interfaces of another link type too.
    package static func decode(_ bytes: [UInt8], file: String) throws(AirTrace.Problem) -> AirTrace {
        var frames: [AirFrame] = []
        var protocols: Set<AirProtocol> = []
        var offset = 0
        var number = 0
        var bigEndian = false
        var interfaces: [(linkType: UInt16, tsDivisor: UInt64, tsMultiplier: UInt64)] = []
        var sawSection = false
        func fail(_ at: Int, _ what: String) -> AirTrace.Problem {
            AirTrace.Problem("\(file): block \(number) at byte \(at): \(what)")
        }
        while offset < bytes.count {
            number += 1
            let start = offset
            guard bytes.count - offset >= 12 else {
                throw fail(start, "truncated: \(bytes.count - offset) bytes left, a block has at least 12")
            }
            let rawType = Array(bytes[offset..<(offset + 4)])
            if rawType == [0x0A, 0x0D, 0x0D, 0x0A] {
                let magic = Array(bytes[(offset + 8)..<(offset + 12)])
                if magic == [0x4D, 0x3C, 0x2B, 0x1A] {
                    bigEndian = false
                } else if magic == [0x1A, 0x2B, 0x3C, 0x4D] {
                    bigEndian = true
                } else {
                    throw fail(start + 8, "wrong byte-order magic \(magic.hexString) (expected 1A2B3C4D)")
                }
                interfaces = []
                sawSection = true
            } else if !sawSection {
                throw fail(start, "not a pcapng file: it starts with \(rawType.hexString), not a Section Header Block")
            }
            let r = Fields(bytes: bytes, bigEndian: bigEndian)
            let type = r.u32(offset)
            let length = Int(r.u32(offset + 4))
            guard length >= 12, length % 4 == 0 else {
                throw fail(start + 4, "bad block length \(length) (at least 12 and a multiple of 4)")
            }
            guard length <= maxBlock else { throw fail(start + 4, "block length \(length) is over \(maxBlock)") }
            guard length <= bytes.count - offset else {
                throw fail(
                    start + 4, "truncated: the block says \(length) bytes, \(bytes.count - offset) are left in the file"
                )
            }
            guard Int(r.u32(offset + length - 4)) == length else {
                throw fail(
                    start + length - 4,
                    "the trailing block length \(r.u32(offset + length - 4)) differs from the leading \(length)")
            }
            let body = (offset + 8)..<(offset + length - 4)
            switch type {
            case sectionHeader:
                guard body.count >= 16 else { throw fail(start, "a Section Header Block has at least 28 bytes") }
                guard r.u16(body.lowerBound + 4) == 1 else {
                    throw fail(body.lowerBound + 4, "pcapng major version \(r.u16(body.lowerBound + 4)), expected 1")
                }
            case 1:
                guard body.count >= 8 else { throw fail(start, "an Interface Description Block has at least 20 bytes") }
                let lt = r.u16(body.lowerBound)
                var divisor: UInt64 = 1_000_000
                var name = ""
                for (code, value) in try options(r, (body.lowerBound + 8)..<body.upperBound, fail) {
                    if code == 2 { name = String(decoding: bytes[value], as: UTF8.self) }
                    if code == 9, value.count == 1 {
                        let v = bytes[value.lowerBound]
                        guard v & 0x80 == 0, v <= 19 else {
                            throw fail(
                                value.lowerBound, "if_tsresol \(v) is not a power of ten this reader takes (0…19)")
                        }
                        var d: UInt64 = 1
                        for _ in 0..<v { d *= 10 }
                        divisor = d
                    }
                }
                // Ours: the enciphered frames' DLT_USER0 interface reads as link type 264.
                let effective = lt == userLinkType && name == encipheredInterface ? linkType : lt
                interfaces.append((effective, divisor, divisor >= 1_000_000_000 ? 1 : 1_000_000_000 / divisor))
            case 6:
                guard body.count >= 20 else { throw fail(start, "an Enhanced Packet Block has at least 32 bytes") }
                let iface = Int(r.u32(body.lowerBound))
                guard iface < interfaces.count else {
                    throw fail(body.lowerBound, "interface \(iface) was not described before its packet")
                }
                let (lt, divisor, multiplier) = interfaces[iface]
                guard lt == linkType else { break }
                let ts = UInt64(r.u32(body.lowerBound + 4)) << 32 | UInt64(r.u32(body.lowerBound + 8))
                let captured = Int(r.u32(body.lowerBound + 12))
                let dataStart = body.lowerBound + 20
                guard captured <= body.upperBound - dataStart else {
                    throw fail(body.lowerBound + 12, "captured length \(captured) runs past the block")
                }
                let data = Array(bytes[dataStart..<(dataStart + captured)])
                var frame = try packet(data, at: dataStart, fail)
                let (q, overflow) = ts.multipliedReportingOverflow(by: multiplier)
                frame.time = divisor >= 1_000_000_000 ? ts / (divisor / 1_000_000_000) : (overflow ? .max : q)
                for (code, value) in try options(r, (dataStart + (captured + 3) / 4 * 4)..<body.upperBound, fail)
                where code == 1 {
                    if let text = String(validating: bytes[value], as: UTF8.self) {
                        try comment(text, into: &frame, at: value.lowerBound, fail)
                    }
                }
                if frame.event == .reader, let p = guessProtocol(frame.bytes) { protocols.insert(p) }
                frames.append(frame)
            default:
                break
            }
            offset += length
        }
        guard sawSection else { throw AirTrace.Problem("\(file): empty, not a pcapng file") }
        if protocols.isEmpty { protocols = [.iso14443a] }
        var trace = AirTrace(frames: frames, protocols: protocols)
        trace.fillAirTime()
        return trace
    }

    /// A block's options (pcapng §3.5: code, length, value padded to 4) up to `opt_endofopt`, each with its value's
    /// byte range; one that runs past the block is an error at its offset.
    static func options(_ r: Fields, _ area: Range<Int>, _ fail: (Int, String) -> AirTrace.Problem)
        throws(AirTrace.Problem) -> [(code: UInt16, value: Range<Int>)]
    {
        var list: [(code: UInt16, value: Range<Int>)] = []
        var at = area.lowerBound
        while at + 4 <= area.upperBound {
            let code = r.u16(at)
            let len = Int(r.u16(at + 2))
            guard at + 4 + len <= area.upperBound else {
                throw fail(at, "option \(code) of \(len) bytes runs past the block")
            }
            if code == 0 { break }
            list.append((code, (at + 4)..<(at + 4 + len)))
            at += 4 + (len + 3) / 4 * 4
        }
        return list
    }

    static func packet(_ data: [UInt8], at offset: Int, _ fail: (Int, String) -> AirTrace.Problem)
        throws(AirTrace.Problem) -> AirFrame
    {
        guard data.count >= 4 else {
            throw fail(offset, "a link-type 264 packet starts with a 4-byte pseudo-header; this one has \(data.count)")
        }
        guard data[0] == 0 else { throw fail(offset, "pseudo-header version \(data[0]), expected 00") }
        let length = Int(data[2]) << 8 | Int(data[3])
        guard length == data.count - 4 else {
            throw fail(offset + 2, "pseudo-header length \(length) but \(data.count - 4) bytes follow")
        }
        let payload = Array(data[4...])
        switch PseudoEvent(rawValue: data[1]) {
        case .readerData, .readerDataNoCRC: return AirFrame(.reader, time: 0, bytes: payload)
        case .tagData, .tagDataNoCRC: return AirFrame(.tag, time: 0, bytes: payload)
        case .fieldOn: return AirFrame(.fieldOn, time: 0)
        case .fieldOff: return AirFrame(.fieldOff, time: 0)
        case nil: throw fail(offset + 1, "unknown pseudo-header event \(Hex.encode([data[1]]))")
        }
    }

    /// This writer's notes in a packet comment: `bits=N`, `parity=0101…`, `duration=Nns`; other words are kept out.
    static func comment(
        _ text: String, into f: inout AirFrame, at offset: Int, _ fail: (Int, String) -> AirTrace.Problem
    ) throws(AirTrace.Problem) {
        for word in text.split(separator: " ") {
            if word.hasPrefix("bits=") {
                guard let n = Int(word.dropFirst(5)), (1...8).contains(n) else {
                    throw fail(offset, "comment \(word): the bits of the last byte are 1…8")
                }
                f.lastBits = n
            } else if word.hasPrefix("parity=") {
                let p = word.dropFirst(7)
                guard p.count == f.bytes.count, p.allSatisfy({ $0 == "0" || $0 == "1" }) else {
                    throw fail(offset, "comment \(word): one parity bit (0 or 1) per byte is expected")
                }
                f.parity = p.map { $0 == "1" ? 1 : 0 }
            } else if word.hasPrefix("duration="), word.hasSuffix("ns"), let d = UInt64(word.dropFirst(9).dropLast(2)) {
                f.air = AirTime(cycles: ProxmarkTrace.cycles(ns: d))
            }
        }
    }

    /// ISO 14443 A or B, from the reader's requests: WUPA/REQA (one byte `52`/`26`) or WUPB/REQB (`05` with CRC_B).
    static func guessProtocol(_ b: [UInt8]) -> AirProtocol? {
        if b.count == 1, b[0] == 0x26 || b[0] == 0x52 { return .iso14443a }
        if b.count == 5, b[0] == 0x05, CRC.crcB(b.prefix(3)) == UInt16(b[3]) | UInt16(b[4]) << 8 { return .iso14443b }
        return nil
    }

    struct Fields {
        let bytes: [UInt8]
        let bigEndian: Bool
        func u16(_ o: Int) -> UInt16 {
            bigEndian ? UInt16(bytes[o]) << 8 | UInt16(bytes[o + 1]) : UInt16(bytes[o]) | UInt16(bytes[o + 1]) << 8
        }
        func u32(_ o: Int) -> UInt32 {
            let v = (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[o + $1]) << UInt32(8 * $1) }
            return bigEndian ? v.byteSwapped : v
        }
    }
}
