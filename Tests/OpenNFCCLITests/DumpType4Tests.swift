import Foundation
import Testing

/// `opennfc dump` and `opennfc restore` on NFC Forum Type 4 cards: the CC and the whole NDEF file.
@Suite struct DumpType4Tests {
    /// A mapping 1.0 card with a non-default CC: MLe 3B, MLc 34, NDEF file E105 of 512 bytes, holding
    /// https://example.com (URI record computed by hand from NFC Forum RTD-URI: prefix 04 = "https://").
    static let message = "D1010C55046578616D706C652E636F6D"
    static func sourceJSON() -> String {
        let file = "0010" + message + String(repeating: "00", count: 512 - 18)
        return """
            {"format": "opennfc-tag", "version": 1, "chip": "type4", "uid": "04112233445566",
             "iso7816": {
               "activation": {"atqa": "03 44", "sak": "20", "ats": "05 78 80 70 02"},
               "mappingVersion": "10", "mle": 59, "mlc": 52,
               "ccFile": {"data": "00 0F 10 00 3B 00 34 04 06 E1 05 02 00 00 00"},
               "ndefFile": {"id": "E1 05", "readAccess": "00", "writeAccess": "00", "data": "\(file)"}
             }}
            """
    }

    func json(_ r: CLIRunner.Result) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: r.stdoutBytes) as? [String: Any])
    }

    @Test func dumpReproducesTheCCAndTheFileAndLeavesTheSourceAlone() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let src = try TagFixture.write(Self.sourceJSON(), to: ws.dir, name: "src.json")
        let before = try TagFixture.bytes(src)
        let d = try ws.run(["dump", "-o", "copy.json", "--device", "sim:\(src)"])
        #expect(d.status == 0)
        #expect(d.stdout == "Saved iso7816 04112233445566 (NDEF file of 512 bytes) to copy.json.\n")
        #expect(try TagFixture.bytes(src) == before)

        let original = try json(try ws.run(["tag", "show", "--json", src]))
        let copy = try json(try ws.run(["tag", "show", "--json", "copy.json"]))
        let cc = try #require(copy["cc"] as? [String: Any])
        #expect(cc["bytes"] as? String == "000F10003B00340406E10502000000")
        #expect(copy["atqa"] as? String == "0344")
        #expect(copy["sak"] as? String == "20")
        #expect(copy["ats"] as? String == "0578807002")
        #expect(copy["uid"] as? String == "04112233445566")
        for key in ["cc", "ndefFile", "mle", "mlc", "mappingVersion", "ndefApplication"] {
            #expect(
                (copy[key] as? NSObject) == (original[key] as? NSObject), "\(key) differs between source and dump")
        }
        let read = try ws.run(["read", "--raw", "--device", "sim:copy.json"])
        #expect(read.status == 0)
        #expect(read.stdout == Self.message + "\n")
    }

    @Test func dumpListsTheCCAndTheMessageBytes() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let src = try TagFixture.write(Self.sourceJSON(), to: ws.dir, name: "src.json")
        let r = try ws.run(["dump", "--device", "sim:\(src)"])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                Tag:      iso7816, UID 04112233445566, NDEF file E105 of 512 bytes
                CC:       mapping version 10, MLe 59, MLc 52, read access 00, write access 00
                NLEN:     16
                0000  00 10 D1 01 0C 55 04 65 78 61 6D 70 6C 65 2E 63
                0010  6F 6D
                bytes 18–511 after the message: all zero

                """)
    }

    @Test func restoreWritesTheMessageOntoAFreshCard() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let src = try TagFixture.write(Self.sourceJSON(), to: ws.dir, name: "src.json")
        #expect(try ws.run(["dump", "-o", "copy.json", "--device", "sim:\(src)"]).status == 0)
        // A fresh card of the same shape, empty (NLEN 0).
        let blank = Self.sourceJSON().replacingOccurrences(of: "\"0010" + Self.message, with: "\"0000" + Self.message)
        let fresh = try TagFixture.write(blank, to: ws.dir, name: "fresh.json")
        #expect(try ws.run(["read", "--device", "sim:\(fresh)"]).status == 1)
        let r = try ws.run(["restore", "copy.json", "--device", "sim:\(fresh)"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("Restored the 16-byte NDEF message of 'copy.json' to iso7816"))
        let read = try ws.run(["read", "--raw", "--device", "sim:\(fresh)"])
        #expect(read.stdout == Self.message + "\n")
        let again = try ws.run(["restore", "copy.json", "--device", "sim:\(fresh)"])
        #expect(again.stdout.contains("nothing written"))
    }

    @Test func restoreRefusesAnotherChipOrAnotherFileSize() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let src = try TagFixture.write(Self.sourceJSON(), to: ws.dir, name: "src.json")
        #expect(try ws.run(["dump", "-o", "copy.json", "--device", "sim:\(src)"]).status == 0)
        #expect(try ws.run(["tag", "new", "--chip", "type4", "-o", "big.json"]).status == 0)
        try ws.tag("n.json", TagFixture.ntag215)
        let bigBefore = try TagFixture.bytes(ws.path("big.json"))
        let size = try ws.run(["restore", "copy.json", "--device", "sim:big.json"])
        #expect(size.status == 1)
        #expect(size.stderr.split(separator: "\n").count == 1)
        #expect(size.stderr.hasPrefix("Error: 'copy.json' holds an NDEF file of 512 bytes, but the tag's"))
        #expect(size.stderr.contains("is 4096 bytes"))
        #expect(try TagFixture.bytes(ws.path("big.json")) == bigBefore)
        let chip = try ws.run(["restore", "copy.json", "--device", "sim:n.json"])
        #expect(chip.status == 1)
        #expect(chip.stderr.split(separator: "\n").count == 1)
        #expect(
            chip.stderr.hasPrefix("Error: 'copy.json' is a dump of a type4 tag, but the tag in the field is ntag215"))
    }

    @Test func aType4DumpIsNotRestoredOntoADESFire() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let src = try TagFixture.write(Self.sourceJSON(), to: ws.dir, name: "src.json")
        #expect(try ws.run(["tag", "new", "--chip", "desfire-ev1", "-o", "d.json"]).status == 0)
        let r = try ws.run(["restore", src, "--device", "sim:d.json"])
        #expect(r.status == 1)
        #expect(r.stderr.split(separator: "\n").count == 1)
        #expect(r.stderr.contains("is a dump of a type4 tag, but the tag in the field is desfire-ev1"))
    }

    @Test func flipperFileNotesWhatItLoses() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let src = try TagFixture.write(Self.sourceJSON(), to: ws.dir, name: "src.json")
        let r = try ws.run(["dump", "-o", "copy.nfc", "--device", "sim:\(src)"])
        #expect(r.status == 0)
        #expect(r.stderr.hasPrefix("Note: a Flipper .nfc file (ISO14443-4A) keeps only the UID and activation"))
        let show = try json(try ws.run(["tag", "show", "--json", "copy.nfc"]))
        #expect(show["uid"] as? String == "04112233445566")
    }
}
