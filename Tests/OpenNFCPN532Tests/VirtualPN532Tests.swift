import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCPN532
import OpenNFCPN532Emulator
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// A host that talks to a virtual PN532 in process: frames encoded and decoded with the driver's codec (the two
/// readings of UM0701-02 §6.2.1 meet here).
final class InProcessHost {
    let chip: VirtualPN532
    init(_ chip: VirtualPN532) { self.chip = chip }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends `D4 code params`, expects the ACK, returns the answer data after `D5` (code + 1 first).
    func command(_ code: UInt8, _ parameters: [UInt8] = []) throws -> [UInt8] {
        try frames(chip.serve(PN532Frame.command(code, parameters).encoded))
    }

    func frames(_ out: [UInt8]) throws -> [UInt8] {
        var d = PN532FrameDecoder()
        d.append(out)
        guard try d.next() == .ack else { throw Failure(description: "no ACK in \(out.hexString)") }
        guard case .information(0xD5, let data)? = try d.next() else {
            throw Failure(description: "no answer in \(out.hexString)")
        }
        return data
    }

    /// `code` + status + data of an In… command, checking the answer code.
    func status(_ code: UInt8, _ parameters: [UInt8]) throws -> (UInt8, [UInt8]) {
        let a = try command(code, parameters)
        guard a.count >= 2, a[0] == code + 1 else { throw Failure(description: "bad answer \(a.hexString)") }
        return (a[1], Array(a.dropFirst(2)))
    }
}

@Suite struct VirtualPN532Tests {
    static let ntagUID = h("04A1B2C3D4E580")

    func chip(_ tags: [any VirtualTag]) -> (VirtualPN532, InProcessHost) {
        let field = VirtualField(clock: VirtualClock(), timing: .instant)
        for (i, t) in tags.enumerated() { field.place(t, at: i) }
        let c = VirtualPN532(field: field)
        return (c, InProcessHost(c))
    }

    @Test func libnfcOpenSequenceWithWakeUp() throws {
        let (c, host) = chip([])
        // HSU wake-up (55 55 and zeros) then SAMConfiguration normal mode in one write, as libnfc sends it.
        let wake = h("5555") + [UInt8](repeating: 0, count: 14)
        #expect(try host.frames(c.serve(wake + PN532Frame.command(0x14, [0x01]).encoded)) == [0x15])
        #expect(try host.command(0x00, h("006C69626E6663")) == h("01006C69626E6663"))  // Diagnose line test
        #expect(try host.command(0x02) == h("0332010607"))
        #expect(try host.command(0x12, [0x14]) == [0x13])
        // nfcpy's 263-byte line test comes back whole, in an extended frame.
        let long: [UInt8] = [0x00] + (0..<262).map { UInt8(truncatingIfNeeded: $0) }
        let out = c.serve(PN532Frame.command(0x00, long).encoded)
        #expect(Array(out[6..<11]) == h("0000FFFFFF"))
        #expect(try host.frames(out) == [0x01] + long)
    }

    @Test func malformedAndUnknownFramesGetTheSyntaxErrorFrameAndNACKResends() throws {
        let (c, host) = chip([])
        #expect(c.serve(h("0000FF02FED4022B00")) == h("0000FF01FF7F8100"))  // bad DCS
        #expect(c.serve(PN532Frame.command(0x7E).encoded) == h("0000FF00FF00 0000FF01FF7F8100"))  // unknown code
        #expect(c.serve(PN532Frame.command(0x06, [0x63]).encoded).suffix(8) == h("0000FF01FF7F8100"))  // odd address
        let answer = PN532Frame.information(tfi: 0xD5, data: h("0332010607")).encoded
        #expect(c.serve(PN532Frame.command(0x02).encoded) == PN532Frame.ack.encoded + answer)
        #expect(c.serve(PN532Frame.nack.encoded) == answer)
        _ = host
    }

