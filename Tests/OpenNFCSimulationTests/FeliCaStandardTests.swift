import Foundation
import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// The card side of the virtual FeliCa Standard card: several systems with their own IDm, the service tree, every
/// command and status path, tag files, hostile frames.
@Suite struct FeliCaStandardTests {
    static let idmA = "012E4CE445055B87"
    static let idmB = "112E4CE445055B87"

    /// System FE00 (common area) with a random RW, a random RO, a cyclic RW and a keyed service; system 0003 with
    /// one random RO service.
    func card() -> FeliCaStandardTag {
        func blocks(_ n: Int, _ seed: UInt8) -> [[UInt8]] {
            (0..<n).map { b in [UInt8](repeating: seed &+ UInt8(b), count: 16) }
        }
        return FeliCaStandardTag(systems: [
            .init(
                code: 0xFE00, idm: h(Self.idmA),
                areas: [.init(code: 0x0000, end: 0xFFFE), .init(code: 0x1000, end: 0x13FF, keyVersion: 0x0102)],
                services: [
                    .init(code: 0x1009, keyVersion: 0x0001, blocks: blocks(4, 0x10)),
                    .init(code: 0x100B, blocks: blocks(2, 0x20)),
                    .init(code: 0x100D, blocks: blocks(3, 0x30)),
                    .init(code: 0x1008, blocks: blocks(2, 0x40)),
                ]),
            .init(
                code: 0x0003, idm: h(Self.idmB), areas: [.init(code: 0x0000, end: 0xFFFE)],
                services: [.init(code: 0x090F, blocks: blocks(1, 0x50))]),
        ])
    }

    static func block(_ v: UInt8) -> String { String(repeating: Hex.encode([v]), count: 16) }

    @Test func severalSystemsAnswerPollingWithTheirOwnIDm() {
        expectTranscript(
            card(),
            """
            00 FFFF 01 00 -> 01 \(Self.idmA) 03014B024F4993FF FE00   # wildcard: the first system
            00 0003 01 00 -> 01 \(Self.idmB) 03014B024F4993FF 0003
            00 00FF 00 00 -> 01 \(Self.idmB) 03014B024F4993FF
            00 FE00 02 00 -> 01 \(Self.idmA) 03014B024F4993FF 0083   # 212/424 kbit/s, automatic
            00 12FC 00 00 -> TIMEOUT                                 # no NDEF system
            0C \(Self.idmA) -> 0D \(Self.idmA) 02 FE00 0003
            0C \(Self.idmB) -> 0D \(Self.idmB) 02 FE00 0003
            """)
    }

    @Test func requestServiceV2SpecificationVersionResponseResetMode() {
        expectTranscript(
            card(),
            """
            02 \(Self.idmA) 04 0000 0010 0910 0A10 -> 03 \(Self.idmA) 04 0000 0201 0100 FFFF   # area, area, service, absent
            32 \(Self.idmA) 02 0910 0810 -> 33 \(Self.idmA) 0000 4F 02 0100 0000                # AES-only key versions
            02 \(Self.idmA) 00 -> TIMEOUT
            04 \(Self.idmA) -> 05 \(Self.idmA) 00
            3C \(Self.idmA) 0000 -> 3D \(Self.idmA) 0000 00 0003 00                              # basic version 3.00
            3E \(Self.idmA) 0000 -> 3F \(Self.idmA) 0000
            3E \(Self.idmA) 01 -> TIMEOUT
            10 \(Self.idmA) 00 -> TIMEOUT                                                        # Authentication1: not public
            """)
    }

    @Test func searchServiceCodeWalksTheTree() {
        expectTranscript(
            card(),
            """
            0A \(Self.idmA) 0000 -> 0B \(Self.idmA) 0000 FEFF   # area 0000-FFFE
            0A \(Self.idmA) 0100 -> 0B \(Self.idmA) 0010 FF13   # area 1000-13FF
            0A \(Self.idmA) 0200 -> 0B \(Self.idmA) 0810        # service 1008
            0A \(Self.idmA) 0500 -> 0B \(Self.idmA) 0D10
            0A \(Self.idmA) 0600 -> 0B \(Self.idmA) FFFF        # end of the list
            """)
    }

    @Test func readAndWriteAcrossServicesWithEveryStatus() {
        let tag = card()
        expectTranscript(
            tag,
            """
            06 \(Self.idmA) 02 0910 0B10 03 8000 8101 000300 -> 07 \(Self.idmA) 0000 03 \(Self.block(0x10)) \(Self.block(0x21)) \(Self.block(0x13))
            06 \(Self.idmA) 01 0810 01 8000 -> 07 \(Self.idmA) 01A5            # keyed service
            06 \(Self.idmA) 01 0A10 01 8000 -> 07 \(Self.idmA) FFA6            # no such service
            06 \(Self.idmA) 01 0910 01 8100 -> 07 \(Self.idmA) 01A3            # service index 1 of 1
            06 \(Self.idmA) 01 0910 02 8000 9001 -> 07 \(Self.idmA) 02A7       # access mode 1
            06 \(Self.idmA) 01 0910 01 8004 -> 07 \(Self.idmA) 01A8            # past the service
            06 \(Self.idmA) 00 01 8000 -> 07 \(Self.idmA) FFA1
            06 \(Self.idmA) 01 0910 10 8000 -> 07 \(Self.idmA) FFA2            # 16 blocks, truncated
            08 \(Self.idmA) 01 0910 01 8002 \(Self.block(0xAA)) -> 09 \(Self.idmA) 0000
            06 \(Self.idmA) 01 0910 01 8002 -> 07 \(Self.idmA) 0000 01 \(Self.block(0xAA))
            08 \(Self.idmA) 01 0B10 01 8000 \(Self.block(0xAA)) -> 09 \(Self.idmA) 01A4   # read-only service
            08 \(Self.idmA) 01 0D10 01 8000 \(Self.block(0xBB)) -> 09 \(Self.idmA) 0000   # cyclic: a new record
            06 \(Self.idmA) 01 0D10 03 8000 8001 8002 -> 07 \(Self.idmA) 0000 03 \(Self.block(0xBB)) \(Self.block(0x30)) \(Self.block(0x31))
            08 \(Self.idmA) 01 0D10 01 8001 \(Self.block(0xBB)) -> 09 \(Self.idmA) 01A8   # cyclic writes go to block 0
            08 \(Self.idmA) 01 0910 01 8000 00 -> 09 \(Self.idmA) FFA2
            06 \(Self.idmB) 01 0F09 01 8000 -> 07 \(Self.idmB) 0000 01 \(Self.block(0x50))   # the other system
            06 \(Self.idmB) 01 0910 01 8000 -> 07 \(Self.idmB) FFA6                          # not in system 0003
            06 0102030405060708 01 0910 01 8000 -> TIMEOUT
            """)
    }

