internal import Foundation
package import OpenNFCRF
package import OpenNFCSimulation
internal import OpenNFCSystem

/// The `sim:` device: a simulated reader over a ``VirtualField`` on a ``VirtualClock``.
///
/// | Device string | The phone (`OPENCORENFC_DEVICE`) | A tag command (`opennfc --device`) |
/// |---|---|---|
/// | `sim:empty` | a field without tags | no tag ever arrives |
/// | `sim:<a>+<b>+…` or `sim:<a>,<b>,…` | one tag per file, all in the field (positions 0, 1, …) | the tags one after another, the next once the command released the previous |
///
/// `+` and `,` both separate tag files (`.json`, Flipper `.nfc`, or a bare `.ndef` message on a factory NTAG215);
/// every file is loaded and checked before the device opens.
///
/// | Behaviour | How |
/// |---|---|
/// | Writing back (the phone) | whenever the system releases a tag (after identifying or reading it, when the app connects another tag, restarts polling, or the session ends), each tag is encoded in its file's format and compared with the file's last saved encoding; a file whose tag changed (the app wrote, locked, set a password) is replaced atomically (temporary file + rename), so the next run sees it. A tag that changed nothing leaves its file byte-for-byte untouched |
/// | Writing back (a tag command) | on release, the same comparison for the released tag; a file that cannot be saved fails the command |
/// | Leaving files untouched | `OPENCORENFC_SIM_SAVE=0` (environment mode): the tags change in memory only |
/// | A file that cannot be saved | the phone prints the reason on stderr (`OpenCoreNFC: cannot save …`); the session goes on |
///
/// The virtual clock moves only through the idle detector (environment mode), the test (testing product), or a
/// command's wait.
package enum SimulatedDevice {
    /// Loads one tag file (`.json`, Flipper `.nfc`, or a bare `.ndef` message on a factory NTAG215).
    package static func loadTagFile(_ path: String) throws(DeviceError) -> any VirtualTag {
        try loadSlot(path).tag
    }

    /// The registered scheme.
    package static let scheme = DeviceScheme(
        name: "sim", usage: "sim:<tagfile>[+<tagfile>…]",
        help: "sim:<tagfile>[+<tagfile>…] or sim:empty — the simulated reader with these tags (`,` works as `+`)"
    ) { (argument: String, use: DeviceUse) throws(DeviceError) -> OpenedDevice in
        var slots: [TagFileWriter.Slot] = []
        if argument != "empty" {
            let paths = argument.split(omittingEmptySubsequences: false) { $0 == "+" || $0 == "," }.map(String.init)
            guard !paths.isEmpty, !paths.contains(where: \.isEmpty) else {
                throw DeviceError(
                    usage: "sim: needs tag files, as in sim:tag.json or sim:a.json+b.json (or sim:empty)")
            }
            for path in paths { slots.append(try loadSlot(path)) }
        }
        switch use {
        case .phone:
            let files = TagFileWriter(slots: slots)
            var opened = open(tags: slots.map(\.tag))
            opened.name = "sim:\(argument)"
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
        case .command:
            let clock = VirtualClock()
            let field = VirtualField(clock: clock)
            let source = SimulatedTagSource(field: field, slots: slots)
            var opened = OpenedDevice(frontend: source.frontend, clock: .virtual(clock))
            opened.name = "sim:\(argument)"
            opened.tags = source
            return opened
        }
    }

    /// A simulated device with these tags in the field.
    package static func open(tags: [any VirtualTag], clock: VirtualClock = VirtualClock()) -> OpenedDevice {
        let field = VirtualField(clock: clock)
        for (i, t) in tags.enumerated() { field.place(t, at: i) }
        return open(field: field)
    }

    /// A simulated device over an existing field.
    package static func open(field: VirtualField, capabilities: RFCapabilities = .simulatedIPhone) -> OpenedDevice {
        let frontend = InstrumentedFrontend(VirtualFieldFrontend(field: field, capabilities: capabilities))
        let box = FieldBox(field)
        return OpenedDevice(
            frontend: frontend, clock: .virtual(field.clock),
            presence: { box.field.handles },
            connect: { [box] system in
                box.field.addObserver { [weak system] _ in system?.fieldDidChange() }
            })
    }

    static func loadSlot(_ path: String) throws(DeviceError) -> TagFileWriter.Slot {
        guard let format = TagFile.Format(path: path) else {
            throw DeviceError("tag file '\(path)': unknown extension; use .json, .nfc or .ndef")
        }
        do {
            let tag = try TagFile.read(path: path)
            return .init(path: path, format: format, tag: tag, saved: try TagFile.encode(tag, as: format))
        } catch {
            throw DeviceError(describe(error, path))
        }
    }

    static func describe(_ e: TagFileError, _ path: String) -> String {
        e.file == nil ? "tag file '\(path)': \(e)" : "\(e)"
    }
}