    @Test func registersAndBaudRate() throws {
        let (c, host) = chip([])
        #expect(try host.command(0x08, h("6302806303806305 40")) == [0x09])
        #expect(try host.command(0x06, h("630263036305630D")) == h("07808040 00"))
        #expect(try host.command(0x10, [0x07]) == [0x11])
        #expect(c.baudRate == 115_200)  // switched only after the host's ACK
        _ = c.serve(PN532Frame.ack.encoded)
        #expect(c.baudRate == 921_600)
        #expect(try host.command(0x32, h("0102")) == [0x33])
        #expect(try host.command(0x32, h("02000B0A")) == [0x33])
        #expect(throws: InProcessHost.Failure.self) { try host.command(0x32, h("0200")) }  // item 02 takes 3 bytes
        #expect(try host.command(0x16, h("F0")) == [0x17, 0x00])
        #expect(c.isAsleep)
    }

    @Test func listsAnNTAGAndStopsWhenItIsHalted() throws {
        let ntag = try Type2Tag.factory(.ntag215, uid: Self.ntagUID, holding: h("D1010454027A7A7A"))
        let (_, host) = chip([ntag])
        // The captured answer of a real NTAG215 through libnfc: Tg 1, SENS_RES 00 44, SEL_RES 00, 7-byte UID.
        #expect(try host.command(0x4A, h("0100")) == h("4B 01 01 0044 00 07") + Self.ntagUID)
        let (s, page0) = try host.status(0x40, h("01 30 00"))
        #expect(s == 0x00 && Array(page0.prefix(7)) == Array(ntag.memory[0..<7]))
        #expect(try host.command(0x44, [0x00]) == h("4500"))  // InDeselect: HLTA
        #expect(try host.command(0x4A, h("0100")) == h("4B00"))  // REQA: the halted tag is silent
        // Naming its UID (with the cascade tag) wakes it, as libfreefare re-selects.
        #expect(Array(try host.command(0x4A, h("0100 88") + Self.ntagUID).prefix(2)) == h("4B01"))
        #expect(try host.command(0x52, [0x00]) == h("5300"))
        // RF off and on: every tag loses power and leaves HALT.
        #expect(try host.command(0x32, h("0100")) == [0x33])
        #expect(try host.command(0x32, h("0101")) == [0x33])
        #expect(Array(try host.command(0x4A, h("0100")).prefix(2)) == h("4B01"))
        #expect(try host.status(0x40, h("02 30 00")).0 == 0x27)  // no Tg 2
    }

    @Test func rawFramesFollowTheCRCAndBitRegisters() throws {
        let ntag = try Type2Tag.factory(.ntag215, uid: Self.ntagUID)
        let (c, host) = chip([ntag])
        _ = try host.command(0x4A, h("0100"))
        // CRC off both ways (nfc-mfultralight's GET_VERSION with the host's CRC): the answer keeps its CRC_A.
        _ = try host.command(0x08, h("630200 630300"))
        let (s, version) = try host.status(0x42, CRC.appendingCRCA([0x60]))
        #expect(s == 0 && version == CRC.appendingCRCA(h("0004040201001103")))
        // A wrong CRC from the host: the tag ignores the frame.
        #expect(try host.status(0x42, h("60F833")).0 == 0x01)
        // ACK nibble: one byte, RxLastBits 4 in Control (633C).
        let write = CRC.appendingCRCA(h("A2 04 01020304"))
        #expect(try host.status(0x42, write) == (0x00, [0x0A]))
        #expect(try host.command(0x06, h("633C")) == h("0704"))
        // An empty InCommunicateThru only listens: nothing answers.
        #expect(try host.status(0x42, []).0 == 0x01)
        _ = c
    }

    @Test func rawAnticollisionAsNfcAnticolDoesIt() throws {
        let ntag = try Type2Tag.factory(.ntag215, uid: Self.ntagUID)
        let (_, host) = chip([ntag])
        _ = try host.command(0x08, h("633D07"))
        #expect(try host.status(0x42, [0x26]) == (0x00, h("4400")))
        _ = try host.command(0x08, h("633D00 630200 630300"))
        #expect(try host.status(0x42, h("9320")) == (0x00, h("8804A1B29F")))
        #expect(try host.status(0x42, CRC.appendingCRCA(h("9370 8804A1B29F"))) == (0x00, CRC.appendingCRCA([0x04])))
        #expect(try host.status(0x42, h("9520")) == (0x00, h("C3D4E58072")))
        #expect(try host.status(0x42, CRC.appendingCRCA(h("9570 C3D4E58072"))) == (0x00, CRC.appendingCRCA([0x00])))
        // Selected: a READ through InCommunicateThru reaches it.
        #expect(try host.status(0x42, CRC.appendingCRCA(h("3000"))).0 == 0x00)
    }

