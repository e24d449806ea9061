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
/// | Behaviour | How |
/// |---|---|
/// | Writing back | whenever the system releases a tag (after identifying or reading it, when the app connects another tag, restarts polling, or the session ends), each tag is encoded in its file's format and compared with the file's last saved encoding; a file whose tag changed (the app wrote, locked, set a password) is replaced atomically (temporary file + rename), so the next run sees it. A tag that changed nothing leaves its file byte-for-byte untouched |
/// | Leaving files untouched | `OPENCORENFC_SIM_SAVE=0` (environment mode): the tags change in memory only |
/// | A file that cannot be saved | the reason is printed on stderr (`OpenCoreNFC: cannot save …`); the session goes on |
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
        let files = TagFileWriter()
        if argument != "empty" {
            let paths = argument.split(separator: ",").map(String.init)
            guard !paths.isEmpty else {
                throw DeviceError("sim: needs tag files (sim:<tagfile>[,<tagfile>…]) or \"empty\"")
            }
            for path in paths {
                let tag = try loadTagFile(path)
                try files.add(tag, path: path)
                tags.append(tag)
            }
        }
        var opened = open(tags: tags)
        opened.tagFiles = files
        let connect = opened.connect
        let instrumented = opened.frontend as? InstrumentedFrontend
        opened.connect = { system in
            connect?(system)
            // The system observes the frontend for its transcript; releases are seen after it.
            guard let instrumented else { return }
            let previous = instrumented.observer
            instrumented.observer = { event in
                previous?(event)
                if case .deactivated = event { files.saveChanged() }
            }
        }
        return opened
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

/// The tag files a `sim:` device was opened with, written back when their tags change (see ``SimulatedDevice``).
/// Used on the system's executor only.
public final class TagFileWriter: @unchecked Sendable {
    struct Slot {
        var path: String
        var format: TagFile.Format
        var tag: any VirtualTag
        var saved: [UInt8]
    }

    private var slots: [Slot] = []
    /// False leaves the files untouched (`OPENCORENFC_SIM_SAVE=0`).
    public var isEnabled = true

    init() {}

    func add(_ tag: any VirtualTag, path: String) throws(DeviceError) {
        guard let format = TagFile.Format(path: path) else {
            throw DeviceError("\(path): unknown extension; use .json, .nfc or .ndef")
        }
        do {
            slots.append(Slot(path: path, format: format, tag: tag, saved: try TagFile.encode(tag, as: format)))
        } catch {
            throw DeviceError("\(path): \(error)")
        }
    }

    /// Writes back, atomically, every file whose tag no longer encodes to what was last saved.
    public func saveChanged() {
        guard isEnabled else { return }
        for i in slots.indices {
            let slot = slots[i]
            do {
                let now = try TagFile.encode(slot.tag, as: slot.format)
                guard now != slot.saved else { continue }
                try TagFile.writeAtomically(now, to: slot.path)
                slots[i].saved = now
            } catch {
                FileHandle.standardError.write(Data("OpenCoreNFC: cannot save \(slot.path): \(error)\n".utf8))
            }
        }
    }
}