    @Test func aTornWriteCommitsAllOrNothing() {
        let tag = card()
        let frame = h("08 \(Self.idmA) 01 0910 02 8000 8001 \(Self.block(0x77)) \(Self.block(0x88))")
        #expect(tag.receive(frame, tearAfter: 31) == .silence)
        #expect(tag.systems[0].services[0].blocks[0] == [UInt8](repeating: 0x10, count: 16))
        #expect(tag.receive(frame, tearAfter: 32) == .silence)
        #expect(tag.systems[0].services[0].blocks[1] == [UInt8](repeating: 0x88, count: 16))
    }

    @Test func tagFileRoundTripAndErrors() throws {
        let tag = card()
        let json = try TagFile.encodeJSON(tag)
        let back = try TagFile.decodeJSON(json)
        #expect(try TagFile.encodeJSON(back) == json)
        #expect((back as? FeliCaStandardTag)?.systems == tag.systems)
        let fresh = try TagFile.factory(chip: "felica-standard", uid: h(Self.idmA), holding: nil)
        #expect(
            TagFile.chip(for: fresh)?.report?(fresh)?.lines.contains(
                "  Service 100D: cyclic, read/write, no key, 4 blocks") == true)
        #expect(throws: TagFileError.self) {
            try TagFile.decodeJSON(json.replacingOccurrences(of: "\"blocks\"", with: "\"block\""))
        }
    }

    /// An unknown key inside a system, area or service object is an error naming the file, the JSON path and the
    /// node (system, area or service by code), not silently ignored.
    @Test func unknownKeysInsideSystemsAreasAndServicesAreRejectedByName() throws {
        let json = try TagFile.encodeJSON(card())
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("felica-keys-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let cases: [(from: String, to: String, expected: String)] = [
            (
                "\"code\": \"100B\"", "\"code\": \"100B\", \"colour\": \"red\"",
                "field 'felicaStandard.systems[0].services[1].colour': unknown field 'colour' in service 100B of "
                    + "system FE00 (known: blocks, code, keyVersion)"
            ),
            (
                "\"end\": \"13FF\"", "\"end\": \"13FF\", \"parent\": 0",
                "field 'felicaStandard.systems[0].areas[1].parent': unknown field 'parent' in area 1000 of system FE00"
            ),
            (
                "\"code\": \"0003\"", "\"code\": \"0003\", \"name\": \"transit\"",
                "field 'felicaStandard.systems[1].name': unknown field 'name' in system 0003 (known: areas, code, "
                    + "idm, services)"
            ),
        ]
        for (n, c) in cases.enumerated() {
            #expect(json.contains(c.from), "\(c.from) not in \(json)")
            let path = dir.appendingPathComponent("\(n).json").path
            try json.replacingOccurrences(of: c.from, with: c.to).write(toFile: path, atomically: true, encoding: .utf8)
            do {
                _ = try TagFile.read(path: path)
                Issue.record("\(c.to) was accepted")
            } catch {
                #expect(error.file == path)
                #expect("\(error)".hasPrefix("\(path): \(c.expected)"), "\(error)")
            }
        }
    }

    @Test func twentyThousandHostileFramesNeverTrap() {
        var rng = SeededGenerator(seed: 0xFE11_CA01)
        let tag = card()
        let idm = h(Self.idmA)
        var answered = 0
        for i in 0..<20_000 {
            if i % 500 == 0 { tag.powerOn() }
            let length = Int.random(in: 0...48, using: &rng)
            var frame = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if length > 9, Int.random(in: 0..<4, using: &rng) > 0 {
                frame[0] = [0x00, 0x02, 0x04, 0x06, 0x08, 0x0A, 0x0C, 0x32, 0x3C, 0x3E].randomElement(using: &rng)!
                frame.replaceSubrange(1..<9, with: idm)
                if length > 12, Int.random(in: 0..<2, using: &rng) == 0 {
                    frame[9] = 1
                    frame[10...11] = [[0x09, 0x10], [0x0D, 0x10], [0x0B, 0x10]].randomElement(using: &rng)![...]
                }
            }
            let tear = Int.random(in: 0..<50, using: &rng) == 0 ? Int.random(in: 0...40, using: &rng) : nil
            if case .data = tag.receive(frame, tearAfter: tear) { answered += 1 }
        }
        #expect(answered > 1_000)
        #expect(tag.systems.count == 2 && tag.systems[0].services.allSatisfy { !$0.blocks.isEmpty })
    }
}
