import Foundation
import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// `opennfc watch --device pcsc` against the real pcscd with the vsmartcard virtual readers (started by scripts/test,
/// OPENNFC_E2E_PCSCD=1; skipped with the reason otherwise): both readers are picked up, and tags put on and taken
/// off the two slots by our card server arrive and leave on their own reader, each in order.
@Suite(.serialized, .enabled(if: EndToEnd.enabled, Comment(rawValue: EndToEnd.skipReason)))
struct WatchPCSCTests {
    static func ntag215(_ uid: String) throws -> Type2Tag {
        try Type2Tag.factory(
            Type2ChipProfile.named("ntag215")!, uid: h(uid),
            holding: [0xD1, 0x01, 0x05, 0x55, 0x04] + Array("a.bc".utf8))
    }

    @Test func tagsOnBothVirtualReadersArriveAndLeave() throws {
        let lock = SlotLock()
        defer { withExtendedLifetime(lock) {} }
        SlotLock.waitUntilVPCDSlotsAreEmpty()
        let w = try Watch.start(["--device", "pcsc", "--station-id", "vpcd"])
        defer {
            w.signal(SIGTERM)
            _ = w.waitForExit(seconds: 30)
        }
        let readers = EndToEnd.readers.map { "pcsc:\($0)" }
        #expect(
            w.wait(seconds: 30) { out, _ in
                Set(
                    Watch.events(out).filter { $0["type"]?.stringValue == "reader-added" }.compactMap {
                        $0["reader"]?.stringValue
                    }
                )
                .isSuperset(of: readers)
            })
        for round in 0..<2 {
            let a = try EmulatedSlot(try Self.ntag215("04A1B2C3D4E58\(round)"), slot: 0)
            let b = try EmulatedSlot(try Self.ntag215("04B1B2C3D4E58\(round)"), slot: 1)
            #expect(w.wait(seconds: 30) { out, _ in Watch.count(out, type: "arrived") == 2 * (round + 1) })
            try a.remove()
            try b.remove()
            #expect(w.wait(seconds: 30) { out, _ in Watch.count(out, type: "left") == 2 * (round + 1) })
        }
        let events = Watch.events(w.stdoutLines)
        for (slot, reader) in readers.enumerated() {
            let mine = events.filter {
                $0["reader"]?.stringValue == reader && $0["type"]?.stringValue != "reader-added"
            }
            #expect(mine.map { $0["type"]?.stringValue ?? "" } == ["arrived", "left", "arrived", "left"])
            let prefix = slot == 0 ? "04A1" : "04B1"
            #expect(mine.allSatisfy { $0["uid"]?.stringValue?.hasPrefix(prefix) == true })
            #expect(mine.first?["chip"]?.stringValue == "ntag215")
            #expect(
                mine.first?["ndef"]?["message"]?["records"]?.arrayValue?.first?["uri"]?.stringValue == "https://a.bc")
        }
        let errors = events.filter { $0["type"]?.stringValue == "error" }.count
        #expect(errors == 0, "\(w.stdoutLines)")
    }
}
