internal import Foundation
internal import OpenNFCBytes
package import OpenNFCRF
package import OpenNFCSystem
internal import Synchronization

/// Who opens a device string. The grammar and the registry are the same for both; what differs is how a device is
/// used (docs/ARCHITECTURE.md, "Devices and device strings"):
///
/// | Use | Opened by | PC/SC without a reader name | `sim:` tag files |
/// |---|---|---|---|
/// | ``phone`` | `OPENCORENFC_DEVICE` (``NFCSystem``) | every reader is watched | all in the field at once, positions 0, 1, … |
/// | ``command`` | `opennfc --device` | the only reader (an error lists several) | one after another, each written back to its file when it changed |
package enum DeviceUse: Sendable, Hashable {
    case phone
    case command
}

/// How a tag command uses a device: one tag at a time (``DeviceUse/command``).
///
/// ``waitForTag(timeout:interrupted:)`` returns the next tag in the field (waiting for one when there is none, on
/// the device's own clock), and ``release()`` ends the command's use of it: a simulated device writes the tag back to
/// its file when its state changed and takes it out of the field, a reader lets it go (the person takes it away).
package protocol DeviceTagSource: AnyObject {
    /// Tags still to be presented, when the device knows (the simulated field); nil for a reader.
    var tagsRemaining: Int? { get }
    /// True when a wait should print a prompt before blocking (a real reader); the simulated field never blocks.
    var waitsForPeople: Bool { get }
    /// The next tag in the field: at once if one is there, otherwise after waiting up to `timeout` (or until
    /// `interrupted` says so); nil when the time ran out.
    func waitForTag(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> RFTarget?
    /// The command is done with the current tag.
    func release() throws(DeviceError)
    /// Waits until the tag just released has left the field, at most `timeout`; false when it is still there.
    func waitForRemoval(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> Bool
    /// Ends the use of the device. Called once.
    func close()
}

/// What a device string opens: a frontend, the clock the system should run on, and optional hooks.
package struct OpenedDevice {
    package var frontend: any RFFrontend
    /// True for a simulated device: the system runs on a ``VirtualClock`` that the idle detector advances.
    package var clock: Clock
    /// Which handles are in the field, when the backend knows without polling.
    package var presence: (@Sendable () -> Set<Int>)?
    /// Lets the backend tell the system when tags arrive or leave (called once the system exists).
    package var connect: ((NFCSystem) -> Void)?
    /// Poll this often while scanning (backends that cannot report arrivals).
    package var pollInterval: NFCDuration?
    /// The tag files a `sim:` device writes back when their tags change.
    package var tagFiles: TagFileWriter?
    /// The device as a person would write it, for messages (`sim:a.json`, `pcsc:ACS ACR122U 00 00`).
    package var name: String = ""
    /// How a tag command takes tags from this device; nil: ``tagSource`` polls the frontend on the device's clock.
    package var tags: (any DeviceTagSource)?

    package enum Clock {
        case virtual(VirtualClock)
        case wall
    }

    package init(
        frontend: any RFFrontend, clock: Clock, presence: (@Sendable () -> Set<Int>)? = nil,
        connect: ((NFCSystem) -> Void)? = nil, pollInterval: NFCDuration? = nil
    ) {
        self.frontend = frontend
        self.clock = clock
        self.presence = presence
        self.connect = connect
        self.pollInterval = pollInterval
    }

    /// The device's time as an ``NFCClock``: the virtual clock, or the one ``WallClock`` type of the package.
    package var nfcClock: any NFCClock {
        switch clock {
        case .virtual(let c): return c
        case .wall: return WallClock()
        }
    }

    /// How a tag command takes tags from this device: the backend's own source, or polling its frontend.
    package var tagSource: any DeviceTagSource {
        tags ?? PollingTagSource(frontend: frontend, clock: nfcClock, interval: pollInterval ?? .milliseconds(250))
    }
}

/// A device-string scheme (nfcpy style: `sim:…`, `pcsc:…`): its name, a line of help, and how to open it.
///
/// Registering a scheme is one line: add it to ``DeviceRegistry/builtIn`` (BuiltInDevices.swift) or call
/// ``DeviceRegistry/register(_:)`` at run time; both `OPENCORENFC_DEVICE` and `opennfc --device` then accept it.
package struct DeviceScheme: Sendable {
    package var name: String
    package var help: String
    /// The accepted spellings, for the "use …" of error messages (`pcsc or pcsc:<reader>`).
    package var usage: String
    private var opener: @Sendable (_ argument: String, _ use: DeviceUse) throws(DeviceError) -> OpenedDevice

    /// A scheme that opens the same way for the phone and for tag commands; `argument` is what follows `name:`
    /// (empty when there is no colon).
    package init(
        name: String, help: String, open: @escaping @Sendable (_ argument: String) throws(DeviceError) -> OpenedDevice
    ) {
        self.init(name: name, usage: "\(name):<argument>", help: help) { (argument, _) throws(DeviceError) in
            try open(argument)
        }
    }

    /// A scheme that knows whether the phone or a tag command opens it.
    package init(
        name: String, usage: String, help: String,
        open: @escaping @Sendable (_ argument: String, _ use: DeviceUse) throws(DeviceError) -> OpenedDevice
    ) {
        self.name = name
        self.help = help
        self.usage = usage
        self.opener = open
    }

    /// Opens the device; `argument` is what follows `name:` (empty when there is no colon).
    package func open(_ argument: String) throws(DeviceError) -> OpenedDevice { try opener(argument, .phone) }

    package func open(_ argument: String, for use: DeviceUse) throws(DeviceError) -> OpenedDevice {
        try opener(argument, use)
    }
}

/// A device string that cannot be opened, with what to do about it.
package struct DeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    /// What went wrong, so that each consumer can phrase it (the CLI: a usage error exits 64).
    package var kind: Kind = .failure

    package enum Kind: Sendable, Hashable {
        /// The device failed to open or to work.
        case failure
        /// The string itself is malformed: unknown scheme, missing argument.
        case usage
        /// The backend's service is not usable at all (no pcscd, no reader): the CLI's default device explains it.
        case unavailable
    }

    package init(_ message: String) { self.message = message }
    package init(_ message: String, kind: Kind) {
        self.message = message
        self.kind = kind
    }
    package init(usage message: String) { self.init(message, kind: .usage) }
    package var description: String { message }
}

/// The schemes device strings may use, and the one grammar of device strings: `<scheme>` or `<scheme>:<argument>`.
/// Devices register here, so a new device needs no change to the system's internals or to the CLI.
package enum DeviceRegistry {
    /// The environment variables that name a device, in order of precedence (`OPENNFC_DEVICE` is the CLI's older
    /// name, still accepted).
    package static let environmentVariables = ["OPENCORENFC_DEVICE", "OPENNFC_DEVICE"]

    private static let schemes = Mutex<[DeviceScheme]>(builtIn)

    /// Adds or replaces a scheme.
    package static func register(_ scheme: DeviceScheme) {
        schemes.withLock { list in
            if let i = list.firstIndex(where: { $0.name == scheme.name }) {
                list[i] = scheme
            } else {
                list.append(scheme)
            }
        }
    }

    /// The registered scheme names, sorted.
    package static var names: [String] { schemes.withLock { $0.map(\.name).sorted() } }

    package static func scheme(named name: String) -> DeviceScheme? {
        schemes.withLock { $0.first { $0.name == name } }
    }

    /// "sim:<tagfile>[+<tagfile>…], pcsc or pcsc:<reader>": every scheme's spellings, in registration order.
    package static var usage: String {
        let all = schemes.withLock { $0.map(\.usage) }
        guard let last = all.last else { return "a registered scheme (none is)" }
        return all.count == 1 ? last : all.dropLast().joined(separator: ", ") + " or " + last
    }

    /// The device named by the environment (``environmentVariables``), with the variable's name.
    package static func fromEnvironment(_ env: [String: String]) -> (variable: String, device: String)? {
        for v in environmentVariables {
            if let d = env[v], !d.isEmpty { return (v, d) }
        }
        return nil
    }

    /// Opens `sim:…`, `pcsc:…` or any registered scheme, for the phone.
    package static func open(_ device: String) throws(DeviceError) -> OpenedDevice { try open(device, for: .phone) }

    /// Opens `sim:…`, `pcsc:…` or any registered scheme, for `use`.
    package static func open(_ device: String, for use: DeviceUse) throws(DeviceError) -> OpenedDevice {
        let name = device.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init)
        // Scheme names are lower case; `PCSC:` is the same scheme.
        guard let name, let scheme = scheme(named: name) ?? scheme(named: name.lowercased()) else {
            let hint = Suggestion.hint(for: name ?? device, among: names)
            throw DeviceError(usage: "unknown device '\(device)'\(hint); use \(usage)")
        }
        let hasColon = device.count > name.count
        let argument = hasColon ? String(device.dropFirst(name.count + 1)) : ""
        // `vpcd:` and `remote:` mean their defaults (their usage shows the argument as optional); `sim:` needs one.
        if hasColon, argument.isEmpty, !scheme.usage.hasPrefix("\(name):[") {
            throw DeviceError(usage: "\(name): needs something after the colon; use \(scheme.usage)")
        }
        var opened = try scheme.open(argument, for: use)
        if opened.name.isEmpty { opened.name = device }
        return opened
    }
}

