import OpenNFCRF
import OpenNFCSimulation

/// `--device sim:<a.json>+<b.nfc>+…`: a simulated reader field fed from tag files.
///
/// | Behaviour | How |
/// |---|---|
/// | Tags | every file is loaded (and checked) before the command starts; they enter the field one after another, the next one when the command has released the previous |
/// | Writing back | on release, the tag is encoded in its file's format and compared with its encoding at load: the file is replaced atomically (temporary file + rename) only when they differ, so a command that changes nothing leaves it byte-for-byte untouched |
/// | Time | a ``VirtualClock`` advanced by the field's air time; waiting for a tag that never comes jumps the clock to the timeout at once |
/// | Frontend | ``VirtualFieldFrontend`` with the iPhone-like capabilities (frames up to 261/258 bytes) |
final class SimDevice: Device {
    struct Slot {
        var path: String
        var format: TagFile.Format
        var tag: any VirtualTag
        var snapshot: [UInt8]
    }

    let files: [String]
    let virtualClock = VirtualClock()
    let field: VirtualField
    let sim: VirtualFieldFrontend
    private var slots: [Slot] = []
    private var next = 0
    private var current: (slot: Int, handle: Int)?

    var clock: any NFCClock { virtualClock }
    var name: String { "sim:" + files.joined(separator: "+") }
    var frontend: any RFFrontend { sim }
    var tagsRemaining: Int? { slots.count - next }
    var waitsForPeople: Bool { false }

    init(files: [String]) throws {
        self.files = files
        field = VirtualField(clock: virtualClock)
        sim = VirtualFieldFrontend(field: field)
        for path in files {
            guard let format = TagFile.Format(path: path) else {
                throw CLIError.failure("tag file '\(path)': unknown extension; use .json, .nfc or .ndef")
            }
            do {
                let tag = try TagFile.read(path: path)
                slots.append(Slot(path: path, format: format, tag: tag, snapshot: try TagFile.encode(tag, as: format)))
            } catch {
                throw CLIError.failure(Self.describe(error, path))
            }
        }
    }

    func waitForTag(timeout: NFCDuration) throws -> RFTarget? {
        if current == nil, next < slots.count {
            current = (next, field.place(slots[next].tag))
            next += 1
        }
        if let current {
            let found = try sim.poll(Set(RFTechnology.allCases))
            if let t = found.first(where: { $0.handle == current.handle }) { return t }
        }
        // Nothing more will arrive: the wait ends at the timeout, on the virtual clock.
        virtualClock.advance(by: timeout)
        return nil
    }

    func release() throws {
        guard let c = current else { return }
        current = nil
        field.remove(c.handle)
        let slot = slots[c.slot]
        let now: [UInt8]
        do {
            now = try TagFile.encode(slot.tag, as: slot.format)
        } catch {
            throw CLIError.failure(Self.describe(error, slot.path))
        }
        guard now != slot.snapshot else { return }
        do {
            try TagFile.writeAtomically(now, to: slot.path)
        } catch {
            throw CLIError.failure(Self.describe(error, slot.path))
        }
        slots[c.slot].snapshot = now
    }

    func waitForRemoval(timeout: NFCDuration) throws -> Bool { true }

    func close() {}

    private static func describe(_ e: TagFileError, _ path: String) -> String {
        e.file == nil ? "tag file '\(path)': \(e)" : "\(e)"
    }
}
