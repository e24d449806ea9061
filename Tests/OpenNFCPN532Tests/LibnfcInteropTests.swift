import Foundation
import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// libnfc 1.8 (Debian `libnfc-bin`, `libnfc-examples`), mfoc and libfreefare (`libfreefare-bin`) against the virtual
/// PN532 on a pseudo-terminal, as subprocesses with bounded timeouts. Skipped, naming the package, when a tool is
/// missing (scripts/test installs them).
@Suite(.serialized) struct LibnfcInteropTests {
    static let ntagUID = h("04A1B2C3D4E580")
    static let message = h("D1010F5402656E68656C6C6F2C20504E353332")

    @Test(.enabled(if: Tools.has("nfc-list"), "nfc-list missing: apt-get install libnfc-bin"))
    func nfcListListsEveryTag() throws {
        let ntag = try Type2Tag.factory(.ntag215, uid: Self.ntagUID, holding: Self.message)
        let classic = try MifareClassicTag(model: .classic1K, uid: h("DEADBEEF"))
        let type4 = try Type4Tag.factory(uid: h("04C1C2C3C4C5C6"), holding: Self.message)
        let felica = try FeliCaLiteSTag.factory(idm: h("012E4CE3A1B2C3D4"))
        let jewel = try Type1Tag.factory(.topaz512, uid: h("11223344556677"))
        let served = try ServedPN532([ntag, classic, type4, felica, jewel])
        defer { served.stop() }
        let r = try Tools.run("nfc-list", [], environment: served.libnfc, timeout: 60)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
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

    @Test(.enabled(if: Tools.has("nfc-mfultralight"), "nfc-mfultralight missing: apt-get install libnfc-bin"))
    func nfcMfultralightReadsAndWritesAnNTAG() throws {
        let ntag = try Type2Tag.factory(.ntag215, uid: Self.ntagUID, holding: Self.message)
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = try ServedPN532([ntag])
        defer { served.stop() }
        let dump = dir.appendingPathComponent("ntag.mfd").path
        let r = try Tools.run("nfc-mfultralight", ["r", dump], environment: served.libnfc, timeout: 60)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
        // Everything up to CFG1 (page 84h); PWD and PACK read as zeros (NTAG213/215/216 datasheet §8.8.1).
        #expect(bytes.count == 540 && Array(bytes[0..<532]) == Array(ntag.memory[0..<532]))
        // Change the user memory in the dump and write it back.
        var changed = bytes
        for i in 16..<40 { changed[i] = UInt8(i) }
        try Data(changed).write(to: URL(fileURLWithPath: dump))
        let w = try Tools.run(
            "nfc-mfultralight", ["w", dump], environment: served.libnfc, stdin: "n\nn\nn\n", timeout: 60)
        #expect(w.status == 0, "\(w.stdout)\(w.stderr)")
        served.stop()
        #expect(Array(ntag.memory[16..<40]) == (16..<40).map { UInt8($0) })
    }

    @Test(.enabled(if: Tools.has("nfc-mfclassic"), "nfc-mfclassic missing: apt-get install libnfc-bin"))
    func nfcMfclassicDumpsAndRestoresAClassic1K() throws {
        let classic = try MifareClassicTag(model: .classic1K, uid: h("DEADBEEF"))
        try classic.formatForNDEF(holding: Self.message)
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = try ServedPN532([classic])
        defer { served.stop() }
        let dump = dir.appendingPathComponent("classic.mfd").path
        let r = try Tools.run("nfc-mfclassic", ["r", "a", "u", dump], environment: served.libnfc, timeout: 120)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
        #expect(bytes.count == 1024)
        // Data blocks match (trailers come back with the keys libnfc used).
        #expect(Array(bytes[64..<112]) == Array(classic.memory[64..<112]))
        var changed = bytes
        for i in 64..<80 { changed[i] = 0xA5 }
        try Data(changed).write(to: URL(fileURLWithPath: dump))
        let w = try Tools.run("nfc-mfclassic", ["w", "a", "u", dump], environment: served.libnfc, timeout: 120)
        #expect(w.status == 0, "\(w.stdout)\(w.stderr)")
        served.stop()
        #expect(Array(classic.memory[64..<80]) == [UInt8](repeating: 0xA5, count: 16))
    }
}

/// mfoc and libfreefare's tools through libnfc against the virtual PN532.
@Suite(.serialized) struct MfocLibfreefareInteropTests {
    static let message = h("D1010F5402656E68656C6C6F2C20504E353332")

