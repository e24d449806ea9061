import Foundation
import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// Readers coming and going under a running `opennfc watch --device pcsc`, through a real pcscd: a private pcscd
/// (``PrivatePCSCD``: its own vpcd readers on free ports and its own socket, in a private mount namespace, so the
/// shared pcscd and the other tests are not disturbed) is started with one vpcd entry (two readers), then with
/// another entry in its place, then with the first again. pcscd 1.9.9 reads its reader.conf only at start (`pcscd --hotplug`
/// rescans USB only, and with Debian's libudev back-end not even that for configured readers; this machine has no USB
/// bus to plug a virtual CCID reader into), so each change is a pcscd restart, which the station rides out.
@Suite(.serialized, .enabled(if: PrivatePCSCD.available, Comment(rawValue: PrivatePCSCD.skipReason)))
struct ReaderSetPCSCTests {
    static func ntag215(_ uid: String) throws -> Type2Tag { try WatchPCSCTests.ntag215(uid) }

    /// The readers added and not removed since, per the station's events so far.
    static func present(_ lines: [String]) -> Set<String> {
        var set: Set<String> = []
        for e in Watch.events(lines) {
            guard let r = e["reader"]?.stringValue else { continue }
            switch e["type"]?.stringValue {
            case "reader-added": set.insert(r)
            case "reader-removed": set.remove(r)
            default: break
            }
        }
        return set
    }

    static func arrivals(_ lines: [String], on reader: String) -> [String] {
        Watch.events(lines).filter { $0["type"]?.stringValue == "arrived" && $0["reader"]?.stringValue == reader }
            .compactMap { $0["uid"]?.stringValue }
    }

    @Test func readersAddedAndRemovedThroughARealPCSCDAreWatchedAndReported() throws {
        let pcscd = try PrivatePCSCD()
        let dockA = PrivatePCSCD.Reader(name: "Dock A", port: try PrivatePCSCD.freePortPair())
        var dockB = PrivatePCSCD.Reader(name: "Dock B", port: try PrivatePCSCD.freePortPair())
        while dockB.port == dockA.port || dockB.port == dockA.port + 1 || dockB.port + 1 == dockA.port {
            dockB.port = try PrivatePCSCD.freePortPair()
        }
        try pcscd.start(readers: [dockA])
        let w = try Watch.start(
            ["--device", "pcsc", "--station-id", "docks"], environment: ["PCSCLITE_CSOCK_NAME": pcscd.socket])
        defer {
            w.signal(SIGTERM)
            _ = w.waitForExit(seconds: 30)
        }
        let a = dockA.slots.map { "pcsc:\($0)" }
        let b = dockB.slots.map { "pcsc:\($0)" }
        #expect(w.wait(seconds: 30) { out, _ in Self.present(out) == Set(a) }, "\(w.stdoutLines) \(pcscd.log)")

        // A tag on Dock A.
        var card = try ServedCard(try Self.ntag215("04A1B2C3D4E501"), port: dockA.port)
        #expect(w.wait(seconds: 30) { out, _ in Self.arrivals(out, on: a[0]) == ["04A1B2C3D4E501"] })
        card.remove()
        #expect(w.wait(seconds: 30) { out, _ in Watch.count(out, type: "left") == 1 })

        // Dock A unplugged and Dock B plugged in (vpcd 0.8 keeps one context per slot number, so one pcscd serves one
        // vpcd entry): the station reports A removed, adds B, and reads tags on both of B's slots.
        try pcscd.restart(readers: [dockB])
        #expect(w.wait(seconds: 60) { out, _ in Self.present(out) == Set(b) }, "\(w.stdoutLines) \(w.stderrLines)")
        card = try ServedCard(try Self.ntag215("04B1B2C3D4E502"), port: dockB.port)
        #expect(w.wait(seconds: 30) { out, _ in Self.arrivals(out, on: b[0]) == ["04B1B2C3D4E502"] })
        card.remove()
        #expect(w.wait(seconds: 30) { out, _ in Watch.count(out, type: "left") == 2 })
        let second = try ServedCard(try Self.ntag215("04B1B2C3D4E503"), port: dockB.port + 1)
        #expect(w.wait(seconds: 30) { out, _ in Self.arrivals(out, on: b[1]) == ["04B1B2C3D4E503"] })
        second.remove()
        #expect(w.wait(seconds: 30) { out, _ in Watch.count(out, type: "left") == 3 })

        // Dock B unplugged, Dock A back: B reported removed, saying why; A added again and reading tags.
        try pcscd.restart(readers: [dockA])
        #expect(w.wait(seconds: 60) { out, _ in Self.present(out) == Set(a) }, "\(w.stdoutLines) \(w.stderrLines)")
        let removals = Watch.events(w.stdoutLines).filter { $0["type"]?.stringValue == "reader-removed" }
        #expect(Set(removals.compactMap { $0["reader"]?.stringValue }) == Set(a + b))
        #expect(
            removals.allSatisfy {
                let m = $0["message"]?.stringValue ?? ""
                return m == "the reader was unplugged" || m.hasPrefix("the PC/SC service stopped")
            }, "\(removals)")
        card = try ServedCard(try Self.ntag215("04A1B2C3D4E504"), port: dockA.port)
        #expect(
            w.wait(seconds: 30) { out, _ in Self.arrivals(out, on: a[0]) == ["04A1B2C3D4E501", "04A1B2C3D4E504"] })
        card.remove()
        // Every event printed in sequence, without gaps.
        let seqs = Watch.events(w.stdoutLines).compactMap { $0["seq"]?.intValue }
        #expect(seqs == Array(1...seqs.count))
    }
}
