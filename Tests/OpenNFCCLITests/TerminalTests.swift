import Foundation
import Testing

/// `opennfc terminal`: the terminal side of card emulation, against a virtual Type 4 tag (the app's card through
/// vpcd is exercised by the PC/SC end-to-end suite).
@Suite struct TerminalTests {
    func type4(_ ws: Workspace) throws {
        let made = try ws.run([
            "tag", "new", "--chip", "type4", "--uid", "04112233445566", "--uri", "https://t4.example", "-o", "t4.json",
        ])
        #expect(made.status == 0)
    }

    @Test func selectsTheAIDThenPlaysTheScriptAndTheArguments() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try type4(ws)
        _ = try TagFixture.write(
            """
            # read the capability container
            00A4000C02E103 -> 9000
            00B000000F -> 000F2000FF00FF0406E104100000009000  # CC
            """, to: ws.dir, name: "cc.txt")
        let r = try ws.run([
            "terminal", "--device", "sim:t4.json", "--aid", "D2760000850101", "--script", "cc.txt", "00A4000C02E1FF",
        ])
        #expect(r.status == 0)
        #expect(r.stderr == "")
        #expect(
            r.stdout == """
                00A4040007D276000085010100 -> 9000  # SELECT D2760000850101; OK
                00A4000C02E103 -> 9000  # OK
                00B000000F -> 000F2000FF00FF0406E104100000009000  # CC; OK
                00A4000C02E1FF -> 6A82  # file or application not found

                """)
    }

    @Test func anUnexpectedAnswerFailsNamingTheScriptLine() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try type4(ws)
        _ = try TagFixture.write(
            "00A4040007D276000085010100 -> 9000\n00A4000C02E1FF -> 9000\n", to: ws.dir, name: "s.txt")
        let r = try ws.run(["terminal", "--device", "sim:t4.json", "--script", "s.txt"])
        #expect(r.status == 1)
        #expect(r.stderr == "Error: s.txt:2: expected 9000, received 6A82\n")
        let bad = try ws.run(["terminal", "--device", "sim:t4.json", "--aid", "F0"])
        #expect(bad.status == 64)
        #expect(bad.stderr.hasPrefix("Error: --aid must be 5 to 16 bytes"))
        let nothing = try ws.run(["terminal", "--device", "sim:t4.json"])
        #expect(nothing.status == 64)
        _ = try TagFixture.write("00A4 -> 9000\n", to: ws.dir, name: "short.txt")
        let short = try ws.run(["terminal", "--device", "sim:t4.json", "--script", "short.txt"])
        #expect(short.status == 1)
        #expect(short.stderr == "Error: short.txt:1: a command APDU has at least 4 bytes (CLA INS P1 P2)\n")
    }

    @Test func vpcdIsNotAReader() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let r = try ws.run(["terminal", "--device", "vpcd:", "--aid", "D2760000850101"])
        #expect(r.status == 1)
        #expect(r.stderr.contains("vpcd: presents an app's CardSession to pcscd; it is not a reader"))
    }
}
