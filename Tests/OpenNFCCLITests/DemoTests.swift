import Testing

/// `opennfc demo` is the README's first command: it must run, and what it prints must be true.
@Suite struct DemoTests {
    @Test func partOnePrintsTheSeedMessagesAndTheirRoundTrips() throws {
        let r = try CLIRunner.run(["demo"])
        #expect(r.status == 0)
        #expect(r.stderr.isEmpty)
        // URI record, well-known "U", prefix code 0x04 = "https://" (NFC Forum RTD-URI 1.0 table 3).
        #expect(r.stdout.contains("D1 01 14 55 04 65 78 61 6D 70 6C 65 2E 63 6F 6D 2F 69 74 65 6D 2F 34 32"))
        // Text record: status byte 0x02 = UTF-8, language length 2, "en" (NFC Forum RTD-Text 1.0 §3.2.1).
        #expect(r.stdout.contains("D1 01 11 54 02 65 6E 53 68 65 6C 66"))
        #expect(r.stdout.contains("Smart Poster: https://example.com/museum/room-3"))
        #expect(!r.stdout.contains("round trip equal: NO"))
    }
}

extension DemoTests {
    /// Part 2 runs the four seed flows on the simulated iPhone; the outcomes that matter are pinned.
    @Test func partTwoRunsTheSeedFlows() throws {
        let r = try CLIRunner.run(["demo"])
        #expect(r.status == 0)
        let out = r.stdout
        #expect(out.contains("Flow 1: Inventory scanner"))
        #expect(out.contains("row added: https://example.com/item/2"))
        #expect(out.contains("204 First NDEF tag read"))
        #expect(out.contains("More than 1 tag is detected"))
        #expect(out.contains("writeLock: ok"))
        #expect(out.contains("initialSelectedAID F00102030405"))
        #expect(out.contains("SW1 SW2 = 90 00"))
        #expect(out.contains("201 Session timeout"))
        #expect(out.contains("writeNDEF: 402 Insufficient space on NDEF tag"))
        #expect(out.contains("writeNDEF: 400 NDEF tag is read only"))
        #expect(out.contains("writeNDEF: 100 Tag connection lost"))
    }
}

extension DemoTests {
    /// `demo --list` names each flow and the file holding its code; `demo NAME` runs that one flow alone.
    @Test func listAndOneFlow() throws {
        let list = try CLIRunner.run(["demo", "--list"])
        #expect(list.status == 0)
        #expect(
            list.stdout.hasPrefix(
                "inventory-scanner   Sources/OpenNFCDemo/SeedFlows.swift, SeedFlows.inventoryScanner()\n"))
        #expect(list.stdout.split(separator: "\n").count == 5)
        let one = try CLIRunner.run(["demo", "write-and-lock"])
        #expect(one.status == 0)
        #expect(one.stdout.contains("(code: Sources/OpenNFCDemo/SeedFlows.swift, SeedFlows.writeAndLock())"))
        #expect(one.stdout.contains("queryNDEFStatus: .readWrite, capacity"))
        #expect(!one.stdout.contains("Part 1") && !one.stdout.contains("Inventory scanner"))
        let typo = try CLIRunner.run(["demo", "write-and-lok"])
        #expect(typo.status == 64)
        #expect(typo.stderr.hasPrefix("Error: unknown flow 'write-and-lok'; did you mean 'write-and-lock'?"))
    }
}
