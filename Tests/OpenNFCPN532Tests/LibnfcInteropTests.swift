import Foundation
import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// libnfc 1.8 (Debian `libnfc-bin`, `libnfc-examples`), mfoc and libfreefare (`libfreefare-bin`) against the virtual
/// PN532 on a pseudo-terminal, as subprocesses with bounded timeouts. Skipped, naming the package, when a tool is
/// missing (scripts/test installs them).
@Suite(.serialized) struct LibnfcInteropTests {
    static let ntagUID = h("04A1B2C3D4E580")
    static let message = h("D1010F5402656E68656C6C6F2C20504E353332")

    @Test(.enabled(if: ToolRunner.has("nfc-list"), "nfc-list missing: apt-get install libnfc-bin"))
    func nfcListListsEveryTag() throws {
        let ntag = try Type2Tag.factory(.ntag215, uid: Self.ntagUID, holding: Self.message)
        let classic = try MifareClassicTag(model: .classic1K, uid: h("DEADBEEF"))
        let type4 = try Type4Tag.factory(uid: h("04C1C2C3C4C5C6"), holding: Self.message)
        let felica = try FeliCaLiteSTag.factory(idm: h("012E4CE3A1B2C3D4"))
        let jewel = try Type1Tag.factory(.topaz512, uid: h("11223344556677"))
        let served = try ServedPN532([ntag, classic, type4, felica, jewel])
        defer { served.stop() }
        let r = try ToolRunner.run("nfc-list", [], environment: served.libnfc, timeout: 60)
        #expect(!r.timedOut && r.status == 0, "\(r.stdout)\(r.stderr)")
        let t = r.text
        #expect(t.contains("UID (NFCID1): 04 a1 b2 c3 d4 e5 80"), "\(t)")
        #expect(t.contains("ATQA (SENS_RES): 00 44"))
        #expect(t.contains("UID (NFCID1): de ad be ef"))
        #expect(t.contains("SAK (SEL_RES): 08"))
        #expect(t.contains("UID (NFCID1): 04 c1 c2 c3 c4 c5 c6"))
        #expect(t.contains("SAK (SEL_RES): 20"))
        #expect(t.contains("ID (NFCID2): 01 2e 4c e3 a1 b2 c3 d4"))
        #expect(t.contains("4-LSB JEWELID: 11 22 33 44"))
    }

    @Test(.enabled(if: ToolRunner.has("nfc-mfultralight"), "nfc-mfultralight missing: apt-get install libnfc-bin"))
    func nfcMfultralightReadsAndWritesAnNTAG() throws {
        let ntag = try Type2Tag.factory(.ntag215, uid: Self.ntagUID, holding: Self.message)
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = try ServedPN532([ntag])
        defer { served.stop() }
        let dump = dir.appendingPathComponent("ntag.mfd").path
        let r = try ToolRunner.run("nfc-mfultralight", ["r", dump], environment: served.libnfc, timeout: 60)
        #expect(!r.timedOut && r.status == 0, "\(r.stdout)\(r.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
        #expect(bytes.count >= 540 && Array(bytes[0..<540]) == Array(ntag.memory[0..<540]))
        // Change the user memory in the dump and write it back.
        var changed = bytes
        for i in 16..<40 { changed[i] = UInt8(i) }
        try Data(changed).write(to: URL(fileURLWithPath: dump))
        let w = try ToolRunner.run(
            "nfc-mfultralight", ["w", dump], environment: served.libnfc, stdin: "n\nn\nn\n", timeout: 60)
        #expect(!w.timedOut && w.status == 0, "\(w.stdout)\(w.stderr)")
        served.stop()
        #expect(Array(ntag.memory[16..<40]) == (16..<40).map { UInt8($0) })
    }

    @Test(.enabled(if: ToolRunner.has("nfc-mfclassic"), "nfc-mfclassic missing: apt-get install libnfc-bin"))
    func nfcMfclassicDumpsAndRestoresAClassic1K() throws {
        let classic = try MifareClassicTag(model: .classic1K, uid: h("DEADBEEF"))
        try classic.formatForNDEF(holding: Self.message)
        let dir = try ToolRunner.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = try ServedPN532([classic])
        defer { served.stop() }
        let dump = dir.appendingPathComponent("classic.mfd").path
        let r = try ToolRunner.run("nfc-mfclassic", ["r", "a", "u", dump], environment: served.libnfc, timeout: 120)
        #expect(!r.timedOut && r.status == 0, "\(r.stdout)\(r.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
        #expect(bytes.count == 1024)
        // Data blocks match (trailers come back with the keys libnfc used).
        #expect(Array(bytes[64..<112]) == Array(classic.memory[64..<112]))
        var changed = bytes
        for i in 64..<80 { changed[i] = 0xA5 }
        try Data(changed).write(to: URL(fileURLWithPath: dump))
        let w = try ToolRunner.run("nfc-mfclassic", ["w", "a", "u", dump], environment: served.libnfc, timeout: 120)
        #expect(!w.timedOut && w.status == 0, "\(w.stdout)\(w.stderr)")
        served.stop()
        #expect(Array(classic.memory[64..<80]) == [UInt8](repeating: 0xA5, count: 16))
    }
}
