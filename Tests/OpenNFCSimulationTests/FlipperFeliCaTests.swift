import Foundation
import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// Flipper Zero `.nfc` FeliCa files (device type `FeliCa`, data format version 2): a Lite-S's 28 blocks and a FeliCa
/// Standard card's areas, services and public blocks, imported to the virtual cards and exported back.
@Suite struct FlipperFeliCaTests {
    static let idm = h("01 2E 4C E4 45 05 5B 87")

    static func blocks(_ n: Int, _ seed: UInt8) -> [[UInt8]] {
        (0..<n).map { b in [UInt8](repeating: seed &+ UInt8(b), count: 16) }
    }

    @Test func aLiteSRoundTripsThroughItsTwentyEightBlocks() throws {
        let card = try FeliCaLiteSTag.factory(
            idm: Self.idm, holding: [0xD1, 0x01, 0x04, 0x54, 0x02] + Array("enx".utf8))
        card.mc[3] = 0x01
        card.writeCount = 0x01_0203
        let text = try FlipperNFCFile.encode(card)
        #expect(text.contains("Device type: FeliCa\n"))
        #expect(text.contains("Manufacture parameter: 00 F1 00 00 00 01 43 00\nIC Type: FeliCa Lite-S RC-S966\n"))
        #expect(text.contains("Blocks total: 28\nBlocks read: 28\n"))
        // Block 18 is D_ID (IDm, PMm), block 23 MC, block 24 WCNT (little-endian), each after SF1 SF2.
        #expect(text.contains("Block 18: 00 00 01 2E 4C E4 45 05 5B 87 00 F1 00 00 00 01 43 00\n"))
        #expect(text.contains("Block 23: 00 00 FF FF FF 01 07 00 00 00 00 00 00 00 00 00 00 00\n"))
        #expect(text.contains("Block 24: 00 00 03 02 01 00 00 00 00 00 00 00 00 00 00 00 00 00\n"))
        let back = try #require(try FlipperNFCFile.decodeAnyChip(text) as? FeliCaLiteSTag)
        #expect(back.user == card.user && back.mc == card.mc && back.writeCount == card.writeCount)
        #expect(back.idm == card.idm && back.pmm == card.pmm && back.sysC == card.sysC && back.serC == card.serC)
        #expect(back.ndefMessage == card.ndefMessage)
        #expect(try FlipperNFCFile.encode(back) == text)
        #expect(FlipperNFCFile.exportLoss(card) == nil)
    }

    @Test func aStandardCardExportsItsFirstSystemAndImportsItBack() throws {
        let card = FeliCaStandardTag(systems: [
            .init(
                code: 0xFE00, idm: Self.idm,
                areas: [.init(code: 0x0000, end: 0xFFFE), .init(code: 0x1000, end: 0x10BE)],
                services: [
                    .init(code: 0x100B, blocks: Self.blocks(2, 0x20)),
                    .init(code: 0x1009, blocks: Self.blocks(3, 0x10)),
                    .init(code: 0x108D, blocks: Self.blocks(2, 0x30)),
                    .init(code: 0x1008, keyVersion: 0x0102, blocks: Self.blocks(2, 0x40)),
                ]),
            .init(
                code: 0x0003, idm: h("11 2E 4C E4 45 05 5B 87"), areas: [.init(code: 0x0000, end: 0xFFFE)],
                services: [.init(code: 0x090F, blocks: Self.blocks(1, 0x50))]),
        ])
        let text = try FlipperNFCFile.encode(card)
        let expected = [
            "Area found: 2",
            "Area 000: | Code 0000 | Services #000-#003 |",
            "Area 001: | Code 1000 | Services #000-#003 |",
            "Service found: 4",
            "Service 000: | Code 1008 | Attrib. 08 | Private | Random | Read/Write |",
            "Service 001: | Code 1009 | Attrib. 09 | Public  | Random | Read/Write |",
            "Service 003: | Code 108D | Attrib. 0D | Public  | Cyclic | Read/Write |",
            "Directory Tree: ",
            "|- serv_1008",
            "+- serv_1009",
            "Public blocks read: 7",
            "Block 0000: | Service code 1009 | Block index 00 | Data: \(Hex.encode(Self.blocks(1, 0x10)[0], separator: " ")) |",
            "Block 0006: | Service code 108D | Block index 01 | Data: \(Hex.encode(Self.blocks(2, 0x30)[1], separator: " ")) |",
        ]
        for line in expected { #expect(text.contains(line + "\n"), "\(line)") }
        #expect(
            FlipperNFCFile.exportLoss(card)
                == "Flipper's FeliCa format does not store systems 0003 (one system only), the system code FE00 (it "
                + "imports as 0003), the blocks of 1008 (services with a key), key versions")

        let back = try #require(try FlipperNFCFile.decodeAnyChip(text) as? FeliCaStandardTag)
        #expect(back.systems.count == 1 && back.systems[0].code == 0x0003 && back.systems[0].idm == Self.idm)
        #expect(back.pmm == card.pmm)
        #expect(back.systems[0].areas == [.init(code: 0x0000, end: 0xFFFE), .init(code: 0x1000, end: 0x10BE)])
        let services = card.systems[0].services.sorted { $0.code < $1.code }
        #expect(back.systems[0].services.map(\.code) == services.map(\.code))
        for (b, s) in zip(back.systems[0].services, services) where !s.needsKey { #expect(b.blocks == s.blocks) }
        // The keyed service's blocks are not in the file: one zero block; its key version is 0.
        #expect(back.systems[0].services[0] == .init(code: 0x1008, blocks: [[UInt8](repeating: 0, count: 16)]))
        #expect(try FlipperNFCFile.encode(back) == text)
        // The imported card answers as the original's first system did.
        #expect(
            back.receive(h("06 \(Hex.encode(Self.idm)) 01 8D10 01 8001"), tearAfter: nil)
                == .data(h("07 \(Hex.encode(Self.idm)) 0000 01") + Self.blocks(2, 0x30)[1]))
    }

