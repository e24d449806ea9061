internal import Foundation
internal import OpenNFCRF
internal import OpenNFCRemote
internal import OpenNFCSystem

/// The `replay:<file>` device: plays back an RF transcript recorded with `OPENCORENFC_RECORD` (or the CLI's
/// `--record`) on a virtual clock, without the reader or the tag (docs/FIELD.md "Record and replay"). A program that
/// sends anything other than what was recorded fails there, and the first difference is printed on stderr.
enum ReplayDevice {
    static let scheme = DeviceScheme(
        name: "replay", usage: "replay:<file>",
        help: "replay:<transcript> — play back a recording made with OPENCORENFC_RECORD"
    ) { (argument: String, use: DeviceUse) throws(DeviceError) -> OpenedDevice in
        guard !argument.isEmpty else { throw DeviceError("replay: needs a transcript file (replay:<file>)") }
        let transcript: RFTranscript
        do {
            transcript = try RFTranscript.read(path: argument)
        } catch {
            throw DeviceError(use == .command ? "\(error)" : "replay: \(error)")
        }
        let clock = VirtualClock()
        let replay = ReplayFrontend(transcript, clock: clock)
        if use == .command {
            var opened = OpenedDevice(frontend: replay, clock: .virtual(clock))
            opened.name = "replay:\(argument)"
            opened.tags = ReplayTagSource(replay, clock: clock)
            return opened
        }
        replay.onMismatch = { FileHandle.standardError.write(Data("OpenCoreNFC \($0)\n".utf8)) }
        return OpenedDevice(
            frontend: InstrumentedFrontend(replay), clock: .virtual(clock), pollInterval: .milliseconds(250))
    }
}

/// A tag command's use of `replay:` (moved here from the CLI, so that `replay:` is registered once): the recorded
/// tag, or the timeout at once on the virtual clock; a command that sent something else fails on release.
final class ReplayTagSource: DeviceTagSource {
    let replay: ReplayFrontend
    let clock: VirtualClock

    init(_ replay: ReplayFrontend, clock: VirtualClock) {
        self.replay = replay
        self.clock = clock
    }

    var tagsRemaining: Int? { nil }
    var waitsForPeople: Bool { false }

    func waitForTag(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> RFTarget? {
        let found: [RFTarget]
        do throws(RFError) {
            found = try replay.poll(Set(RFTechnology.allCases))
        } catch {
            throw DeviceError("\(error.detail)")
        }
        if let t = found.first { return t }
        clock.advance(by: timeout)
        return nil
    }

    func release() throws(DeviceError) {
        if let m = replay.mismatch { throw DeviceError(m) }
    }

    func waitForRemoval(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> Bool { true }

    func close() {}
}
