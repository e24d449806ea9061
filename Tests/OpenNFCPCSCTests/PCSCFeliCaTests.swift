import OpenNFCBytes
import OpenNFCPCSC
import OpenNFCRF
import OpenNFCTestSupport
import Testing

/// A FeliCa card behind a reader, written for these tests from the reader's side (PC/SC Part 3 `FF CA`; ACR122U
/// PN532 InListPassiveTarget / InCommunicateThru; ACR1252U direct transmit with LEN). Its card answers Polling with
/// IDm and PMm and Request Response (`04`) with mode 0; anything else is silence.
final class FakeFeliCaCard: Sendable {
    enum PassThrough { case none, acr122u, acr1252u }
    static let idm = h("01010A108E1BAD39")
    static let pmm = h("00F1000000014300")
    let passThrough: PassThrough
    let atr: [UInt8]

    init(_ passThrough: PassThrough, atr: [UInt8] = felicaACSATR) {
        self.passThrough = passThrough
        self.atr = atr
    }

    var card: FakePCSCBinding.Card { FakePCSCBinding.Card(atr: atr) { [self] apdu in respond(apdu) } }

    /// The card's answer to a frame without LEN, or nil for silence.
    func felica(_ frame: [UInt8]) -> [UInt8]? {
        if frame.count == 5, frame[0] == 0x00 { return [0x01] + Self.idm + Self.pmm }
        if frame.count == 9, frame[0] == 0x04, Array(frame[1...]) == Self.idm { return [0x05] + Self.idm + [0x00] }
        return nil
    }

    func respond(_ apdu: [UInt8]) -> [UInt8] {
        if apdu == h("FFCA000000") { return Self.idm + [0x90, 0x00] }
        guard apdu.count > 5, Array(apdu[0..<4]) == [0xFF, 0x00, 0x00, 0x00], Int(apdu[4]) == apdu.count - 5 else {
            return [0x6A, 0x81]
        }
        let body = Array(apdu[5...])
        switch passThrough {
        case .none: return [0x6A, 0x81]
        case .acr122u:
            if body.count == 9, Array(body[0..<3]) == [0xD4, 0x4A, 0x01] {
                guard let r = felica(Array(body[4...])) else { return [0xD5, 0x4B, 0x00, 0x90, 0x00] }
                return [0xD5, 0x4B, 0x01, 0x01, UInt8(r.count + 1)] + r + [0x90, 0x00]
            }
            guard body.count >= 4, body[0] == 0xD4, body[1] == 0x42, Int(body[2]) == body.count - 2 else {
                return [0xD5, body.count > 1 ? body[1] &+ 1 : 0, 0x27, 0x90, 0x00]
            }
            guard let r = felica(Array(body[3...])) else { return [0xD5, 0x43, 0x01, 0x90, 0x00] }
            return [0xD5, 0x43, 0x00, UInt8(r.count + 1)] + r + [0x90, 0x00]
        case .acr1252u:
            guard Int(body[0]) == body.count, let r = felica(Array(body[1...])) else { return [0x63, 0x00] }
            return [UInt8(r.count + 1)] + r + [0x90, 0x00]
        }
    }
}

/// FeliCa in PC/SC Part 3 ATRs: ACS's PN532 readers' form (SS `03`, card name `F0 11`; ACR122T manual; TCK computed).
let felicaACSATR = h("3B8F8001804F0CA00000030603F011000000008A")
/// The same card as the registry form (SS `11`, card name `00 3B`; ACM1252U manual).
let felicaRegistryATR = h("3B8F8001804F0CA00000030611003B0000000042")

/// FeliCa through PC/SC (docs/PCSC.md "FeliCa"): the ATR forms, the profile each reader gets, and the exact APDUs.
@Suite struct PCSCFeliCaTests {
    func frontend(
        _ card: FakePCSCBinding.Card, reader: String = "Virtual PCD 00 00"
    ) throws -> (PCSCFrontend, FakePCSCBinding) {
        let fake = FakePCSCBinding(readers: [reader])
        fake.insert(card, into: reader)
        return (PCSCFrontend(context: try PCSCContext(binding: fake)), fake)
    }

    @Test func bothATRFormsAreFeliCaAndTheACSNameGivesTheBitRate() throws {
        for (atr, rate) in [
            (felicaACSATR, 212), (felicaRegistryATR, 212), (h("3B8F8001804F0CA00000030603F0120000000089"), 424),
        ] {
            let kind = ContactlessCard(atrBytes: atr)
            #expect(kind.technology == .nfcF)
            let (f, _) = try frontend(FakeFeliCaCard(.none, atr: atr).card)
            #expect(try f.poll([.nfcA]).isEmpty)
            let t = try #require(try f.poll([.nfcF]).first)
            #expect(t.nfcF?.idm == FakeFeliCaCard.idm && t.nfcF?.bitRate == rate)
        }
        #expect(ContactlessCard.cardName(0xF012) == "FeliCa 424 kbit/s (ACS)")
    }

