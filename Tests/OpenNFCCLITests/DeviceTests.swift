import Foundation
import Testing

/// The one device syntax (`--device sim:…`, `pcsc`, default), waiting for tags, and `--trace`.
@Suite struct DeviceTests {
    /// pcsc-lite reads the daemon's socket path from this variable: pointing it nowhere makes "no PC/SC" certain
    /// whatever runs on the machine.
    static let noPCSC = ["PCSCLITE_CSOCK_NAME": "/nonexistent/opennfc-test.comm"]

    @Test func traceShowsEveryFrameAndCountsThem() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213, message: TagFixture.uriMessage("example.com"))
        let r = try ws.run(["read", "--raw", "--trace", "--device", "sim:\(file)"])
        #expect(r.status == 0)
        #expect(r.stdout == "D1010C55046578616D706C652E636F6D\n")
        #expect(
            r.stderr == """
                # activated: nfcA UID 04A1B2C3D4E5F6 ATQA 0044 SAK 00
                #   on air: > WUPA 85.0 µs, < ATQA 188.8 µs after 91.2 µs, > ANTICOLLISION CL1 188.8 µs after 86.4 µs, < UID CL1 443.7 µs after 86.4 µs, > SELECT CL1 783.5 µs after 86.4 µs, < SAK 273.7 µs after 91.2 µs, > ANTICOLLISION CL2 188.8 µs after 86.4 µs, < UID CL2 443.7 µs after 86.4 µs, > SELECT CL2 783.5 µs after 86.4 µs, < SAK 273.7 µs after 91.2 µs
                > 60  # GET_VERSION
                < 0004040201000F03  # NTAG213
                #   on air: > 273.7 µs after 86.4 µs, < 868.4 µs after 86.4 µs
                > 3003  # READ page 3 (pages 3–6)
                < E11012000103A00C340310D1010C5504
                #   on air: > 358.7 µs after 86.4 µs, < 1.548 ms after 91.2 µs
                > 3A0709  # FAST_READ pages 7–9
                < 6578616D706C652E636F6DFE
                #   on air: > 443.7 µs after 86.4 µs, < 1.208 ms after 86.4 µs
                # deactivated
                #   on air: > HLTA 358.7 µs after 86.4 µs
                # air: 10.114 ms on the air (frames 8.713 ms, gaps 1.402 ms)
                frames: 3

                """)
        // Every '>' line is a frame that `opennfc send` (and `tag send`) accepts as is.
        let sent = r.stderr.split(separator: "\n").filter { $0.hasPrefix("> ") }.map {
            String($0.dropFirst(2).prefix { $0 != " " })
        }
        let replay = try ws.run(["send"] + sent + ["--device", "sim:\(file)"])
        #expect(replay.status == 0)
        #expect(replay.stdout.split(separator: "\n").count == sent.count)
    }

    @Test func traceEndsWithTheFrameCountEvenOnFailure() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag213)
        let r = try ws.run(["send", "3050", "3004", "--trace", "--device", "sim:\(file)"])
        #expect(r.status == 0)
        #expect(r.stdout.hasPrefix("NAK 0  # NAK: "))
        #expect(r.stdout.hasSuffix("\nTIMEOUT\n"))
        let lines = r.stderr.split(separator: "\n")
        #expect(
            lines.contains(
                "< NAK 0  # NAK: invalid argument or not allowed (page out of range, locked, or not authenticated)"))
        #expect(lines.contains("< TIMEOUT"))
        #expect(lines.last == "frames: 2")
    }

    @Test func tagsArePresentedOneAfterAnother() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try TagFixture.write(
            TagFixture.json(TagFixture.ntag213, uid: [0x04, 1, 2, 3, 4, 5, 6]), to: ws.dir, name: "a.json")
        try TagFixture.write(
            TagFixture.json(TagFixture.ntag215, uid: [0x04, 9, 9, 9, 9, 9, 9]), to: ws.dir, name: "b.json")
        let r = try ws.run(["batch", "write", "--uris", "u.txt", "--device", "sim:a.json+b.json"], environment: [:])
        // (u.txt is missing: the batch fails before any tag is touched.)
        #expect(r.status == 1)
        #expect(r.stderr == "Error: cannot read the URI list 'u.txt': no such file\n")
        try "https://one.example\nhttps://two.example\n".write(
            to: ws.dir.appendingPathComponent("u.txt"), atomically: true, encoding: .utf8)
        let b = try ws.run(["batch", "write", "--uris", "u.txt", "--device", "sim:a.json+b.json"])
        #expect(b.status == 0)
        let first = try ws.run(["read", "--raw", "--device", "sim:a.json+b.json"])
        #expect(
            first.stdout == Data(TagFixture.uriMessage("one.example")).map { String(format: "%02X", $0) }.joined()
                + "\n")
        let second = try ws.run(["read", "--raw", "--device", "sim:b.json"])
        #expect(
            second.stdout == Data(TagFixture.uriMessage("two.example")).map { String(format: "%02X", $0) }.joined()
                + "\n")
    }

    @Test func waitingForATagThatNeverComesTimesOutOnTheVirtualClock() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        try ws.tag("a.json", TagFixture.ntag213)
        try "https://one.example\nhttps://two.example\n".write(
            to: ws.dir.appendingPathComponent("u.txt"), atomically: true, encoding: .utf8)
        let r = try ws.run(["batch", "write", "--uris", "u.txt", "--timeout", "600", "--device", "sim:a.json"])
        #expect(r.status == 1)
        #expect(
            r.stderr.hasSuffix(
                "Error: no tag within 600 s on sim:a.json: every simulated tag has been used (1 of 2 done)\n"))
    }

    @Test func deviceErrors() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let bad = try ws.run(["read", "--device", "usb:1"])
        #expect(bad.status == 64)
        #expect(
            bad.stderr.hasPrefix(
                "Error: unknown device 'usb:1'; use sim:<tagfile>[+<tagfile>…], pcsc, pcsc:<reader>, remote:[<port>], "
                    + "replay:<file>[,protocol=<p>][,key=<hex>]…, vpcd:[<host>:<port>|<port>] or pn532:<tty>[:<baud>]\n"
            ))
        let empty = try ws.run(["read", "--device", "sim:a.json+"])
        #expect(empty.status == 64)
        let missing = try ws.run(["read", "--device", "sim:nope.json"])
        #expect(missing.status == 1)
        #expect(missing.stderr.hasPrefix("Error: "))
        #expect(missing.stderr.contains("nope.json"))
        #expect(missing.stderr.split(separator: "\n").count == 1)
        let ext = try ws.run(["read", "--device", "sim:tag.txt"])
        #expect(ext.status == 1)
        #expect(ext.stderr == "Error: tag file 'tag.txt': unknown extension; use .json, .nfc or .ndef\n")
        try "{ \"format\": 1 ".write(
            to: ws.dir.appendingPathComponent("broken.json"), atomically: true, encoding: .utf8)
        let broken = try ws.run(["read", "--device", "sim:broken.json"])
        #expect(broken.status == 1)
        #expect(broken.stderr.hasPrefix("Error: "))
        #expect(broken.stderr.contains("broken.json"))
        #expect(!FileManager.default.fileExists(atPath: ws.path("nope.json")))
    }

    @Test func environmentVariableAndDefaultDevice() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        let file = try ws.tag("t.json", TagFixture.ntag215, message: TagFixture.uriMessage("env.example"))
        let env = try ws.run(["read", "--raw"], environment: ["OPENNFC_DEVICE": "sim:\(file)"])
        #expect(env.status == 0)
        #expect(env.stdout.hasPrefix("D1010C5504656E76"))
        let badEnv = try ws.run(["read"], environment: ["OPENNFC_DEVICE": "floppy"])
        #expect(badEnv.status == 1)
        #expect(badEnv.stderr.hasPrefix("Error: $OPENNFC_DEVICE: unknown device 'floppy'"))
        // No --device and no usable PC/SC service: a clear error pointing at the simulated device.
        let none = try ws.run(["read"], environment: Self.noPCSC)
        #expect(none.status == 1)
        #expect(none.stderr.hasPrefix("Error: no --device given and no PC/SC reader is usable ("))
        #expect(none.stderr.hasSuffix("); use --device sim:<tagfile> to work on a tag file\n"))
        let pcsc = try ws.run(["read", "--device", "pcsc"], environment: Self.noPCSC)
        #expect(pcsc.status == 1)
        #expect(pcsc.stderr.hasPrefix("Error: "))
        #expect(pcsc.stderr.split(separator: "\n").count == 1)
    }
}
