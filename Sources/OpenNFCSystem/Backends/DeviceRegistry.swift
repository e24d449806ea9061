internal import Foundation
public import OpenNFCRF
internal import Synchronization

/// What a device string opens: a frontend, the clock the system should run on, and optional hooks.
public struct OpenedDevice {
    public var frontend: any RFFrontend
    /// True for a simulated device: the system runs on a ``VirtualClock`` that the idle detector advances.
    public var clock: Clock
    /// Which handles are in the field, when the backend knows without polling.
    public var presence: (@Sendable () -> Set<Int>)?
    /// Lets the backend tell the system when tags arrive or leave (called once the system exists).
    public var connect: ((NFCSystem) -> Void)?
    /// Poll this often while scanning (backends that cannot report arrivals).
    public var pollInterval: NFCDuration?
    /// The tag files a `sim:` device writes back when their tags change.
    public var tagFiles: TagFileWriter?

    public enum Clock {
        case virtual(VirtualClock)
        case wall
    }

    public init(
        frontend: any RFFrontend, clock: Clock, presence: (@Sendable () -> Set<Int>)? = nil,
        connect: ((NFCSystem) -> Void)? = nil, pollInterval: NFCDuration? = nil
    ) {
        self.frontend = frontend
        self.clock = clock
        self.presence = presence
        self.connect = connect
        self.pollInterval = pollInterval
    }
}

/// A device-string scheme (nfcpy style: `sim:…`, `pcsc:…`): its name, a line of help, and how to open it.
public struct DeviceScheme: Sendable {
    public var name: String
    public var help: String
    /// Opens the device; `argument` is what follows `name:` (empty when there is no colon).
    public var open: @Sendable (_ argument: String) throws(DeviceError) -> OpenedDevice

    public init(
        name: String, help: String, open: @escaping @Sendable (_ argument: String) throws(DeviceError) -> OpenedDevice
    ) {
        self.name = name
        self.help = help
        self.open = open
    }
}

/// A device string that cannot be opened, with what to do about it.
public struct DeviceError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The schemes device strings may use. Backends register themselves here (the PC/SC backend adds `pcsc`), so a
/// new backend needs no change to the system's internals.
public enum DeviceRegistry {
    private static let schemes = Mutex<[String: DeviceScheme]>(
        Dictionary(builtIn.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last }))

    /// Adds or replaces a scheme.
    public static func register(_ scheme: DeviceScheme) { schemes.withLock { $0[scheme.name] = scheme } }

    /// The registered scheme names, sorted.
    public static var names: [String] { schemes.withLock { $0.keys.sorted() } }

    public static func scheme(named name: String) -> DeviceScheme? { schemes.withLock { $0[name] } }

    /// Opens `sim:…`, `pcsc:…` or any registered scheme.
    public static func open(_ device: String) throws(DeviceError) -> OpenedDevice {
        let name = device.split(separator: ":", maxSplits: 1).first.map(String.init) ?? device
        let argument = device.count > name.count ? String(device.dropFirst(name.count + 1)) : ""
        guard let scheme = scheme(named: name) else {
            let known = names.map { "\($0):" }.joined(separator: ", ")
            throw DeviceError("unknown device \"\(device)\" (known schemes: \(known.isEmpty ? "none" : known))")
        }
        return try scheme.open(argument)
    }
}
