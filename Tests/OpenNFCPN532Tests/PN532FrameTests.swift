import OpenNFCPN532
import OpenNFCTestSupport
import Testing

/// The host frames of UM0701-02 §6.2.1, both directions from one golden table.
@Suite struct PN532FrameTests {
    /// Frame → its bytes on the link. Provenance: the GetFirmwareVersion command is the manual's own example
    /// (UM0701-02 §7.2.2, also quoted in NXP's community forum); the answers `D5 03 32 01 06 07`, `D5 15`, `D5 11`
    /// are the byte strings nfcpy 1.0.4 (`nfc/clf/pn532.py`) requires of a PN532; the InDataExchange READ was
    /// captured from libnfc 1.8.0; the rest are computed from the §6.2.1 checksum rules.
    static let golden: [(PN532Frame, String, String)] = [
        (.ack, "00 00 FF 00 FF 00", "ACK"),
        (.nack, "00 00 FF FF 00 00", "NACK"),
        (.syntaxError, "00 00 FF 01 FF 7F 81 00", "application-level error"),
        (.command(0x02), "00 00 FF 02 FE D4 02 2A 00", "GetFirmwareVersion"),
        (.information(tfi: 0xD5, data: h("0332010607")), "00 00 FF 06 FA D5 03 32 01 06 07 E8 00", "its answer"),
        (.command(0x14, [0x01]), "00 00 FF 03 FD D4 14 01 17 00", "SAMConfiguration normal"),
        (.information(tfi: 0xD5, data: [0x15]), "00 00 FF 02 FE D5 15 16 00", "SAMConfiguration answer"),
        (.information(tfi: 0xD5, data: [0x11]), "00 00 FF 02 FE D5 11 1A 00", "SetSerialBaudRate answer"),
        (.command(0x40, h("013004")), "00 00 FF 05 FB D4 40 01 30 04 B7 00", "InDataExchange READ 4"),
        (.command(0x4A, h("0100")), "00 00 FF 04 FC D4 4A 01 00 E1 00", "InListPassiveTarget 106 A"),
    ]

    @Test func goldenTableEncodes() {
        for (frame, hex, name) in Self.golden {
            #expect(frame.encoded == h(hex), "\(name)")
        }
    }

    @Test func goldenTableDecodes() throws {
        for (frame, hex, name) in Self.golden {
            #expect(try PN532Frame(decoding: h(hex)) == frame, "\(name)")
        }
    }

    @Test func extendedFramesAboveTwoHundredFiftyFourDataBytes() throws {
        // 263 data bytes (nfcpy's Diagnose line test): TFI + 264 = 265 = 01 09, LCS = -(01 + 09) = F6.
        let data: [UInt8] = [0x00, 0x00] + (0..<262).map { UInt8(truncatingIfNeeded: $0) }
        let frame = PN532Frame.information(tfi: 0xD4, data: data)
        let bytes = frame.encoded
        #expect(Array(bytes[0..<8]) == h("0000FFFFFF0109F6"))
        #expect(bytes.count == 8 + 265 + 2)
        #expect(try PN532Frame(decoding: bytes) == frame)
        // LEN 255 cannot be normal (FF would read as the extended marker).
        let edge = PN532Frame.information(tfi: 0xD5, data: [UInt8](repeating: 7, count: 254))
        #expect(Array(edge.encoded[3..<8]) == h("FFFF00FF01"))
        #expect(try PN532Frame(decoding: edge.encoded) == edge)
        // The largest normal frame: LEN FE.
        let normal = PN532Frame.information(tfi: 0xD5, data: [UInt8](repeating: 7, count: 253))
        #expect(Array(normal.encoded[3..<5]) == h("FE02"))
    }

    @Test func badChecksumsNameTheByte() {
        func code(_ hex: String) -> (PN532FrameError.Code, Int)? {
            do {
                _ = try PN532Frame(decoding: h(hex))
                return nil
            } catch {
                return (error.code, error.offset)
            }
        }
        #expect(code("00 00 FF 02 FD D4 02 2A 00")! == (.lengthChecksum, 4))
        #expect(code("00 00 FF 02 FE D4 02 2B 00")! == (.dataChecksum, 7))
        #expect(code("00 00 FF 02 FE D4 02 2A 01")! == (.postamble, 8))
        #expect(code("00 00 FF FF FF 01 09 F5")! == (.lengthChecksum, 7))
        #expect(code("00 00 FF 02 FE D6 02 28 00")! == (.frameIdentifier, 5))
        #expect(code("00 00 FF 02 FE D4 02")! == (.truncated, 7))
        #expect(code("00 00 FF 00 FF 00 00")! == (.trailingBytes, 6))
        #expect(code("55 00 00 FF 00 FF 00")! == (.startCode, 0))
        #expect(code("")! == (.startCode, 0))
        let message = (try? PN532Frame(decoding: h("00 00 FF 02 FE D4 02 2B 00"))).map { "\($0)" }
        #expect(message == nil)
    }

    @Test func streamSkipsWakeUpAndNoiseAndResumesAfterAnError() throws {
        var d = PN532FrameDecoder()
        // HSU wake-up, then a command split in three reads.
        d.append(h("55 55 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 FF"))
        #expect(try d.next() == nil)
        d.append(h("02 FE D4"))
        #expect(try d.next() == nil)
        d.append(h("02 2A 00 00 00 FF 00 FF 00"))
        #expect(try d.next() == .command(0x02))
        #expect(try d.next() == .ack)
        // A garbled frame throws once with its stream offset, and the next frame still decodes.
        d.append(h("00 00 FF 02 FE D5 03 00 00") + PN532Frame.information(tfi: 0xD5, data: [0x15]).encoded)
        do {
            _ = try d.next()
            Issue.record("a bad DCS must throw")
        } catch {
            #expect(error.code == .dataChecksum)
            #expect(error.offset == 19 + 3 + 9 + 7)
            #expect("\(error)".contains("at byte \(error.offset)"))
        }
        #expect(try d.next() == .information(tfi: 0xD5, data: [0x15]))
        #expect(try d.next() == nil)
    }
}