/// A tag command's use of `sim:`: the tags enter the field one after another and go back to their files.
///
/// | Behaviour | How |
/// |---|---|
/// | Tags | they enter the field one after another, the next when the command has released the previous |
/// | Writing back | on release, the tag is encoded in its file's format and compared with its encoding at load: the file is replaced atomically (temporary file + rename) only when they differ, so a command that changes nothing leaves it byte-for-byte untouched |
/// | Time | a ``VirtualClock`` advanced by the field's air time; waiting for a tag that never comes jumps the clock to the timeout at once |
final class SimulatedTagSource: DeviceTagSource {
    typealias Slot = TagFileWriter.Slot

    let field: VirtualField
    let frontend: VirtualFieldFrontend
    private var slots: [Slot]
    private var next = 0
    private var current: (slot: Int, handle: Int)?

    init(field: VirtualField, slots: [Slot]) {
        self.field = field
        self.frontend = VirtualFieldFrontend(field: field)
        self.slots = slots
    }

    var tagsRemaining: Int? { slots.count - next }
    var waitsForPeople: Bool { false }

    func waitForTag(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> RFTarget? {
        if current == nil, next < slots.count {
            current = (next, field.place(slots[next].tag))
            next += 1
        }
        if let current {
            let found: [RFTarget]
            do {
                found = try frontend.poll(Set(RFTechnology.allCases))
            } catch {
                throw DeviceError("the simulated field failed while polling: \(error)")
            }
            if let t = found.first(where: { $0.handle == current.handle }) { return t }
        }
        // Nothing more will arrive: the wait ends at the timeout, on the virtual clock.
        field.clock.advance(by: timeout)
        return nil
    }

    func release() throws(DeviceError) {
        guard let c = current else { return }
        current = nil
        field.remove(c.handle)
        let slot = slots[c.slot]
        let now: [UInt8]
        do {
            now = try TagFile.encode(slot.tag, as: slot.format)
            guard now != slot.saved else { return }
            try TagFile.writeAtomically(now, to: slot.path)
        } catch {
            throw DeviceError(SimulatedDevice.describe(error, slot.path))
        }
        slots[c.slot].saved = now
    }

    func waitForRemoval(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> Bool { true }

    func close() {}
}

/// The field, for closures the system calls on its executor (the field itself is not thread-safe).
private final class FieldBox: @unchecked Sendable {
    let field: VirtualField
    init(_ field: VirtualField) { self.field = field }
}

/// The tag files a `sim:` device was opened with, written back when their tags change (see ``SimulatedDevice``).
/// Used on the system's executor only.
package final class TagFileWriter: @unchecked Sendable {
    struct Slot {
        var path: String
        var format: TagFile.Format
        var tag: any VirtualTag
        var saved: [UInt8]
    }

    private var slots: [Slot] = []
    /// False leaves the files untouched (`OPENCORENFC_SIM_SAVE=0`).
    package var isEnabled = true

    init(slots: [Slot]) { self.slots = slots }

    /// Writes back, atomically, every file whose tag no longer encodes to what was last saved.
    package func saveChanged() {
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
