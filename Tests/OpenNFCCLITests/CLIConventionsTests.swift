import Testing

/// The conventions every subcommand shares: help, version, usage errors and exit codes.
@Suite struct CLIConventionsTests {
    @Test func versionAndHelp() throws {
        let v = try CLIRunner.run(["--version"])
        #expect(v.status == 0)
        #expect(v.stdout == "0.1.0\n")
        let h = try CLIRunner.run(["--help"])
        #expect(h.status == 0)
        #expect(h.stdout.hasPrefix("OVERVIEW: "))
        #expect(h.stdout.contains("SUBCOMMANDS:"))
        #expect(h.stderr.isEmpty)
        let hd = try CLIRunner.run(["help", "demo"])
        #expect(hd.status == 0)
        #expect(hd.stdout.contains("USAGE: opennfc demo"))
    }

    @Test func unknownCommandIsAUsageError() throws {
        let r = try CLIRunner.run(["frobnicate"])
        #expect(r.status == 64)
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.hasPrefix("Error: unknown command 'frobnicate'\nUsage: opennfc <subcommand>\n"))
    }

    @Test func unknownOptionIsAUsageError() throws {
        let r = try CLIRunner.run(["demo", "--bogus"])
        #expect(r.status == 64)
        #expect(r.stderr.hasPrefix("Error: unknown option '--bogus'\nUsage: opennfc demo"))
    }
}