    @Test func classicAuthenticationByTheChip() throws {
        let classic = try MifareClassicTag(model: .classic1K, uid: h("DEADBEEF"))
        let (_, host) = chip([classic])
        #expect(try host.command(0x4A, h("0100")) == h("4B 01 01 0004 08 04 DEADBEEF"))
        let keyA = h("FFFFFFFFFFFF")
        #expect(try host.status(0x40, h("01 60 04") + keyA + h("DEADBEEF")) == (0x00, []))
        let (s, block) = try host.status(0x40, h("01 30 04"))
        #expect(s == 0x00 && block.count == 16)
        #expect(try host.status(0x40, h("01 A0 04") + [UInt8](repeating: 0x5A, count: 16)) == (0x00, []))
        #expect(try host.status(0x40, h("01 30 04")) == (0x00, [UInt8](repeating: 0x5A, count: 16)))
        // A wrong key: status 14 and the card halts; re-selecting by UID brings it back.
        #expect(try host.status(0x40, h("01 61 08 A0A1A2A3A4A5 DEADBEEF")).0 == 0x14)
        #expect(Array(try host.command(0x4A, h("0100 DEADBEEF")).prefix(2)) == h("4B01"))
        #expect(try host.status(0x40, h("01 60 08") + keyA + h("DEADBEEF")).0 == 0x00)
        // A UID that is not the card's fails like a wrong key.
        #expect(try host.status(0x40, h("01 60 08") + keyA + h("01020304")).0 == 0x14)
    }

    /// mfoc's path: AUTH in the clear with the host's CRC, then {nR}{aR} with parity disabled, Crypto1 on the host.
    @Test func hostSideCrypto1WithParityDisabled() throws {
        let classic = try MifareClassicTag(model: .classic1K, uid: h("DEADBEEF"))
        let (_, host) = chip([classic])
        _ = try host.command(0x4A, h("0100"))
        _ = try host.command(0x08, h("630200 630300"))
        let (s, nonce) = try host.status(0x42, CRC.appendingCRCA(h("6003")))
        #expect(s == 0x00 && nonce.count == 4)
        let nT = UInt32(mifareBytes: nonce)
        var cipher = Crypto1(key: h("FFFFFFFFFFFF"))
        _ = cipher.shift(word: 0xDEADBEEF ^ nT)
        let nR = cipher.encryptReaderNonce(h("01020304"))
        let aR = cipher.encrypt(MifareNonce.successor(nT, 64).mifareBytes)
        _ = try host.command(0x08, h("630D10"))
        let (bits, lastBits) = Self.wrap(nR.bytes + aR.bytes, parity: nR.parity + aR.parity)
        _ = try host.command(0x08, [0x63, 0x3D, UInt8(lastBits)])
        let (s2, wrapped) = try host.status(0x42, bits)
        #expect(s2 == 0x00 && wrapped.count == 5)
        #expect(try host.command(0x06, h("633C")) == h("0704"))  // 36 bits: 4 valid in the last byte
        let (atBytes, atParity) = Self.unwrap(wrapped, bits: 36)
        let aT = cipher.decrypt(Crypto1Frame(bytes: atBytes, parity: atParity))
        #expect(aT.parityOK && UInt32(mifareBytes: aT.bytes) == MifareNonce.successor(nT, 96))
    }

    static func wrap(_ bytes: [UInt8], parity: [UInt8]) -> ([UInt8], Int) {
        var out: [UInt8] = []
        var n = 0
        func push(_ b: UInt8) {
            if n % 8 == 0 { out.append(0) }
            out[out.count - 1] |= (b & 1) << UInt8(n % 8)
            n += 1
        }
        for (b, p) in zip(bytes, parity) {
            for j in 0..<8 { push(b >> UInt8(j)) }
            push(p)
        }
        return (out, n % 8)
    }

