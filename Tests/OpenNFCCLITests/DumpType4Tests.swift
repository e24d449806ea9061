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
        #expect(d.stderr == "Saved iso7816 04112233445566 (NDEF file of 512 bytes) to copy.json.\n")
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
        #expect(r.stderr.hasPrefix("Restored the 16-byte NDEF message of 'copy.json' to iso7816"))
        let read = try ws.run(["read", "--raw", "--device", "sim:\(fresh)"])
        #expect(read.stdout == Self.message + "\n")
        let again = try ws.run(["restore", "copy.json", "--device", "sim:\(fresh)"])
        #expect(again.stderr.contains("nothing written"))
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
        #expect(r.stderr.contains("Note: a Flipper .nfc file (ISO14443-4A) keeps only the UID and activation"))
        let show = try json(try ws.run(["tag", "show", "--json", "copy.nfc"]))
        #expect(show["uid"] as? String == "04112233445566")
    }
    /// A T4T mapping 3.0 card (ENDEF file, 4-byte ENLEN) whose message runs past 32 KiB and a file past 64 KiB:
    /// the listing reads ENLEN (not the first two bytes as an NLEN), the dump saves the whole file and the mapping,
    /// and restore writes the message back onto a blank card of the same shape (odd-INS READ and UPDATE BINARY
    /// past offset 7FFF, through the reader procedure).
    @Test func mapping3CardWithAMessagePast32KiB() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        // One record of TNF 5 (unknown) with a 39994-byte payload: a 40000-byte message (9C40h).
        let payload = (0..<39_994).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 1) }
        let hex = TagFixture.unknownRecordMessageHex(payload)
        let new = try ws.run([
            "tag", "new", "--chip", "type4", "--mapping", "3.0", "--ndef-file-size", "70000", "--uid",
            "04112233445566", "--ndef-hex", hex, "-o", "big.json",
        ])
        #expect(new.status == 0, "\(new.stderr)")

        let listing = try ws.run(["dump", "--device", "sim:big.json"])
        #expect(listing.status == 0, "\(listing.stderr)")
        let lines = listing.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "Tag:      iso7816, UID 04112233445566, NDEF file E104 of 70000 bytes")
        #expect(lines[1].hasPrefix("CC:       mapping version 30, "))
        #expect(lines[2] == "ENLEN:    40000")
        // ENLEN 00 00 9C 40, then the record header; offsets in 6 hex digits for a file past 64 KiB.
        #expect(lines[3] == "000000  00 00 9C 40 C5 00 00 00 9C 3A " + Hex.spaced(Array(payload[0..<6])))
        let rows = (4 + 40_000 + 15) / 16
        #expect(lines[3 + rows - 1].hasPrefix(String(format: "%06X  ", (rows - 1) * 16)))
        #expect(lines[3 + rows] == "bytes 40004–69999 after the message: all zero")

        let saved = try ws.run(["dump", "-o", "copy.json", "--device", "sim:big.json"])
        #expect(saved.status == 0, "\(saved.stderr)")
        #expect(saved.stderr == "Saved iso7816 04112233445566 (NDEF file of 70000 bytes) to copy.json.\n")
        let read = try ws.run(["read", "--raw", "--device", "sim:copy.json"])
        #expect(read.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == hex)
        let original = try json(try ws.run(["tag", "show", "--json", "big.json"]))
        let copy = try json(try ws.run(["tag", "show", "--json", "copy.json"]))
        // Not "ndefApplication": the source also answers the mapping 1.0 name, which the reader, having selected the
        // 2.0 name, never asks (the dump keeps the names the reader saw).
        for key in ["cc", "ndefFile", "mle", "mlc", "mappingVersion"] {
            #expect(
                (copy[key] as? NSObject) == (original[key] as? NSObject), "\(key) differs between source and dump")
        }

        let blank = try ws.run([
            "tag", "new", "--chip", "type4", "--mapping", "3.0", "--ndef-file-size", "70000", "-o", "fresh.json",
        ])
        #expect(blank.status == 0, "\(blank.stderr)")
        let restored = try ws.run(["restore", "copy.json", "--device", "sim:fresh.json"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(restored.stderr.hasPrefix("Restored the 40000-byte NDEF message of 'copy.json' to iso7816"))
        let back = try ws.run(["read", "--raw", "--device", "sim:fresh.json"])
        #expect(back.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == hex)
    }
}

private enum Hex {
    static func spaced(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02X", $0) }.joined(separator: " ") }
}
