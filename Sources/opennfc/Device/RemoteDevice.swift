import Foundation
import OpenNFCRF
import OpenNFCRemote

/// `--device remote:[<port>]`: the virtual field of `opennfc field serve` (docs/FIELD.md). The command is the
/// field's one app while it runs; tags come and go as the person (or `opennfc field put`) places them.
///
/// | Behaviour | How |
/// |---|---|
/// | Waiting for a tag | polls the field, then waits for its `field` event (at most half a second at a time, so Ctrl-C is noticed) |
/// | Releasing | nothing: the tag stays on the phone until someone takes it away; the field saves tags only on Save |
/// | Time | the wall clock |
final class RemoteDevice: Device {
    let remote: RemoteFieldFrontend
    let clock: any NFCClock = WallClock()
    var name: String { "remote:\(remote.address)" }
    var frontend: any RFFrontend { remote }
    var tagsRemaining: Int? { nil }
    var waitsForPeople: Bool { true }
    private var released: Int?

    init(argument: String) throws {
        do throws(DeviceConnectError) {
            remote = try RemoteFieldFrontend(
                address: try RemoteDeviceString.address(argument),
                appName: "opennfc " + CommandLine.arguments.dropFirst().prefix(1).joined())
        } catch {
            throw CLIError.failure(error.message)
        }
    }

    private func present() throws -> [RFTarget] {
        do throws(RFError) {
            return try remote.poll(Set(RFTechnology.allCases))
        } catch {
            throw CLIError.failure("the field failed while waiting for a tag: \(error)")
        }
    }

    func waitForTag(timeout: NFCDuration) throws -> RFTarget? {
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let seen = remote.changeCount
            if let t = try present().first { return t }
            let left = deadline.duration(since: clock.now)
            if left == .zero || Interrupt.requested { return nil }
            _ = remote.waitForChange(after: seen, timeoutMilliseconds: Int(min(left.nanoseconds / 1_000_000, 500)))
        }
    }

    func release() throws {}

    func waitForRemoval(timeout: NFCDuration) throws -> Bool {
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let seen = remote.changeCount
            if try present().isEmpty { return true }
            let left = deadline.duration(since: clock.now)
            if left == .zero || Interrupt.requested { return false }
            _ = remote.waitForChange(after: seen, timeoutMilliseconds: Int(min(left.nanoseconds / 1_000_000, 500)))
        }
    }

    func close() { remote.close() }
}

/// `--device replay:<file>`: plays back a transcript recorded with `--record` (or `OPENCORENFC_RECORD`) on a virtual
/// clock; a command that sends anything other than what was recorded fails naming the first differing frame.
final class ReplayDevice: Device {
    let path: String
    let replay: ReplayFrontend
    let virtualClock = VirtualClock()
    var clock: any NFCClock { virtualClock }
    var name: String { "replay:\(path)" }
    var frontend: any RFFrontend { replay }
    var tagsRemaining: Int? { nil }
    var waitsForPeople: Bool { false }

    init(path: String) throws {
        self.path = path
        do throws(RFWire.Problem) {
            replay = ReplayFrontend(try RFTranscript.read(path: path), clock: virtualClock)
        } catch {
            throw CLIError.failure("\(error)")
        }
    }

    func waitForTag(timeout: NFCDuration) throws -> RFTarget? {
        let found: [RFTarget]
        do throws(RFError) {
            found = try replay.poll(Set(RFTechnology.allCases))
        } catch {
            throw CLIError.failure("\(error.detail)")
        }
        if let t = found.first { return t }
        virtualClock.advance(by: timeout)
        return nil
    }

    func release() throws {
        if let m = replay.mismatch { throw CLIError.failure(m) }
    }

    func waitForRemoval(timeout: NFCDuration) throws -> Bool { true }

    func close() {}
}
