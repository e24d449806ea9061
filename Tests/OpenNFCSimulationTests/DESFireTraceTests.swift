import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// The virtual DESFire EV1 against a trace of a real card (``DESFireEV1Trace``): fed the RndBs the real card drew and
/// the reader's frames, it must give the real card's answers byte for byte — challenges, ek(RndA'), every CMAC
/// (DES, 3K3DES and AES session keys), key versions and the directory.
@Suite struct DESFireTraceTests {
    func card() throws -> DESFireEV1Tag {
        let version = DESFireEV1Tag.Version(
            hardware: DESFireEV1Trace.hardware, software: DESFireEV1Trace.software, batch: DESFireEV1Trace.batch,
            productionWeek: DESFireEV1Trace.production.week, productionYear: DESFireEV1Trace.production.year)
        let t = try DESFireEV1Tag(uid: DESFireEV1Trace.uid, version: version)
        t.random = FixedRandomSource(DESFireEV1Trace.sections.flatMap(\.rndB).flatMap { $0 })
        return t
    }

    @Test func theVirtualCardAnswersTheRealCardsTraceByteForByte() throws {
        let t = try card()
        var session: TagLineSession?
        for section in DESFireEV1Trace.sections {
            session = expectTranscript(t, section.transcript, session: session)
        }
        // One RndB drawn per authentication, no more: every challenge of the trace was used, in order.
        #expect((t.random as? FixedRandomSource)?.remaining == 0)
    }
}
