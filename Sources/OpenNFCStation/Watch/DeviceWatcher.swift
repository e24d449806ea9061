internal import Foundation
internal import OpenNFCBytes
package import OpenNFCDevices
package import OpenNFCRF

/// The loop over one device a tag command would use (a ``DeviceTagSource``: one PC/SC reader, a `sim:` field, a
/// `remote:` field …): wait for a tag, read it, report `arrived`, wait until it is gone, report `left`.
///
/// Debounce: with a window of D > 0, a `left` is held back for D; if the same UID comes back within D (a tag moved on
/// the reader, a flaky antenna), neither the `left` nor the second `arrived` is reported. D is measured on the
/// device's clock (virtual for `sim:`).
package struct DeviceWatcher {
    package enum End: Equatable {
        /// The device presented all its tags (`sim:`, `replay:`).
        case finished
        /// The device failed (a reader unplugged, the service gone), with the device layer's sentence.
        case failed(String)
        /// The station is stopping.
        case stopped
    }

    package var name: String
    package var frontend: any RFFrontend
    package var source: any DeviceTagSource
    package var clock: any NFCClock
    package var uidOnly: Bool
    package var debounce: NFCDuration
    /// How long one wait may block before the stop flag is looked at again.
    package var slice: NFCDuration = .milliseconds(500)

    package init(
        name: String, frontend: any RFFrontend, source: any DeviceTagSource, clock: any NFCClock, uidOnly: Bool,
        debounce: NFCDuration
    ) {
        self.name = name
        self.frontend = frontend
        self.source = source
        self.clock = clock
        self.uidOnly = uidOnly
        self.debounce = debounce
    }

    /// Opens `device` (any registered scheme) for a tag command's use and watches it.
    package static func open(_ device: String, uidOnly: Bool, debounce: NFCDuration) throws(DeviceError)
        -> DeviceWatcher
    {
        let opened = try DeviceRegistry.open(device, for: .command)
        return DeviceWatcher(
            name: opened.name, frontend: opened.frontend, source: opened.tagSource, clock: opened.nfcClock,
            uidOnly: uidOnly, debounce: debounce)
    }

    private struct HeldLeft {
        var event: StationEvent
        var uid: [UInt8]
        var until: NFCInstant
    }

    /// Runs until the device ends or `stop` is raised; every event goes to `emit`, in order.
    package func run(stop: StopSignal, emit: (StationEvent) -> Void) -> End {
        var held: HeldLeft?
        defer { source.close() }
        while true {
            if stop.raised {
                if let h = held { emit(h.event) }
                return .stopped
            }
            let wait = held.map { min(slice, $0.until.duration(since: clock.now)) } ?? slice
            let target: RFTarget?
            do {
                target = try source.waitForTag(timeout: wait) { stop.raised }
            } catch {
                if let h = held { emit(h.event) }
                return .failed(error.message)
            }
            var returned = false
            if let h = held {
                if let t = target, t.identifier == h.uid {
                    // The same tag came back within the window: as far as anyone is told, it never left.
                    returned = true
                    held = nil
                } else if target != nil || clock.now >= h.until {
                    emit(h.event)
                    held = nil
                } else {
                    continue
                }
            }
            guard let target else {
                if source.tagsRemaining == 0 { return .finished }
                continue
            }
            if !returned { emit(TagReading.read(target, on: name, frontend: frontend, uidOnly: uidOnly)) }
            frontend.deactivate()
            do {
                try source.release()
                while try !source.waitForRemoval(timeout: slice, interrupted: { stop.raised }) {
                    if stop.raised { return .stopped }
                }
            } catch {
                return .failed(error.message)
            }
            var left = StationEvent(.left, reader: name)
            left.uid = target.identifier.hexString
            left.technology = TagReading.name(of: target.technology)
            if debounce > .zero, source.tagsRemaining != 0 {
                held = HeldLeft(event: left, uid: target.identifier, until: clock.now.advanced(by: debounce))
            } else {
                emit(left)
            }
        }
    }
}