    /// A file laid out as flipperzero-firmware's felica_save writes one (this test's own text, from that layout:
    /// comments, the IC Type line, a blank line, the Directory Tree drawn over colon-free lines).
    @Test func aFileAsFlipperWritesItImports() throws {
        let text = """
            Filetype: Flipper NFC device
            Version: 4
            # Device type can be ISO14443-3A, ISO14443-3B, ISO14443-4A, ISO14443-4B, ISO15693-3, FeliCa, NTAG/Ultralight, Mifare Classic, Mifare Plus, Mifare DESFire, SLIX, ST25TB, EMV
            Device type: FeliCa
            # UID is common for all formats
            UID: 01 2E 4C E4 45 05 5B 87
            # FeliCa specific data
            Data format version: 2
            Manufacture id: 01 2E 4C E4 45 05 5B 87
            Manufacture parameter: 01 20 22 04 27 67 77 FF
            IC Type: FeliCa Standard RC-S962

            # Felica Standard specific data
            Area found: 1
            Area 000: | Code 0000 | Services #000-#001 |

            Service found: 2
            Service 000: | Code 090F | Attrib. 0F | Public  | Random | Read Only  |
            Service 001: | Code 1808 | Attrib. 08 | Private | Random | Read/Write |

            Directory Tree:
            +++ ... are public services
            ||| ... are private services
            - AREA_0000/
            +- serv_090F
            |- serv_1808
            Public blocks read: 2
            Block 0000: | Service code 090F | Block index 00 | Data: 16 01 00 02 16 6C E3 3B E6 21 0A 00 00 01 E3 00 |
            Block 0001: | Service code 090F | Block index 01 | Data: 16 01 00 02 16 6B E3 36 E3 38 AA 00 00 01 E1 00 |
            """
        let card = try #require(try FlipperNFCFile.decodeAnyChip(text) as? FeliCaStandardTag)
        #expect(card.pmm == h("01 20 22 04 27 67 77 FF"))
        #expect(card.systems[0].services.map(\.code) == [0x090F, 0x1808])
        #expect(card.systems[0].services[0].blocks[1] == h("16 01 00 02 16 6B E3 36 E3 38 AA 00 00 01 E1 00"))
        #expect(card.systems[0].services[1].blocks.count == 1)
    }

    @Test func badFilesAreRefusedByLine() {
        let base = try! FlipperNFCFile.encode(try! FeliCaLiteSTag.factory(idm: Self.idm))
        func error(_ edit: (String) -> String) -> String {
            do {
                _ = try FlipperNFCFile.decodeAnyChip(edit(base))
                return "accepted"
            } catch {
                return "\(error)"
            }
        }
        #expect(
            error { $0.replacingOccurrences(of: "UID: 01 2E", with: "UID: 02 2E") }
                == "line 6: field 'UID': the UID is not the Manufacture id (IDm)")
        #expect(
            error { $0.replacingOccurrences(of: "00 F1 00 00 00 01 43 00\nIC", with: "00 F0 00 00 00 01 43 00\nIC") }
                .hasSuffix("PMm IC code F0 is not a FeliCa Lite-S (F1), the Lite card this simulator has"))
        #expect(
            error { $0.replacingOccurrences(of: "Blocks total: 28", with: "Blocks total: 27") }
                .hasSuffix("field 'Blocks total': a FeliCa Lite-S dump has 28 blocks"))
        #expect(
            error { $0.replacingOccurrences(of: "Block 18: 00 00 01", with: "Block 18: 00 00 02") }
                .hasSuffix("field 'Block 18': D_ID (IDm and PMm) does not match Manufacture id/parameter"))
        #expect(
            error { $0.replacingOccurrences(of: "Data format version: 2", with: "Data format version: 3") }
                .hasSuffix("data format version '3' is not supported (1 and 2 are)"))
        #expect(error { $0.replacingOccurrences(of: "Block 5: ", with: "Block 5 ") }.hasSuffix("expected 'Key: value'"))
    }
}
