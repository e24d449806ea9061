import OpenNFCBytes
import OpenNFCPN532
import OpenNFCPN532Emulator
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// The virtual PN532's frame limits and the statuses it returns for a tag that is not there (UM0701-02 §7.1 error
/// codes, §7.3.8 InDataExchange): what libnfc and our driver rely on when a tag leaves or an answer is long.
@Suite struct VirtualPN532LimitsTests {
    func chip(_ tags: [any VirtualTag]) -> (VirtualField, InProcessHost) {
        let field = VirtualField(clock: VirtualClock(), timing: .instant)
        for (i, t) in tags.enumerated() { field.place(t, at: i) }
        return (field, InProcessHost(VirtualPN532(field: field)))
    }

    /// An ISO-DEP answer longer than 262 bytes comes back in parts: status bit 6 (MI) on all but the last, the host
    /// asking for the rest with Tg alone.
    @Test func aLongAnswerIsChainedWithMI() throws {
        // A Text record of 703 payload bytes (SR off: a 4-byte payload length).
        let long =
            [0xC1, 0x01, 0x00, 0x00, 0x02, 0xBF, 0x54] + [0x02] + Array("en".utf8)
            + [UInt8](repeating: 0x41, count: 700)
        let configuration = Type4Configuration(mle: 0x0400, extendedLength: true)
        let t4 = try Type4Tag.factory(uid: h("04C1C2C3C4C5C6"), holding: long, configuration: configuration)
        let (_, host) = chip([t4])
        #expect(Array(try host.command(0x4A, h("0100")).prefix(3)) == h("4B 01 01"))
        #expect(try host.status(0x40, h("01 00A4040007D276000085010100")) == (0x00, h("9000")))
        #expect(try host.status(0x40, h("01 00A4000C02E104")) == (0x00, h("9000")))
        // READ BINARY with an extended Le of 400: 402 bytes of answer.
        let (first, part1) = try host.status(0x40, h("01 00B0000000 0190"))
        #expect(first == 0x40 && part1.count == 262)
        let (last, part2) = try host.status(0x40, [0x01])
        #expect(last == 0x00 && part2.count == 140)
        let file = [UInt8(long.count >> 8), UInt8(long.count & 0xFF)] + long
        #expect(part1 + part2 == Array(file.prefix(400)) + h("9000"))
    }

    /// Data chained by the host (Tg bit 6) beyond the chip's 4 KB buffer is refused with status 0E.
    @Test func hostChainingBeyondTheBufferIsRefused() throws {
        let t4 = try Type4Tag.factory(uid: h("04C1C2C3C4C5C6"), holding: h("D10100"))
        let (_, host) = chip([t4])
        _ = try host.command(0x4A, h("0100"))
        let chunk = [UInt8](repeating: 0x00, count: 250)
        for _ in 0..<16 { #expect(try host.status(0x40, [0x41] + chunk).0 == 0x00) }  // 4000 bytes held
        #expect(try host.status(0x40, [0x41] + chunk).0 == 0x0E)
    }

    /// A tag that left the field: InDataExchange answers status 01 (time-out), a target number never listed 27.
    @Test func aTagThatLeftTheFieldIsATimeOut() throws {
        let ntag = try Type2Tag.factory(.ntag215, uid: h("04A1B2C3D4E580"), holding: h("D10100"))
        let (field, host) = chip([ntag])
        _ = try host.command(0x4A, h("0100"))
        #expect(try host.status(0x40, h("01 30 00")).0 == 0x00)
        field.removeAll()
        #expect(try host.status(0x40, h("01 30 00")).0 == 0x01)
        #expect(try host.status(0x42, CRC.appendingCRCA(h("3000"))).0 == 0x01)
        #expect(try host.status(0x40, h("02 30 00")).0 == 0x27)
    }

    /// Our driver turns those statuses into errors that say what happened: a wrong key names the block, the key and
    /// status 14; a tag gone from the field is a time-out, not a hang.
    @Test func theDriverNamesAFailedAuthenticationAndAMissingTag() throws {
        let classic = try MifareClassicTag(model: .classic1K, uid: h("DEADBEEF"))
        let field = VirtualField(clock: VirtualClock(), timing: .instant)
        field.place(classic)
        let frontend = try PN532Frontend(transport: LoopbackTransport(VirtualPN532(field: field)))
        _ = try frontend.activate(try #require(try frontend.poll([.nfcA]).first))
        #expect {
            try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: h("010203040506")))
        } throws: { error in
            (error as? RFError)?.detail == "authentication of block 4 with key A failed (PN532 status 14: wrong key)"
        }
        let t = try #require(try frontend.poll([.nfcA]).first)
        _ = try frontend.activate(t)
        field.removeAll()
        #expect {
            _ = try frontend.exchange([0x30, 0x04])
        } throws: { error in
            guard let e = error as? RFError else { return false }
            return e.code == .timeout
        }
    }
}
