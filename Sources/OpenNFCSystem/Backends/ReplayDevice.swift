internal import Foundation
internal import OpenNFCRF
internal import OpenNFCRemote

/// The `replay:<file>` device: plays back an RF transcript recorded with `OPENCORENFC_RECORD` (or the CLI's
/// `--record`) on a virtual clock, without the reader or the tag (docs/FIELD.md "Record and replay"). A program that
/// sends anything other than what was recorded fails there, and the first difference is printed on stderr.
enum ReplayDevice {
    static let scheme = DeviceScheme(
        name: "replay", help: "replay:<transcript> — play back a recording made with OPENCORENFC_RECORD"
    ) { (argument: String) throws(DeviceError) -> OpenedDevice in
        guard !argument.isEmpty else { throw DeviceError("replay: needs a transcript file (replay:<file>)") }
        let transcript: RFTranscript
        do {
            transcript = try RFTranscript.read(path: argument)
        } catch {
            throw DeviceError("replay: \(error)")
        }
        let clock = VirtualClock()
        let replay = ReplayFrontend(transcript, clock: clock)
        replay.onMismatch = { FileHandle.standardError.write(Data("OpenCoreNFC \($0)\n".utf8)) }
        return OpenedDevice(
            frontend: InstrumentedFrontend(replay), clock: .virtual(clock), pollInterval: .milliseconds(250))
    }
}

/// `OPENCORENFC_RECORD=<file>`: wraps the opened device's frontend in a ``RecordingFrontend``.
enum DeviceRecording {
    static func wrap(_ opened: OpenedDevice, device: String, path: String) -> OpenedDevice {
        var o = opened
        let now: () -> NFCInstant
        switch opened.clock {
        case .virtual(let c): now = { c.now }
        case .wall:
            let wall = WallClock()
            now = { wall.now }
        }
        o.frontend = InstrumentedFrontend(RecordingFrontend(opened.frontend, path: path, device: device, now: now))
        return o
    }
}
