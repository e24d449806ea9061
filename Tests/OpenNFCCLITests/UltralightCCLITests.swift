import Foundation
import Testing

/// `opennfc tag new --chip ultralight-c [--key]`, `tag show`, and reading an unprotected Ultralight C.
@Suite struct UltralightCCLITests {
    @Test func newTagWithAKeyShowsItAndReads() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let made = try ws.run([
            "tag", "new", "--chip", "ultralight-c", "--uid", "04A1B2C3D4E5F6", "--key",
            "000102030405060708090A0B0C0D0E0F", "--uri", "https://example.com/ulc", "-o", "c.json",
        ])
        #expect(made.status == 0)
        let text = try String(contentsOf: URL(fileURLWithPath: ws.path("c.json")), encoding: .utf8)
        #expect(text.contains("\"key\": \"00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F\""))
        // Table 11 byte order in the key pages.
        let pages = text.components(separatedBy: "\"").filter { $0.count == 11 }
        #expect(pages.suffix(4) == ["07 06 05 04", "03 02 01 00", "0F 0E 0D 0C", "0B 0A 09 08"])
        let shown = try ws.run(["tag", "show", "c.json"])
        #expect(shown.stdout.contains("Product: MIFARE Ultralight C MF0ICU2, 48 pages"))
        #expect(
            shown.stdout.contains("Authentication: AUTH0 30h (no protection), key 000102030405060708090A0B0C0D0E0F"))
        let read = try ws.run(["read", "--device", "sim:c.json"])
        #expect(read.status == 0)
        #expect(read.stdout.contains("https://example.com/ulc"))
    }

    @Test func keyOnAnotherChipOrOfTheWrongLengthIsAUsageError() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let other = try ws.run(["tag", "new", "--chip", "ntag215", "--key", "00", "-o", "n.json"])
        #expect(other.status == 64)
        #expect(other.stderr.hasPrefix("Error: --key: only ultralight-c has a 3DES key, not ntag215"))
        let short = try ws.run(["tag", "new", "--chip", "ultralight-c", "--key", "0011", "-o", "c.json"])
        #expect(short.status == 64)
        #expect(short.stderr.hasPrefix("Error: --key: an Ultralight C key has 16 bytes, not 2"))
    }
}
