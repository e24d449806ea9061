import Foundation
import OpenNFCDevices
import OpenNFCRF
import OpenNFCTestSupport
import Synchronization
import Testing

@testable import OpenNFCStation

/// Readers plugged in and out while the station runs: the PC/SC directory over a scripted reader list, each reader a
/// device of a test scheme whose tag source fails once its reader is unplugged (as a PC/SC reader's does).
@Suite struct HotPlugTests {
    /// The readers "plugged in" now, shared by the list and the tag sources.
    final class Readers: @unchecked Sendable {
        let names = Mutex<[String]>([])
        func plug(_ n: String) { names.withLock { $0.append(n) } }
        func unplug(_ n: String) { names.withLock { $0.removeAll { $0 == n } } }
        var current: [String] { names.withLock { $0 } }
    }

    /// A reader without tags that fails as soon as it is unplugged.
    final class ReaderSource: DeviceTagSource {
        let name: String
        let readers: Readers
        let stop = StopSignal()
        init(_ name: String, _ readers: Readers) {
            self.name = name
            self.readers = readers
        }
        var tagsRemaining: Int? { nil }
        var waitsForPeople: Bool { true }
        func waitForTag(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> RFTarget? {
            if !readers.current.contains(name) { throw DeviceError("SCardGetStatusChange: unknown reader '\(name)'") }
            // Bounded, as a reader's wait is: returns early only when the station stops.
            _ = stop.wait(seconds: min(timeout.seconds, 0.02))
            if !readers.current.contains(name) { throw DeviceError("SCardGetStatusChange: unknown reader '\(name)'") }
            return nil
        }
        func release() throws(DeviceError) {}
        func waitForRemoval(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> Bool { true }
        func close() {}
    }

    final class Collected: @unchecked Sendable {
        let events = Mutex<[StationEvent]>([])
        let condition = NSCondition()
        func add(_ e: StationEvent) {
            condition.lock()
            events.withLock { $0.append(e) }
            condition.broadcast()
            condition.unlock()
        }
        func wait(seconds: Double, _ p: ([StationEvent]) -> Bool) -> Bool {
            let deadline = Date(timeIntervalSinceNow: seconds)
            condition.lock()
            defer { condition.unlock() }
            while !p(events.withLock { $0 }) {
                if !condition.wait(until: deadline) { return p(events.withLock { $0 }) }
            }
            return true
        }
        func of(_ kind: StationEvent.Kind) -> [String] {
            events.withLock { $0.filter { $0.kind == kind }.compactMap(\.reader) }
        }
    }

    @Test func readersPluggedAndUnpluggedWhileWatching() throws {
        let readers = Readers()
        DeviceRegistry.register(
            DeviceScheme(name: "hotplugtest", usage: "hotplugtest:<reader>", help: "test readers") {
                (argument: String, _: DeviceUse) throws(DeviceError) -> OpenedDevice in
                guard readers.current.contains(argument) else { throw DeviceError("no reader '\(argument)'") }
                var o = try DeviceRegistry.open("sim:empty", for: .command)
                o.tags = ReaderSource(argument, readers)
                o.name = "hotplugtest:\(argument)"
                return o
            })
        let got = Collected()
        let lines = Mutex<[String]>([])
        let log = StationLog { line in lines.withLock { $0.append(line) } }
        readers.plug("Reader A")
        let directory = PCSCReaderDirectory(
            uidOnly: true, debounce: .zero, log: log, scheme: "hotplugtest", list: { readers.current },
            sink: { got.add($0) })
        directory.start()
        #expect(got.wait(seconds: 10) { $0.count == 1 })
        #expect(got.of(.readerAdded) == ["hotplugtest:Reader A"])
        readers.plug("Reader B")
        #expect(got.wait(seconds: 10) { $0.count == 2 })
        #expect(got.of(.readerAdded) == ["hotplugtest:Reader A", "hotplugtest:Reader B"])
        readers.unplug("Reader A")
        #expect(got.wait(seconds: 10) { $0.count == 3 })
        #expect(got.of(.readerRemoved) == ["hotplugtest:Reader A"])
        #expect(got.events.withLock { $0.last?.message } == "the reader was unplugged")
        // Plugged in again: a new reader-added, and no error on the way.
        readers.plug("Reader A")
        #expect(got.wait(seconds: 10) { $0.count == 4 })
        #expect(got.of(.readerAdded).count == 3)
        #expect(got.of(.error).isEmpty)
        directory.stop.raise()
        #expect(directory.join(seconds: 10))
        #expect(lines.withLock { $0 }.contains { $0.contains("INFO device hotplugtest:Reader A: removed") })
    }

    @Test func aServiceThatIsNotRunningIsLoggedOnceAndWatchedFor() throws {
        let lines = Mutex<[String]>([])
        let log = StationLog { line in lines.withLock { $0.append(line) } }
        let calls = Atomic<Int>(0)
        let directory = PCSCReaderDirectory(
            uidOnly: true, debounce: .zero, log: log, scheme: "hotplugtest",
            list: {
                calls.add(1, ordering: .relaxed)
                throw DeviceError("pcscd is not running")
            }, sink: { _ in })
        directory.start()
        let deadline = Date(timeIntervalSinceNow: 10)
        while calls.load(ordering: .relaxed) < 3 && Date() < deadline { _ = directory.stop.wait(seconds: 0.05) }
        directory.stop.raise()
        #expect(directory.join(seconds: 10))
        #expect(calls.load(ordering: .relaxed) >= 3)
        #expect(lines.withLock { $0 }.filter { $0.contains("WARN pcsc: no readers can be listed") }.count == 1)
    }
}
