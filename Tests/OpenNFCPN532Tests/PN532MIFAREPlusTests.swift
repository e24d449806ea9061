import Foundation
import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCPN532
import OpenNFCPN532Emulator
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// MIFARE Plus through the PN532, our driver against the virtual PN532: SL0 personalisation and the SL3 AES session
/// go as ISO-DEP payloads (InDataExchange; the chip does the blocks), SL1 is MIFARE Classic with a 7-byte UID (the
/// chip's Crypto1 takes the UID's last four bytes); libnfc's tools see the same chips.
@Suite(.serialized) struct PN532MIFAREPlusTests {
    static let uid7 = h("04A1B2C3D4E5F6")
    static let ff = [UInt8](repeating: 0xFF, count: 16)
    static let keyA = h("000102030405060708090A0B0C0D0E0F")

    static func frontend(_ tags: [any VirtualTag]) throws -> PN532Frontend {
        let f = VirtualField(clock: VirtualClock(), timing: .instant)
        for (i, t) in tags.enumerated() { f.place(t, at: i) }
        return try PN532Frontend(transport: LoopbackTransport(VirtualPN532(field: f)))
    }

    static func connect(_ frontend: PN532Frontend) throws -> (RFTarget, IdentifiedTag) {
        frontend.deactivate()
        let target = try frontend.activate(try #require(try frontend.poll([.nfcA]).first))
        return (target, try TagIdentifier.identify(target: target, frontend: frontend))
    }

    @Test func personaliseInSL0ThenAnAESSessionInSL3() throws {
        let model = MIFAREPlusModel(generation: .ev1, is4K: false, uidLength: 7)
        let tag = try MIFAREPlusTag(model: model, uid: Self.uid7, securityLevel: 0)
        tag.random = SeededRandomSource(seed: 28)
        let frontend = try Self.frontend([tag])
        let (target, id) = try Self.connect(frontend)
        guard case .mifarePlus(let version) = id.kind else {
            Issue.record("identified as \(id.kind)")
            return
        }
        let memory = MIFAREPlusMemory(target: target, frontend: frontend, version: version)
        #expect(try memory.securityLevel() == 0)
        let sent = try memory.personalise(
            [(0x9000, Self.ff), (0x9001, Self.ff), (0x9003, Self.ff), (0x4002, Self.keyA), (0x4003, Self.ff)],
            commitTo: 3)
        #expect(sent == 6)
        // SL3 from the next activation: the AES session reads and writes in every communication mode.
        let (again, id3) = try Self.connect(frontend)
        guard case .mifarePlus(let version3) = id3.kind else {
            Issue.record("identified as \(id3.kind)")
            return
        }
        #expect(try MIFAREPlusMemory(target: again, frontend: frontend, version: version3).securityLevel() == 3)
        var session = MIFAREPlusSession(
            link: MIFAREPlusLink(frontend: frontend), random: SeededRandomSource(seed: 3))
        try session.authenticate(0x4002, key: Self.keyA)
        for (i, mode) in MIFAREPlusCommunication.allCases.enumerated() {
            let data = (0..<32).map { UInt8(($0 + i * 7) & 0xFF) }
            try session.write(4, data, mode: mode)
            #expect(tag.block(4) + tag.block(5) == data, "\(mode)")
            #expect(try session.read(4, count: 2, mode: mode) == data, "\(mode)")
        }
        // A wrong key is refused and the card stays usable.
        #expect(throws: TagError.self) { try session.authenticate(0x4002, key: Self.ff) }
        try session.authenticate(0x4002, key: Self.keyA)
        #expect(try session.read(4, count: 2) == tag.block(4) + tag.block(5))
        // Sector 0 keeps its factory key: block 0 holds the UID.
        try session.authenticate(0x4000, key: Self.ff)
        #expect(try session.read(0).prefix(7) == Self.uid7[...])
    }

    @Test func sl1IsAMIFAREClassicWithASevenByteUID() throws {
        let model = MIFAREPlusModel(generation: .ev1, is4K: false, uidLength: 7)
        let tag = try MIFAREPlusTag(model: model, uid: Self.uid7, securityLevel: 1)
        tag.random = SeededRandomSource(seed: 1)
        let frontend = try Self.frontend([tag])
        let (target, id) = try Self.connect(frontend)
        #expect(id.kind == .mifareClassic)
        #expect(target.identifier == Self.uid7)
        // The chip's Crypto1 with the UID's last four bytes, as the card computes it.
        try frontend.authenticate(.mifareClassic(block: 4, keyType: .a, key: h("FFFFFFFFFFFF")))
        try frontend.exchange([0xA0, 0x04]).expectACK()
        try frontend.exchange([UInt8](repeating: 0x3C, count: 16)).expectACK()
        #expect(try frontend.exchange([0x30, 0x04]) == .frame([UInt8](repeating: 0x3C, count: 16)))
        #expect(tag.block(4) == [UInt8](repeating: 0x3C, count: 16))
    }

    /// libnfc 1.8 sees both levels: nfc-list shows the SL3 chip's ATS and the SL1 chip as a MIFARE Classic with a
    /// 7-byte UID; nfc-mfclassic dumps the SL1 chip with its keys.
    @Test(.enabled(if: Tools.has("nfc-list", "nfc-mfclassic"), "libnfc tools missing: apt-get install libnfc-bin"))
    func libnfcListsBothLevelsAndDumpsSL1() throws {
        let model = MIFAREPlusModel(generation: .ev1, is4K: false, uidLength: 7)
        let sl3 = try MIFAREPlusTag(model: model, uid: Self.uid7, securityLevel: 3)
        let served = try ServedPN532([sl3])
        defer { served.stop() }
        let r = try Tools.run("nfc-list", [], environment: served.libnfc, timeout: 60)
        #expect(r.status == 0 && r.text.contains("UID (NFCID1): 04 a1 b2 c3 d4 e5 f6"), "\(r.text)")
        #expect(r.text.contains("SAK (SEL_RES): 20") && r.text.contains("ATS:"), "\(r.text)")
        served.stop()

        let sl1 = try MIFAREPlusTag(model: model, uid: h("04112233445566"), securityLevel: 1)
        try sl1.setBlock(8, [UInt8](repeating: 0x81, count: 16))
        let served1 = try ServedPN532([sl1])
        defer { served1.stop() }
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let dump = dir.appendingPathComponent("plus-sl1.mfd").path
        let d = try Tools.run("nfc-mfclassic", ["r", "a", "u", dump], environment: served1.libnfc, timeout: 180)
        #expect(d.status == 0, "\(d.text)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
        // Sector 2 of the SL1 chip, read with the transport keys.
        #expect(bytes.count >= 1024 && Array(bytes[128..<144]) == [UInt8](repeating: 0x81, count: 16))
    }
}

extension RFResponse {
    fileprivate func expectACK() throws {
        guard self == .ack else { throw RFError(.protocolViolation, "expected ACK, got \(self)") }
    }
}

/// `opennfc dump` and `restore` of a MIFARE Plus SL3 through `--device pn532:…` (the virtual PN532 on its
/// pseudo-terminal): the dump finds the sector keys in the dictionary and reads every block; the restore writes the
/// data blocks onto a blank SL3 chip with the same keys.
@Suite(.serialized) struct PN532MIFAREPlusCLITests {
    @Test func dumpAndRestoreAnSL3ChipThroughThePN532() throws {
        let model = MIFAREPlusModel(generation: .ev1, is4K: false, uidLength: 7)
        let mad = h("A0A1A2A3A4A5A6A7A0A1A2A3A4A5A6A7")
        let tag = try MIFAREPlusTag(model: model, uid: h("04A1B2C3D4E5F6"), securityLevel: 3)
        try tag.setKey(0x4002, mad)
        try tag.setBlock(5, [UInt8](repeating: 0x55, count: 16))
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("plus.json").path
        let opennfc = TestProcess.executable("opennfc", override: "OPENNFC_BIN")
        let served = try ServedPN532([tag])
        defer { served.stop() }
        let d = try TestProcess.run(opennfc, ["dump", "--device", "pn532:\(served.path)", "-o", file], timeout: 120)
        #expect(d.status == 0, "\(d.stdout)\(d.stderr)")
        served.stop()
        let saved = try #require(try TagFile.read(path: file) as? MIFAREPlusTag)
        #expect(saved.block(5) == [UInt8](repeating: 0x55, count: 16))
        #expect(saved.securityLevel == 3)

        let blank = try MIFAREPlusTag(model: model, uid: h("04A1B2C3D4E5F6"), securityLevel: 3)
        try blank.setKey(0x4002, mad)
        let served2 = try ServedPN532([blank])
        defer { served2.stop() }
        let r = try TestProcess.run(opennfc, ["restore", "--device", "pn532:\(served2.path)", file], timeout: 120)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        served2.stop()
        #expect(blank.block(5) == [UInt8](repeating: 0x55, count: 16))
    }
}
