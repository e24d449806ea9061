internal import Foundation
internal import OpenNFCRF
internal import OpenNFCRemote
internal import OpenNFCSystem

/// The `replay:<file>` device: plays back an RF transcript recorded with `OPENCORENFC_RECORD` (or the CLI's
/// `--record`) on a virtual clock, without the reader or the tag (docs/FIELD.md "Record and replay"). A program that
/// sends anything other than what was recorded fails there, and the first difference is printed on stderr.
enum ReplayDevice {
    static let scheme = DeviceScheme(
        name: "replay", usage: "replay:<file>[,protocol=<p>][,key=<hex>]…",
        help:
            "replay:<file> — play back a recording (.json transcript, .pcapng capture or Proxmark3 .trace; "
            + ",protocol=14a|14b|15|felica for a .trace, ,key=<12 hex digits> per MIFARE Classic key)"
    ) { (argument: String, use: DeviceUse) throws(DeviceError) -> OpenedDevice in
        guard !argument.isEmpty else { throw DeviceError("replay: needs a transcript file (replay:<file>)") }
        let transcript: RFTranscript
        do {
            transcript = try ReplayDevice.load(argument)
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

extension ReplayDevice {
    /// The transcript of `replay:`'s argument: the file (its format by extension; a name without one of ours is a
    /// JSON transcript), then any `,protocol=` and `,key=` options at its end.
    static func load(_ argument: String) throws(AirTrace.Problem) -> RFTranscript {
        var parts = argument.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        var p: AirProtocol?
        var keys: [[UInt8]] = []
        while parts.count > 1, let last = parts.last, last.hasPrefix("protocol=") || last.hasPrefix("key=") {
            parts.removeLast()
            if last.hasPrefix("protocol=") {
                let name = String(last.dropFirst(9))
                guard let q = AirProtocol(rawValue: name) else {
                    throw AirTrace.Problem("protocol '\(name)': expected \(AirProtocol.names)")
                }
                p = q
            } else {
                let hex = String(last.dropFirst(4))
                let k = stride(from: 0, to: hex.count - 1, by: 2).compactMap {
                    UInt8(hex.dropFirst($0).prefix(2), radix: 16)
                }
                guard hex.count == 12, k.count == 6 else {
                    throw AirTrace.Problem("key '\(hex)': a MIFARE Classic key is 6 bytes (12 hex digits)")
                }
                keys.insert(k, at: 0)
            }
        }
        let path = parts.joined(separator: ",")
        return try TraceFile.readTranscript(
            path: path, format: TraceFormat(path: path) ?? .json, protocol: p, keys: keys)
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
