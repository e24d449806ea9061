internal import Foundation
public import OpenNFCRF
public import OpenNFCSimulation

/// The `sim:` device: a simulated iPhone's reader over a ``VirtualField`` on a ``VirtualClock``.
///
/// | Device string | Field when polling starts |
/// |---|---|
/// | `sim:empty` | no tags |
/// | `sim:<tagfile>[,<tagfile>…]` | one tag per file, in order (positions 0, 1, …) |
///
/// The virtual clock moves only through the idle detector (environment mode) or the test (testing product).
public enum SimulatedDevice {
    /// Loads one tag file (`.json`, Flipper `.nfc`, or a bare `.ndef` message on a factory NTAG215).
    public static func loadTagFile(_ path: String) throws(DeviceError) -> any VirtualTag {
        do {
            return try TagFile.read(path: path)
        } catch {
            throw DeviceError("\(error)")
        }
    }

    /// The registered scheme.
    public static let scheme = DeviceScheme(
        name: "sim", help: "sim:<tagfile>[,<tagfile>…] or sim:empty — the simulated iPhone with these tags"
    ) { (argument: String) throws(DeviceError) -> OpenedDevice in
        var tags: [any VirtualTag] = []
        if argument != "empty" {
            let paths = argument.split(separator: ",").map(String.init)
            guard !paths.isEmpty else {
                throw DeviceError("sim: needs tag files (sim:<tagfile>[,<tagfile>…]) or \"empty\"")
            }
            for path in paths { tags.append(try loadTagFile(path)) }
        }
        return open(tags: tags)
    }

    /// A simulated device with these tags in the field.
    public static func open(tags: [any VirtualTag], clock: VirtualClock = VirtualClock()) -> OpenedDevice {
        let field = VirtualField(clock: clock)
        for (i, t) in tags.enumerated() { field.place(t, at: i) }
        return open(field: field)
    }

    /// A simulated device over an existing field.
    public static func open(field: VirtualField, capabilities: RFCapabilities = .simulatedIPhone) -> OpenedDevice {
        let frontend = InstrumentedFrontend(VirtualFieldFrontend(field: field, capabilities: capabilities))
        let box = FieldBox(field)
        return OpenedDevice(
            frontend: frontend, clock: .virtual(field.clock),
            presence: { Set(box.field.tags.map(\.handle)) },
            connect: { [box] system in
                box.field.addObserver { [weak system] _ in system?.fieldDidChange() }
            })
    }
}

/// The field, for closures the system calls on its executor (the field itself is not thread-safe).
private final class FieldBox: @unchecked Sendable {
    let field: VirtualField
    init(_ field: VirtualField) { self.field = field }
}
