import OpenNFCDemo
import OpenNFCTestSupport
import Testing

/// A short run of the seeded soak (docs/RELIABILITY.md, "Soak"; the long run is `opennfc-bench soak`): sessions of
/// every kind through the simulated iPhone with random tags, faults, Cancel, backgrounding and timeouts, every
/// session invariant holding.
@Suite struct SoakTests {
    @Test func threeHundredSessionsKeepEveryInvariant() {
        var rng = SeededGenerator(seed: 12)
        let r = Soak.run(sessions: 300, using: &rng)
        #expect(r.sessions == 300)
        #expect(r.violations == [], "\(r.violations.prefix(10).joined(separator: "\n"))")
        // Per session three checks, per scenario two more and one per tag placed.
        #expect(r.invariantChecks >= 3 * 300 + 2 * r.scenarios)
        // The run reached the interesting paths: messages read, writes done, tag commands answered, and sessions
        // ended by Cancel (200), timeout (201) and the app (204/…).
        #expect(r.messagesRead > 0)
        #expect(r.writesCompleted > 0)
        #expect(r.tagCommandsAnswered > 0)
        #expect(r.endings[200, default: 0] > 0)
        #expect(r.endings[201, default: 0] > 0)
        #expect(r.actions["fault plan", default: 0] > 0)
    }

    @Test func theSameSeedGivesTheSameRun() {
        var a = SeededGenerator(seed: 99)
        var b = SeededGenerator(seed: 99)
        let ra = Soak.run(sessions: 60, using: &a)
        let rb = Soak.run(sessions: 60, using: &b)
        #expect(ra.endings == rb.endings)
        #expect(ra.actions == rb.actions)
        #expect(ra.messagesRead == rb.messagesRead)
        #expect(ra.writesCompleted == rb.writesCompleted)
    }
}
