internal import OpenNFCPCSC
package import OpenNFCRF
internal import OpenNFCSystem

/// The `pcsc:` device: a USB (or virtual) reader through pcscd, with OpenNFCPCSC's ``PCSCFrontend``.
///
/// | Device string | The phone (`OPENCORENFC_DEVICE`) | A tag command (`opennfc --device`) |
/// |---|---|---|
/// | `pcsc` | every reader pcscd knows; each card present is one tag | the only reader (an error lists them when there are several) |
/// | `pcsc:<reader>` | the reader with that exact name, or the only one whose name contains it | the same |
///
/// The phone runs on the wall clock and polls every 250 ms while a session scans (each poll is one
/// `SCardGetStatusChange` without waiting, plus a UID read for a newly arrived card). A tag command blocks in
/// `SCardGetStatusChange` (no polling loop) in slices of at most half a second, so that Ctrl-C during a batch run is
/// noticed promptly, and waits for every technology the frontend's reader profile offers. Opening fails with what to
/// do when pcscd is not running, no reader is connected, or the name matches none or several readers.
package enum PCSCDevice {
    /// How often a scanning session polls the readers.
    package static let pollInterval = NFCDuration.milliseconds(250)

    /// The registered scheme.
    package static let scheme = DeviceScheme(
        name: "pcsc", usage: "pcsc, pcsc:<reader>",
        help: "pcsc or pcsc:<reader> — a PC/SC reader through pcscd (all readers, or the one named)"
    ) { (argument: String, use: DeviceUse) throws(DeviceError) -> OpenedDevice in
        try open(reader: argument.isEmpty ? nil : argument, for: use)
    }

    /// Opens the readers for the phone (`reader` nil: all of them).
    package static func open(reader wanted: String?) throws(DeviceError) -> OpenedDevice {
        try open(reader: wanted, for: .phone)
    }

    package static func open(reader wanted: String?, for use: DeviceUse) throws(DeviceError) -> OpenedDevice {
        let context: PCSCContext
        let readers: [String]
        do {
            context = try PCSCContext()
            readers = try context.requireReaders()
        } catch {
            throw DeviceError(error.detail, kind: .unavailable)
        }
        let reader = try choose(wanted, from: readers, one: use == .command)
        switch use {
        case .phone:
            let frontend = InstrumentedFrontend(PCSCFrontend(context: context, reader: reader))
            var opened = OpenedDevice(frontend: frontend, clock: .wall, pollInterval: pollInterval)
            opened.name = reader.map { "pcsc:\($0)" } ?? "pcsc"
            return opened
        case .command:
            let source = PCSCTagSource(context: context, reader: reader ?? "")
            var opened = OpenedDevice(frontend: source.frontend, clock: .wall, pollInterval: pollInterval)
            opened.name = "pcsc:\(source.reader)"
            opened.tags = source
            return opened
        }
    }

    /// The one reader matcher: the reader with exactly that name, or the only one whose name contains it (any
    /// case). `wanted` nil gives nil (every reader) unless `one` asks for a single reader.
    package static func choose(_ wanted: String?, from readers: [String], one: Bool) throws(DeviceError) -> String? {
        let list = readers.map { "'\($0)'" }.joined(separator: ", ")
        guard let wanted else {
            if !one { return nil }
            if readers.count == 1 { return readers[0] }
            throw DeviceError(
                "\(readers.count) PC/SC readers are connected (\(list)); choose one with --device pcsc:<reader>")
        }
        if let exact = readers.first(where: { $0 == wanted }) { return exact }
        let matches = readers.filter { $0.lowercased().contains(wanted.lowercased()) }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw DeviceError("no PC/SC reader matches '\(wanted)'; the readers are \(list)") }
        throw DeviceError(
            "'\(wanted)' matches \(matches.count) PC/SC readers (\(matches.map { "'\($0)'" }.joined(separator: ", "))); "
                + "give more of the name")
    }
}

/// A tag command's use of one PC/SC reader: waits block in `SCardGetStatusChange`, in slices of at most 500 ms.
final class PCSCTagSource: DeviceTagSource {
    let context: PCSCContext
    let reader: String
    let frontend: PCSCFrontend
    let clock = WallClock()

    init(context: PCSCContext, reader: String) {
        self.context = context
        self.reader = reader
        frontend = PCSCFrontend(context: context, reader: reader)
    }

    var tagsRemaining: Int? { nil }
    var waitsForPeople: Bool { true }

    func waitForTag(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> RFTarget? {
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let left = deadline.duration(since: clock.now)
            let slice = UInt32(min(left.nanoseconds / 1_000_000, 500))
            let found: [RFTarget]
            do {
                // Every technology the reader's profile offers (docs/PCSC.md).
                found = try frontend.waitForTargets(frontend.capabilities.technologies, timeoutMilliseconds: slice)
            } catch {
                throw DeviceError("the reader failed while waiting for a tag: \(error)")
            }
            if let t = found.first { return t }
            if interrupted() || clock.now >= deadline { return nil }
        }
    }

    func release() throws(DeviceError) {}

    func waitForRemoval(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> Bool {
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let left = deadline.duration(since: clock.now)
            let slice = UInt32(min(left.nanoseconds / 1_000_000, 500))
            do {
                if try context.waitForRemoval(on: reader, timeoutMilliseconds: slice) { return true }
            } catch {
                throw DeviceError("the reader failed while waiting for the tag to be removed: \(error.detail)")
            }
            if interrupted() || clock.now >= deadline { return false }
        }
    }

    func close() { frontend.deactivate() }
}
