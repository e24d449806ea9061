internal import Foundation
internal import OpenNFCBytes
internal import OpenNFCRF
internal import OpenNFCRemote
internal import OpenNFCSystem

/// The `remote:` device: the app's reader is a virtual field served by `opennfc field serve` on loopback
/// (docs/FIELD.md), through OpenNFCRemote's ``RemoteFieldFrontend``.
///
/// | Device string | Field |
/// |---|---|
/// | `remote:` | `127.0.0.1` on the default port (7071) |
/// | `remote:<port>`, `remote:127.0.0.1:<port>` | that port; only loopback addresses are accepted |
///
/// A tag command (`opennfc --device remote:`) is the field's one app while it runs: it polls the field, then waits
/// for its `field` event (at most half a second at a time, so Ctrl-C is noticed); releasing leaves the tag on the
/// phone until someone takes it away.
///
/// The system runs on the wall clock (a person drives the field). Tags arriving or leaving make the active session
/// poll again; the sheet is shown by the field; Cancel there is the user's Cancel here (200). When the connection
/// is lost, the exchange in flight fails as a tag leaving (100) and the device then has no reader: polls fail and
/// a new session ends with `readerErrorUnsupportedFeature`.
enum RemoteFieldDevice {
    static let scheme = DeviceScheme(
        name: "remote", usage: "remote:[<port>]",
        help: "remote:[<port>|127.0.0.1:<port>] — the virtual field of 'opennfc field serve' (default port 7071)"
    ) { (argument: String, use: DeviceUse) throws(DeviceError) -> OpenedDevice in
        let frontend: RemoteFieldFrontend
        do throws(DeviceConnectError) {
            let address = try RemoteDeviceString.address(argument)
            let name: String
            switch use {
            case .phone:
                name = (CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent }) ?? "app"
            case .command: name = "opennfc " + CommandLine.arguments.dropFirst().prefix(1).joined()
            }
            frontend = try RemoteFieldFrontend(address: address, appName: name)
        } catch {
            throw DeviceError(error.message)
        }
        if use == .command {
            var opened = OpenedDevice(frontend: frontend, clock: .wall)
            opened.name = "remote:\(frontend.address)"
            opened.tags = RemoteTagSource(frontend)
            return opened
        }
        return OpenedDevice(
            frontend: InstrumentedFrontend(frontend), clock: .wall,
            connect: { system in
                let card = RemoteCardPresenter(frontend)
                system.attachCardEmulationDevice(card)
                frontend.onEvent = { [weak system] event in
                    guard let system else { return }
                    switch event {
                    case .fieldChanged: system.fieldDidChange()
                    case .lost:
                        system.fieldDidChange()
                        if card.takeFieldOff() { system.terminalFieldOff() }
                    case .cancel: system.userTappedCancel()
                    case .terminal(let t): card.perform(t, on: system)
                    }
                }
                system.sessionEventPosted = { event in frontend.notify(.appEvent(event.appText)) }
                system.sheetDidChange = { sheet in
                    frontend.send(
                        sheet: FieldProtocol.Sheet(
                            presented: sheet.isPresented, title: sheet.title, message: sheet.message,
                            glyph: sheet.glyph.rawValue))
                }
            })
    }
}

/// The app's `CardSession` played against the page's terminal (docs/FIELD.md "The terminal"): the card's presence and
/// the events of its stream go to the field, the terminal's field and APDUs come from it, and each answer goes back
/// with the APDU's number.
final class RemoteCardPresenter: CardEmulationDevice, @unchecked Sendable {
    let remote: RemoteFieldFrontend
    private let lock = NSLock()
    private var fieldOn = false

    init(_ remote: RemoteFieldFrontend) { self.remote = remote }

    func presenceChanged(_ present: Bool, prefixes: [[UInt8]]) {
        remote.notify(.card(present: present, aids: prefixes))
    }

    func cardEventPosted(_ event: CardEmulationMachine.Event) {
        let e: FieldProtocol.CardEvent
        switch event {
        case .sessionStarted: e = .init(name: "sessionStarted")
        case .readerDetected: e = .init(name: "readerDetected")
        case .readerDeselected: e = .init(name: "readerDeselected")
        case .received(_, let b): e = .init(name: "received", detail: b.hexString)
        case .sessionInvalidated(let reason): e = .init(name: "sessionInvalidated", detail: "\(reason)")
        }
        remote.notify(.cardEvent(e))
    }

    /// True when the terminal's field was on (it is now off).
    func takeFieldOff() -> Bool {
        lock.withLock {
            defer { fieldOn = false }
            return fieldOn
        }
    }

    func perform(_ t: FieldProtocol.Terminal, on system: NFCSystem) {
        switch t {
        case .fieldOn:
            lock.withLock { fieldOn = true }
            system.terminalFieldOn()
        case .fieldOff:
            lock.withLock { fieldOn = false }
            system.terminalFieldOff()
        case .gaveUp: system.terminalGaveUp()
        case .apdu(let n, let command):
            let remote = self.remote
            system.terminalTransceive(command) { answer in remote.notify(.answer(terminal: n, response: answer)) }
        }
    }
}

/// A tag command's use of the remote field (moved here from the CLI, so that `remote:` is registered once).
final class RemoteTagSource: DeviceTagSource {
    let remote: RemoteFieldFrontend
    let clock = WallClock()

    init(_ remote: RemoteFieldFrontend) { self.remote = remote }

    var tagsRemaining: Int? { nil }
    var waitsForPeople: Bool { true }

    private func present() throws(DeviceError) -> [RFTarget] {
        do throws(RFError) {
            return try remote.poll(Set(RFTechnology.allCases))
        } catch {
            throw DeviceError("the field failed while waiting for a tag: \(error)")
        }
    }

    func waitForTag(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> RFTarget? {
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let seen = remote.changeCount
            if let t = try present().first { return t }
            let left = deadline.duration(since: clock.now)
            if left == .zero || interrupted() { return nil }
            _ = remote.waitForChange(after: seen, timeoutMilliseconds: Int(min(left.nanoseconds / 1_000_000, 500)))
        }
    }

    func release() throws(DeviceError) {}

    func waitForRemoval(timeout: NFCDuration, interrupted: () -> Bool) throws(DeviceError) -> Bool {
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let seen = remote.changeCount
            if try present().isEmpty { return true }
            let left = deadline.duration(since: clock.now)
            if left == .zero || interrupted() { return false }
            _ = remote.waitForChange(after: seen, timeoutMilliseconds: Int(min(left.nanoseconds / 1_000_000, 500)))
        }
    }

    func close() { remote.close() }
}