    static func unwrap(_ data: [UInt8], bits: Int) -> ([UInt8], [UInt8]) {
        func bit(_ i: Int) -> UInt8 { (data[i / 8] >> UInt8(i % 8)) & 1 }
        var bytes: [UInt8] = []
        var parity: [UInt8] = []
        for k in 0..<(bits / 9) {
            var b: UInt8 = 0
            for j in 0..<8 { b |= bit(k * 9 + j) << UInt8(j) }
            bytes.append(b)
            parity.append(bit(k * 9 + 8))
        }
        return (bytes, parity)
    }

    @Test func feliCaBAndJewelTargets() throws {
        let felica = try FeliCaLiteSTag.factory(idm: h("012E4CE3A1B2C3D4"))
        let type4 = try Type4Tag.factory(uid: h("04C1C2C3C4C5C6"), holding: h("D10100"))
        let jewel = try Type1Tag.factory(.topaz512, uid: h("11223344556677"))
        let (_, host) = chip([felica, type4, jewel])
        let f = try host.command(0x4A, h("01 01 00FFFF0100"))
        #expect(Array(f.prefix(4)) == h("4B 01 01 14") && Array(f[5..<13]) == h("012E4CE3A1B2C3D4"))
        #expect(Array(f.suffix(2)) == h("88B4"))  // system code FeliCa Lite-S
        // InDataExchange to FeliCa: LEN counts itself (Read Without Encryption of block 0).
        let read = h("06") + h("012E4CE3A1B2C3D4") + h("01 0B00 01 8000")
        let (s, a) = try host.status(0x40, [0x01, UInt8(read.count + 1)] + read)
        #expect(s == 0x00 && a.first == UInt8(a.count) && a[1] == 0x07)
        let j = try host.command(0x4A, h("0104"))
        #expect(
            j == h("4B 01 01") + [
                UInt8(jewel.activation.nfcA!.sensRes! >> 8), UInt8(jewel.activation.nfcA!.sensRes! & 0xFF),
            ] + h("11223344"))
        // RID through InDataExchange: HR0 HR1 UID0-3.
        let (rs, rid) = try host.status(0x40, h("01 78 000000000000"))
        #expect(rs == 0x00 && Array(rid.suffix(4)) == h("11223344"))
        // 106 A with AutomaticRATS: the ATS follows the UID; SELECT of the NDEF application over ISO-DEP.
        let t4 = try host.command(0x4A, h("0100"))
        #expect(Array(t4.prefix(3)) == h("4B 01 01") && t4[5] == 0x20)
        let select = h("00A4040007D276000085010100")
        #expect(try host.status(0x40, [0x01] + select) == (0x00, h("9000")))
    }

    @Test func isoDEPBlocksThroughInCommunicateThruAsNfcpySendsThem() throws {
        let type4 = try Type4Tag.factory(uid: h("04C1C2C3C4C5C6"), holding: h("D10100"))
        let (_, host) = chip([type4])
        #expect(try host.command(0x12, [0x00]) == [0x13])  // no AutomaticRATS
        let listed = try host.command(0x4A, h("0100"))
        #expect(listed.count == 2 + 1 + 4 + 7)  // no ATS
        let (s, ats) = try host.status(0x42, h("E080"))
        #expect(s == 0x00 && ats == type4.activation.ats)
        let select = h("00A4040007D276000085010100")
        #expect(try host.status(0x42, [0x02] + select) == (0x00, h("02 9000")))
        #expect(try host.status(0x42, [0xB3]) == (0x00, [0xA3]))  // R(NAK): presence check
        // A command chained by the host (I-block with the chaining bit) is acknowledged and then answered.
        #expect(try host.status(0x42, h("13 00A4")) == (0x00, [0xA3]))
        #expect(try host.status(0x42, h("02 040007D276000085010100")) == (0x00, h("02 9000")))
        #expect(try host.status(0x42, [0xC2]) == (0x00, [0xC2]))  // S(DESELECT)
    }
}