/// The tag source of a backend that offers none of its own: polls the frontend on the device's clock. On a virtual
/// clock a wait that finds nothing jumps the clock to its end (nothing else can make a tag arrive).
final class PollingTagSource: DeviceTagSource {
    let frontend: any RFFrontend
    let clock: any NFCClock
    let interval: NFCDuration
    private var current: Int?

    init(frontend: any RFFrontend, clock: any NFCClock, interval: NFCDuration) {
        self.frontend = frontend
        self.clock = clock
        self.interval = interval
    }

    var tagsRemaining: Int? { nil }
    var waitsForPeople: Bool { !(clock is VirtualClock) }

    func waitForTag(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> RFTarget? {
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let found: [RFTarget]
            do {
                found = try frontend.poll(Set(frontend.capabilities.technologies))
            } catch {
                throw DeviceError("the device failed while polling for a tag: \(error)")
            }
            if let t = found.first {
                current = t.handle
                return t
            }
            if let virtual = clock as? VirtualClock {
                virtual.advance(by: deadline.duration(since: clock.now))
                return nil
            }
            if interrupted() || clock.now >= deadline { return nil }
            // A backend without a blocking wait: pace the polls on the wall clock.
            _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .nanoseconds(Int(interval.nanoseconds)))
        }
    }

    func release() throws(DeviceError) { current = nil }

    func waitForRemoval(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> Bool { true }

    func close() { frontend.deactivate() }
}
