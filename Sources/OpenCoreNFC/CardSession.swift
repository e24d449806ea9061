internal import Foundation
internal import OpenNFCSystem

/// An ISO 7816 card emulation session (host card emulation, iOS 17.4): the app answers a contactless terminal's
/// APDUs (Apple's Core NFC documentation, `CardSession`; docs/CARD-EMULATION.md).
///
/// The flow Apple documents: check `NFCReaderSession.readingAvailable`, ``isSupported`` and ``isEligible``; create
/// the session (its ``eventStream`` starts with ``Event/sessionStarted``); call ``startEmulation()`` (the system sheet
/// appears, the phone answers terminals as a card for at most 60 s); answer every ``Event/received(_:)`` exactly once
/// with ``APDU/respond(response:)``; ``Event/readerDeselected`` when the field goes; ``invalidate()`` at the end.
///
/// The rules (one session at a time, the 60 s limit, the cool-down after ``stopEmulation(status:)``, the HCE
/// entitlements and AID prefixes, eligibility) are the simulated iPhone's (`CardEmulationMachine` in OpenNFCSystem).
/// On a `VirtualPhone` the terminal is the testing product's `VirtualTerminal`; for a process,
/// `OPENCORENFC_DEVICE=vpcd:` presents the card to pcscd.
@available(iOS 17.4, *)
open class CardSession {
    let system: NFCSystem
    let id: SessionID
    let buffer: CardEventBuffer
    private let stream: EventStream

    /// Whether this device supports card emulation. Check it before ``init()``: on a device without support the
    /// initializer traps, as on iOS.
    public class var isSupported: Bool { resolveSystem().cardEmulationSupported }

    /// Whether the region and the account allow card emulation (`VirtualPhone.cardEmulation`, `OPENCORENFC_HCE`).
    public static var isEligible: Bool {
        get async { resolveSystem().cardEmulationEligible }
    }

    /// Whether emulation is running (between ``startEmulation()`` and its end).
    public var isEmulationInProgress: Bool {
        get async { system.isEmulationInProgress(id) }
    }

    /// The text of the emulation sheet; set it before ``startEmulation()``, change it while emulating.
    public var alertMessage: String {
        get { system.cardAlertMessage(id) }
        set { system.setCardAlertMessage(id, newValue) }
    }

    /// The session's events, ending with ``Event/sessionInvalidated(reason:)``.
    public var eventStream: EventStream { stream }

    /// Creates a card session and starts its event stream. Traps (as iOS's `fatalError`) on an unsupported device
    /// or without the `com.apple.developer.nfc.hce` entitlement and its AID prefixes; throws
    /// ``Error/systemNotAvailable`` while another card session or a reader session runs, or in the background.
    public init() async throws {
        let system = resolveSystem()
        let buffer = CardEventBuffer(system: system)
        switch system.createCardSession(client: buffer) {
        case .success(let id):
            self.system = system
            self.id = id
            self.buffer = buffer
            self.stream = EventStream(buffer: buffer)
        case .failure(let error):
            buffer.abandon()
            throw Error(error)
        }
    }

    deinit {
        buffer.sessionReleased()
        system.cardSessionReleased(id)
    }

    /// Starts emulation and shows the system sheet with ``alertMessage``. Throws ``Error/systemNotAvailable``
    /// (cool-down, background, an ended session), ``Error/accessNotAccepted``, ``Error/systemEligibilityFailed`` or
    /// ``Error/radioDisabled``.
    public func startEmulation() async throws {
        if let error = system.startEmulation(id) { throw Error(error) }
    }

    /// Stops emulation: the sheet shows `status` and closes; a restart within the cool-down throws
    /// ``Error/systemNotAvailable``.
    public func stopEmulation(status: EmulationUIStatus) async {
        system.stopEmulation(id, status == .success ? .success : .failure)
    }

    /// Ends the session (its stream's last event is `sessionInvalidated(reason: .userInvalidated)`); a new session
    /// needs a new instance.
    public func invalidate() { system.invalidateCardSession(id) }
}
