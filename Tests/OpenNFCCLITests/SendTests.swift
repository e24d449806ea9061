import Foundation
import Testing

/// `opennfc send`: raw frames and APDUs, answers decoded where known.
@Suite struct SendTests {
    @Test func type2FramesAndTheirMeaning() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213)
        let r = try ws.run(["send", "60", "3003", "1BFFFFFFFF", "--device", "sim:\(file)"])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(
            r.stdout == """
                0004040201000F03  # NTAG213
                E11012000103A00C340300FE00000000
                0000  # PACK 0000

                """)
    }

    @Test func apdusToAType4TagWithStatusWords() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let made = try ws.run([
            "tag", "new", "--chip", "type4", "--uid", "04112233445566", "--uri", "https://t4.example", "-o", "t4.json",
        ])
        #expect(made.status == 0)
        let r = try ws.run([
            "send", "00A4040007D276000085010100", "00A4000C02E103", "00B000000F", "00A4000C02E1FF", "--device",
            "sim:t4.json",
        ])
        #expect(r.status == 0)
        #expect(
            r.stdout == """
                9000  # OK
                9000  # OK
                000F2000FF00FF0406E104100000009000  # OK
                6A82  # file or application not found

                """)
        let j = try ws.run(["send", "00A4040007D276000085010100", "--json", "--device", "sim:t4.json"])
        let o = try #require(try JSONSerialization.jsonObject(with: j.stdoutBytes) as? [String: Any])
        let ex = try #require(o["exchanges"] as? [[String: Any]])
        #expect(ex.first?["response"] as? String == "9000")
        #expect(ex.first?["meaning"] as? String == "OK")
        #expect(o["sak"] as? String == "20")
    }

    @Test func aWriteIsSavedAndBadHexIsAUsageError() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213)
        let w = try ws.run(["send", "A20F01020304", "--device", "sim:\(file)"])
        #expect(w.stdout == "0A  # ACK\n")
        let r = try ws.run(["send", "300F", "--device", "sim:\(file)"])
        #expect(r.stdout.hasPrefix("01020304"))
        let bad = try ws.run(["send", "30", "3G", "--device", "sim:\(file)"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("Error: frame 2 '3G' is not hex: invalid hex character 'G' at character 1\n"))
        let none = try ws.run(["send", "--device", "sim:\(file)"])
        #expect(none.status == 64)
        #expect(none.stderr.hasPrefix("Error: missing expected argument '<hex>'\n"))
    }
}
