import Foundation
import OpenNFCBytes
import OpenNFCPN532
import OpenNFCPN532Emulator
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// Our PN532 driver against the virtual PN532: the reader procedures read and write every family the PN532
/// carries through the two sides, over every transport.
@Suite struct PN532EndToEndTests {
    static let message = h("D1010F5402656E68656C6C6F2C20504E353332")  // Text "hello, PN532"

    func field(_ tags: [any VirtualTag]) -> VirtualPN532 {
        let f = VirtualField(clock: VirtualClock(), timing: .instant)
        for (i, t) in tags.enumerated() { f.place(t, at: i) }
        return VirtualPN532(field: f)
    }

    /// Polls one technology, identifies the target and returns its NDEF procedure.
    func procedure(_ frontend: PN532Frontend, _ technology: RFTechnology) throws -> (
        any NDEFTagProcedure, IdentifiedTag
    ) {
        let targets = try frontend.poll([technology])
        let target = try #require(targets.first)
        let active = try frontend.activate(target)
        let identified = try TagIdentifier.identify(target: active, frontend: frontend)
        let p = try #require(identified.ndefProcedure(frontend: frontend))
        return (p, identified)
    }

    func roundTrip(_ frontend: PN532Frontend, _ technology: RFTechnology, expect old: [UInt8]) throws {
        let (p, _) = try procedure(frontend, technology)
        #expect(try p.readMessage() == old)
        let new = h("D1010854026465") + Array("PN532".utf8)
        var m = new
        m[2] = UInt8(m.count - 4)
        try p.writeMessage(m)
        frontend.deactivate()
        let (again, _) = try procedure(frontend, technology)
        #expect(try again.readMessage() == m)
    }

    @Test func type2NTAGOverEveryTransport() throws {
        for transport in ["hsu", "i2c", "spi"] {
            let ntag = try Type2Tag.factory(.ntag215, uid: h("04A1B2C3D4E580"), holding: Self.message)
            let chip = field([ntag])
            let t: any PN532Transport =
                switch transport {
                case "i2c": PN532I2CTransport(bus: VirtualI2CBus(chip), pause: { _ in })
                case "spi": PN532SPITransport(bus: VirtualSPIBus(chip), pause: { _ in })
                default: LoopbackTransport(chip)
                }
            let frontend = try PN532Frontend(transport: t)
            #expect(frontend.firmwareDescription == "PN532 v1.6")
            let (p, id) = try procedure(frontend, .nfcA)
            #expect("\(id.kind)".contains("ntag215"), "\(transport)")
            #expect(try p.readMessage() == Self.message, "\(transport)")
        }
    }

    @Test func writesAndReadsBackType2Type4DESFireType3Type1TypeBUltralightC() throws {
        let ntag = try Type2Tag.factory(.ntag215, uid: h("04A1B2C3D4E580"), holding: Self.message)
        try roundTrip(try PN532Frontend(transport: LoopbackTransport(field([ntag]))), .nfcA, expect: Self.message)
        let t4 = try Type4Tag.factory(uid: h("04C1C2C3C4C5C6"), holding: Self.message)
        try roundTrip(try PN532Frontend(transport: LoopbackTransport(field([t4]))), .nfcA, expect: Self.message)
        let desfire = try DESFireEV1Tag.ndefFormatted(uid: h("04D1D2D3D4D5D6"), holding: Self.message)
        try roundTrip(try PN532Frontend(transport: LoopbackTransport(field([desfire]))), .nfcA, expect: Self.message)
        let felica = try FeliCaLiteSTag.factory(idm: h("012E4CE3A1B2C3D4"), holding: Self.message)
        try roundTrip(try PN532Frontend(transport: LoopbackTransport(field([felica]))), .nfcF, expect: Self.message)
        let topaz = try Type1Tag.factory(.topaz512, uid: h("11223344556677"), holding: Self.message)
        try roundTrip(try PN532Frontend(transport: LoopbackTransport(field([topaz]))), .nfcA, expect: Self.message)
        let typeB = try Type4Tag.typeB(pupi: h("0A0B0C0D"), holding: Self.message)
        try roundTrip(try PN532Frontend(transport: LoopbackTransport(field([typeB]))), .nfcB, expect: Self.message)
        let ulc = try Type2Tag.factory(.ultralightC, uid: h("04E1E2E3E4E5E6"), holding: Self.message)
        try roundTrip(try PN532Frontend(transport: LoopbackTransport(field([ulc]))), .nfcA, expect: Self.message)
    }

    @Test func mifareClassicWithKeysByTheChipsCrypto1() throws {
        let classic = try MifareClassicTag(model: .classic1K, uid: h("DEADBEEF"))
        try classic.formatForNDEF(holding: Self.message)
        try roundTrip(try PN532Frontend(transport: LoopbackTransport(field([classic]))), .nfcA, expect: Self.message)
        // A wrong key: the chip's status 14 is a clear authentication failure, and the card can be used again.
        let frontend = try PN532Frontend(transport: LoopbackTransport(field([classic])))
        let t = try frontend.activate(try #require(try frontend.poll([.nfcA]).first))
        #expect(throws: RFError.self) {
            try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: h("010203040506")))
        }
        _ = try frontend.activate(t)
        try frontend.authenticate(.mifareClassic(block: 4, keyType: .b, key: h("FFFFFFFFFFFF")))
        #expect(try frontend.exchange([0x30, 0x04]) != .ack)
    }

    @Test func iso15693IsRefusedWithReadersThatCan() throws {
        let frontend = try PN532Frontend(transport: LoopbackTransport(field([])))
        do {
            _ = try frontend.poll([.nfcV])
            Issue.record("must fail")
        } catch {
            #expect(
                error.code == .unsupported && error.detail.contains("ISO 15693") && error.detail.contains("ACR1252U"))
        }
    }

    /// Over a real pseudo-terminal, with the termios serial transport: what `opennfc emulate --pn532` serves.
    @Test func overAPseudoTerminal() throws {
        let ntag = try Type2Tag.factory(.ntag215, uid: h("04A1B2C3D4E580"), holding: Self.message)
        let chip = field([ntag])
        let server = try PN532PseudoTerminal(chip: chip)
        let thread = Thread { server.run() }
        thread.start()
        defer { server.stop() }
        let frontend = try PN532DeviceString(parsing: server.path).open()
        let (p, _) = try procedure(frontend, .nfcA)
        #expect(try p.readMessage() == Self.message)
        frontend.driver.transport.close()
    }
}
