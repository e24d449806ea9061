internal import Foundation
internal import OpenNFCDevices
package import OpenNFCRF
internal import Synchronization

/// Keeps one device watched for the life of the station: opens it, reports `reader-added`, runs its
/// ``DeviceWatcher``, and when the device fails reports it and opens it again with back-off (1 s doubling to 30 s) —
/// unless `gone` says why the device is no longer there (a PC/SC reader unplugged, or pcscd stopped), which ends it
/// with `reader-removed` carrying that sentence.
/// A device that runs out of tags (`sim:`, `replay:`) is opened again `repeats` times, then reported removed.
package final class DeviceSupervisor: @unchecked Sendable {
    package let device: String
    let uidOnly: Bool
    let debounce: NFCDuration
    let repeats: Int
    /// Why the device is no longer there, or nil while it is.
    let gone: (@Sendable () -> String?)?
    let sink: @Sendable (StationEvent) -> Void
    let log: StationLog
    package let stop = StopSignal()
    private let done = StopSignal()

    package init(
        device: String, uidOnly: Bool, debounce: NFCDuration, repeats: Int = 1, gone: (@Sendable () -> String?)? = nil,
        log: StationLog, sink: @escaping @Sendable (StationEvent) -> Void
    ) {
        self.device = device
        self.uidOnly = uidOnly
        self.debounce = debounce
        self.repeats = max(repeats, 1)
        self.gone = gone
        self.log = log
        self.sink = sink
    }

    /// True once ``run()`` returned.
    package var finished: Bool { done.raised }

    /// Runs on a thread of its own.
    package func start() {
        let t = Thread { [self] in
            run()
            done.raise()
        }
        t.name = "opennfc watch \(device)"
        t.start()
    }

    /// Waits (bounded) for ``run()`` to return after ``stop`` was raised.
    package func join(seconds: Double) -> Bool { done.wait(seconds: seconds) }

    func run() {
        var failures = 0
        var lastError: String?
        var cycles = 0
        var announced: String?
        while !stop.raised {
            let watcher: DeviceWatcher
            do {
                watcher = try DeviceWatcher.open(device, uidOnly: uidOnly, debounce: debounce)
            } catch {
                if let why = gone?() {
                    // Gone while being reopened: reported removed if it had been reported added.
                    if let name = announced { removed(name, why) }
                    return
                }
                if error.message != lastError {
                    log.error("device \(device): \(error.message)")
                    var e = StationEvent(.error, reader: announced ?? device)
                    e.message = error.message
                    sink(e)
                    lastError = error.message
                }
                failures += 1
                stop.wait(seconds: Double(min(30, 1 << min(failures - 1, 5))))
                continue
            }
            if announced == nil {
                announced = watcher.name
                log.info("device \(watcher.name): watching")
                sink(StationEvent(.readerAdded, reader: watcher.name))
            }
            failures = 0
            lastError = nil
            switch watcher.run(stop: stop, emit: sink) {
            case .stopped:
                return
            case .finished:
                cycles += 1
                if cycles < repeats { continue }
                log.info("device \(watcher.name): presented all its tags")
                var e = StationEvent(.readerRemoved, reader: watcher.name)
                e.message = "the device presented all its tags"
                sink(e)
                return
            case .failed(let why):
                if let reason = gone?() {
                    removed(watcher.name, reason)
                    return
                }
                log.error("device \(watcher.name): \(why)")
                var e = StationEvent(.error, reader: watcher.name)
                e.message = why
                sink(e)
                failures += 1
                stop.wait(seconds: Double(min(30, 1 << min(failures - 1, 5))))
            }
        }
    }

    private func removed(_ name: String, _ why: String) {
        log.info("device \(name): removed (\(why))")
        var e = StationEvent(.readerRemoved, reader: name)
        e.message = why
        sink(e)
    }
}
