internal import Foundation
internal import OpenNFCPCSC
package import OpenNFCRF

/// Every PC/SC reader, as readers come and go (`--device pcsc` without a name): lists pcscd's readers every 500 ms
/// and keeps one ``DeviceSupervisor`` per reader (device `pcsc:<exact name>`), so each reader has its own loop and a
/// slow tag on one never delays another. A reader that disappears ends its supervisor with `reader-removed`; one
/// that appears gets `reader-added`. When pcscd itself is not running the directory says so once and keeps looking.
package final class PCSCReaderDirectory: @unchecked Sendable {
    let uidOnly: Bool
    let debounce: NFCDuration
    let log: StationLog
    let sink: @Sendable (StationEvent) -> Void
    package let stop = StopSignal()
    private let done = StopSignal()
    /// How the readers are listed (the real pcscd unless a test gives another).
    let list: @Sendable () throws -> [String]
    /// The device scheme each reader is opened with (`pcsc`; a test registers its own).
    let scheme: String

    package init(
        uidOnly: Bool, debounce: NFCDuration, log: StationLog, scheme: String = "pcsc",
        list: (@Sendable () throws -> [String])? = nil, sink: @escaping @Sendable (StationEvent) -> Void
    ) {
        self.scheme = scheme
        self.uidOnly = uidOnly
        self.debounce = debounce
        self.log = log
        self.sink = sink
        self.list = list ?? { try PCSCContext().readers() }
    }

    package func start() {
        let t = Thread { [self] in
            run()
            done.raise()
        }
        t.name = "opennfc watch pcsc"
        t.start()
    }

    package func join(seconds: Double) -> Bool { done.wait(seconds: seconds) }

    func run() {
        var supervisors: [String: DeviceSupervisor] = [:]
        var unavailable: String?
        let list = self.list
        while !stop.raised {
            var names: [String] = []
            do {
                names = try list()
                if unavailable != nil { log.info("pcsc: the PC/SC service is back") }
                unavailable = nil
            } catch {
                let why = (error as? PCSCError)?.detail ?? "\(error)"
                if unavailable != why { log.warning("pcsc: no readers can be listed: \(why)") }
                unavailable = why
            }
            for (name, s) in supervisors where s.finished { supervisors[name] = nil }
            for name in names where supervisors[name] == nil {
                let s = DeviceSupervisor(
                    device: "\(scheme):\(name)", uidOnly: uidOnly, debounce: debounce,
                    gone: {
                        do {
                            return try list().contains(name) ? nil : "the reader was unplugged"
                        } catch {
                            return "the PC/SC service stopped: \((error as? PCSCError)?.detail ?? "\(error)")"
                        }
                    }, log: log, sink: sink)
                supervisors[name] = s
                s.start()
            }
            stop.wait(seconds: 0.5)
        }
        for s in supervisors.values { s.stop.raise() }
        for s in supervisors.values { _ = s.join(seconds: 5) }
    }
}
