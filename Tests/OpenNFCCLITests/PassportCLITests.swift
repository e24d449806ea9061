import Foundation
import Testing

/// `opennfc passport read` over `sim:` against virtual documents made by `tag new --chip passport|id-card`.
@Suite struct PassportCLITests {
    @Test func readAndVerifyAVirtualPassportAndIDCard() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["passport", "pki", "-o", "pki"]).status == 0)
        #expect(try ws.run(["tag", "new", "--chip", "passport", "--pki", "pki", "-o", "p.json"]).status == 0)
        let read = try ws.run([
            "passport", "read", "--mrz", "L898902C3,740812,120415", "--csca", "pki", "--photo", "face.jpg",
            "--device", "sim:p.json",
        ])
        #expect(read.status == 0, "\(read.stdout)\(read.stderr)")
        #expect(read.stdout.contains("Holder            ERIKSSON, ANNA MARIA"))
        #expect(read.stdout.contains("  Chain           passed"))
        #expect(read.stdout.contains("Result            verified"))
        let face = try Data(contentsOf: URL(fileURLWithPath: ws.path("face.jpg")))
        #expect(face.prefix(2) == Data([0xFF, 0xD8]))

        #expect(
            try ws.run(["tag", "new", "--chip", "id-card", "--can", "123456", "--pki", "pki", "-o", "c.json"]).status
                == 0)
        let card = try ws.run([
            "passport", "read", "--can", "123456", "--csca", "pki", "--json", "--device", "sim:c.json",
        ])
        #expect(card.status == 0, "\(card.stdout)\(card.stderr)")
        #expect(card.stdout.contains("\"verified\" : true") || card.stdout.contains("\"verified\": true"))
        #expect(card.stdout.contains("\"accessControl\""))
    }

    @Test func faultsAndWrongKeysFailWithTheirReason() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        #expect(try ws.run(["passport", "pki", "-o", "pki"]).status == 0)
        #expect(
            try ws.run(["tag", "new", "--chip", "passport", "--pki", "pki", "--fault", "tampered-dg", "-o", "t.json"])
                .status == 0)
        let tampered = try ws.run([
            "passport", "read", "--mrz", "L898902C3,740812,120415", "--csca", "pki", "--device", "sim:t.json",
        ])
        #expect(tampered.status == 1)
        #expect(tampered.stdout.contains("hash mismatch on DG1"))
        #expect(tampered.stdout.contains("NOT VERIFIED"))
        let wrong = try ws.run(["passport", "read", "--mrz", "L898902C3,740812,120416", "--device", "sim:t.json"])
        #expect(wrong.status == 1)
        #expect(wrong.stderr.contains("accessDenied"))
        let usage = try ws.run([
            "passport", "read", "--mrz", "L898902C4,740812,120415", "--can", "1", "--device", "sim:t.json",
        ])
        #expect(usage.status == 64)
    }
}