    @Test func anACR122UCarriesPollingAsInListPassiveTargetAndCommandsAsInCommunicateThru() throws {
        let (f, fake) = try frontend(FakeFeliCaCard(.acr122u).card)
        let t = try f.poll([.nfcF])[0]
        _ = try f.activate(t)
        #expect(f.activeProfile is ACR122UFeliCaProfile)
        #expect(f.capabilities.frameModes == [.felica])
        #expect(try f.exchange(h("0012FC0100")) == .frame([0x01] + FakeFeliCaCard.idm + FakeFeliCaCard.pmm))
        #expect(try f.exchange([0x04] + FakeFeliCaCard.idm) == .frame([0x05] + FakeFeliCaCard.idm + [0x00]))
        #expect(throws: RFError.self) { try f.exchange([0x0C] + FakeFeliCaCard.idm) }
        #expect(
            fake.transcript.map(\.command) == [
                h("FFCA000000"),  // GET DATA: the IDm (poll)
                h("FF00000009D44A010100FFFF0000"),  // probe: InListPassiveTarget 212 kbit/s, wildcard Polling
                h("FF00000009D44A01010012FC0100"),  // Polling 12FC, request code 01
                h("FF0000000CD4420A04") + FakeFeliCaCard.idm,  // InCommunicateThru LEN 0A: Request Response
                h("FF0000000CD4420A0C") + FakeFeliCaCard.idm,  // Request System Code: silence (status 01)
            ])
    }

    @Test func anACR1252UByNameSendsFramesWithTheirLENByte() throws {
        let (f, fake) = try frontend(FakeFeliCaCard(.acr1252u).card, reader: "ACS ACR1252 1S CL Reader PICC 0")
        _ = try f.activate(try f.poll([.nfcF])[0])
        #expect(f.activeProfile is ACR1252UFeliCaProfile)
        #expect(try f.exchange([0x04] + FakeFeliCaCard.idm) == .frame([0x05] + FakeFeliCaCard.idm + [0x00]))
        #expect {
            try f.exchange([0x06] + FakeFeliCaCard.idm + h("010B00018000"))
        } throws: { ($0 as? RFError)?.code == .timeout }
        #expect(
            fake.transcript.map(\.command).dropFirst() == [
                h("FF0000000A0A04") + FakeFeliCaCard.idm, h("FF000000101006") + FakeFeliCaCard.idm + h("010B00018000"),
            ])
    }

    @Test func anUnknownReaderIsProbedACR122UThenACR1252UThenPart3() throws {
        let (f, fake) = try frontend(FakeFeliCaCard(.acr1252u).card)
        _ = try f.activate(try f.poll([.nfcF])[0])
        #expect(f.activeProfile is ACR1252UFeliCaProfile)
        #expect(
            fake.transcript.map(\.command).dropFirst() == [
                h("FF00000009D44A010100FFFF0000"), h("FF000000060600FFFF0000"),
            ]
        )

        let (p, _) = try frontend(FakeFeliCaCard(.none).card)
        _ = try p.activate(try p.poll([.nfcF])[0])
        #expect(p.activeProfile is FeliCaStorageCardProfile)
        #expect(p.capabilities.frameModes.isEmpty)
        #expect {
            try p.exchange([0x04] + FakeFeliCaCard.idm)
        } throws: { ($0 as? RFError)?.code == .unsupported }
    }

    @Test func badAnswersAreNamed() throws {
        let fake = FakePCSCBinding(readers: ["ACR122U PICC Interface"])
        fake.insert(
            FakePCSCBinding.Card(atr: felicaACSATR) { apdu in
                if apdu == h("FFCA000000") { return FakeFeliCaCard.idm + [0x90, 0x00] }
                if apdu.count > 6, apdu[6] == 0x4A { return [0xD5, 0x4B, 0x00, 0x90, 0x00] }
                return [0xD5, 0x43, 0x00, 0x07, 0x05, 0x90, 0x00]  // LEN 07 for a 2-byte answer
            }, into: "ACR122U PICC Interface")
        let f = PCSCFrontend(context: try PCSCContext(binding: fake))
        _ = try f.activate(try f.poll([.nfcF])[0])
        #expect { try f.exchange(h("00FFFF0000")) } throws: { ($0 as? RFError)?.code == .timeout }
        #expect { try f.exchange([0x04] + FakeFeliCaCard.idm) } throws: {
            ($0 as? RFError)?.code == .protocolViolation
        }
    }
}