    /// mfoc recovers the keys of a card whose sectors all open with a default key (its dictionary phase, which
    /// authenticates through InDataExchange and the chip's Crypto1) and dumps it.
    @Test(.enabled(if: Tools.has("mfoc"), "mfoc missing: apt-get install mfoc"))
    func mfocDumpsADefaultKeyCard() throws {
        let classic = try MifareClassicTag(model: .classic1K, uid: h("DEADBEEF"))
        try classic.formatForNDEF(holding: Self.message)
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = try ServedPN532([classic])
        defer { served.stop() }
        let dump = dir.appendingPathComponent("mfoc.mfd").path
        let r = try Tools.run("mfoc", ["-O", dump], environment: served.libnfc, timeout: 120)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.text.contains("Auth with all sectors succeeded"))
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
        #expect(bytes.count == 1024 && Array(bytes[0..<48]) == Array(classic.memory[0..<48]))
    }

    /// mfoc's nested attack: sector 5 has keys no dictionary holds; mfoc measures the nonce distance through the
    /// other sectors' known keys (raw frames: CRC and parity off, Crypto1 on the host, InCommunicateThru), predicts
    /// the nonce of a nested authentication to sector 5, recovers both keys, and dumps the card with them. It
    /// converges because the virtual card's nonces come from its 16-bit generator clocked on the air
    /// (docs/SECURITY.md, "Nonces").
    @Test(.enabled(if: Tools.has("mfoc"), "mfoc missing: apt-get install mfoc"))
    func mfocRecoversAnUnknownKeyWithTheNestedAttack() throws {
        let classic = try MifareClassicTag(model: .classic1K, uid: h("DEADBEEF"))
        try classic.formatForNDEF(holding: Self.message)
        classic.random = SeededRandomSource(seed: 28)
        let keyA = h("4A6F686E446F")
        let keyB = h("B0B1B2B3B4B5")
        try classic.setBlock(23, keyA + h("FF078069") + keyB)
        try classic.setBlock(20, [UInt8](repeating: 0x5C, count: 16))
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = try ServedPN532([classic])
        defer { served.stop() }
        let dump = dir.appendingPathComponent("mfoc.mfd").path
        let r = try Tools.run("mfoc", ["-O", dump], environment: served.libnfc, timeout: 600)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.text.contains("Found Key: A [4a6f686e446f]"), "\(r.stdout)")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dump)))
        try #require(bytes.count == 1024)
        #expect(Array(bytes[320..<336]) == [UInt8](repeating: 0x5C, count: 16))
        #expect(Array(bytes[368..<374]) == keyA && Array(bytes[378..<384]) == keyB)
        #expect(Array(bytes[0..<16]) == classic.block(0))
    }

    @Test(
        .enabled(
            if: Tools.has("mifare-classic-read-ndef", "mifare-desfire-read-ndef"),
            "libfreefare tools missing: apt-get install libfreefare-bin"))
    func libfreefareReadsClassicAndDESFireNDEF() throws {
        let classic = try MifareClassicTag(model: .classic1K, uid: h("DEADBEEF"))
        try classic.formatForNDEF(holding: Self.message)
        let desfire = try DESFireEV1Tag.ndefFormatted(uid: h("04D1D2D3D4D5D6"), holding: Self.message)
        let dir = try Tools.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let served = try ServedPN532([classic, desfire])
        defer { served.stop() }
        for tool in ["mifare-classic-read-ndef", "mifare-desfire-read-ndef"] {
            let out = dir.appendingPathComponent("\(tool).ndef").path
            let r = try Tools.run(tool, ["-y", "-o", out], environment: served.libnfc, timeout: 60)
            #expect(r.status == 0, "\(tool): \(r.stdout)\(r.stderr)")
            #expect(try [UInt8](Data(contentsOf: URL(fileURLWithPath: out))) == Self.message, "\(tool)")
        }
    }
}

