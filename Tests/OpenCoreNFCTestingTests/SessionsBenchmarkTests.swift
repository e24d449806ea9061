import OpenCoreNFCTesting
import OpenNFCDemo
import Testing

/// The benchmark's workload is correct (its speed is measured by `opennfc-bench sessions`, not here).
@Suite struct SessionsBenchmarkTests {
    @Test func everySessionDeliversItsMessage() throws {
        let r = try SessionsBenchmark.run(sessions: 50, warmUp: 5)
        #expect(r.sessions == 50)
        #expect(r.messagesDelivered == 50)
    }
}