/// nfcpy 1.0.4's PN532 driver (`tty:` path) reads and writes NDEF on Type 2, 3 and 4 tags through the virtual
/// PN532. nfcpy names devices only by entries of /dev, so the pty gets a /dev symlink (skipped when /dev is not
/// writable).
@Suite(.serialized) struct NfcpyInteropTests {
    static let message = h("D1010F5402656E68656C6C6F2C20504E353332")
    static let script = """
        import sys, nfc, ndef
        path, target, text = sys.argv[1], sys.argv[2], sys.argv[3]
        clf = nfc.ContactlessFrontend(path)
        try:
            t = clf.sense(nfc.clf.RemoteTarget(target), iterations=3, interval=0.05)
            if t is None:
                print("NO TARGET"); sys.exit(2)
            tag = nfc.tag.activate(clf, t)
            print("TAG", tag.type)
            print("READ", b"".join(ndef.message_encoder(tag.ndef.records)).hex())
            if text:
                tag.ndef.records = [ndef.TextRecord(text)]
                print("WROTE")
        finally:
            clf.close()
        """

    static var devWritable: Bool { access("/dev", W_OK) == 0 }

    func readAndWrite(_ tag: any VirtualTag, _ target: String, type: String) throws -> ServedPN532 {
        let name = "ttyVPN532x\(getpid())\(target.filter(\.isLetter))"
        let served = try ServedPN532([tag], link: "/dev/\(name)")
        let r = try Tools.run(
            "python3", ["-c", Self.script, "tty:\(name):pn532", target, "from nfcpy"], environment: [:], timeout: 60)
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("TAG \(type)"), "\(r.stdout)")
        #expect(r.stdout.contains("READ \(Self.message.hexString.lowercased())"), "\(r.stdout)")
        #expect(r.stdout.contains("WROTE"), "\(r.stdout)\(r.stderr)")
        // A second run reads back what the first wrote.
        let again = try Tools.run(
            "python3", ["-c", Self.script, "tty:\(name):pn532", target, ""], environment: [:], timeout: 60)
        #expect(again.stdout.contains("READ \(Self.written.hexString.lowercased())"), "\(again.stdout)\(again.stderr)")
        served.stop()
        return served
    }

    /// The NDEF message nfcpy wrote: Text "from nfcpy" in English.
    static let written = h("D1010D5402656E") + Array("from nfcpy".utf8)

    @Test(.enabled(if: Tools.hasNfcpy && devWritable, "nfcpy missing (pip install nfcpy) or /dev not writable"))
    func type2() throws {
        let ntag = try Type2Tag.factory(.ntag215, uid: h("04A1B2C3D4E580"), holding: Self.message)
        _ = try readAndWrite(ntag, "106A", type: "Type2Tag")
    }

    @Test(.enabled(if: Tools.hasNfcpy && devWritable, "nfcpy missing (pip install nfcpy) or /dev not writable"))
    func type3() throws {
        let felica = try FeliCaLiteSTag.factory(idm: h("012E4CE3A1B2C3D4"), holding: Self.message)
        _ = try readAndWrite(felica, "212F", type: "Type3Tag")
    }

    @Test(.enabled(if: Tools.hasNfcpy && devWritable, "nfcpy missing (pip install nfcpy) or /dev not writable"))
    func type4() throws {
        let t4 = try Type4Tag.factory(uid: h("04C1C2C3C4C5C6"), holding: Self.message)
        _ = try readAndWrite(t4, "106A", type: "Type4Tag")
    }
}
