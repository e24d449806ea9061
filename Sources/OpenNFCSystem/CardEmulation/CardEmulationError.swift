/// Why a card-emulation call failed or a card session ended: Core NFC's `CardSession.Error`, case for case, below
/// the public module (the public layer maps it one to one; docs/CARD-EMULATION.md). Printed, a case is its name
/// (`String(describing:)` of a case without payload), as Apple's `CardSession.Error` prints.
package enum CardEmulationError: Error, Hashable, Sendable {
    /// The system ended the session (the app left the foreground, the phone was locked, another app took over).
    case invalidated
    /// The app called `invalidate()`, or the user dismissed the emulation sheet.
    case userInvalidated
    /// Emulation ran for the 60 s maximum.
    case maxSessionDurationReached
    /// The answer could not be sent: the terminal's field went away or the terminal stopped waiting.
    case transmissionError
    /// A system resource is unavailable: another card session, a reader session, the cool-down, the background.
    case systemNotAvailable
    /// The user has not yet accepted or declined the app's use of card emulation.
    case accessNotAccepted
    /// The region or account is not eligible for card emulation.
    case systemEligibilityFailed
    /// Emulation is not running (it was stopped, or it ended).
    case emulationStopped
    /// The NFC radio is off (airplane mode).
    case radioDisabled
}

/// Whether this phone offers host card emulation to the app (Apple: `CardSession.isSupported`, `isEligible`; the
/// region and account rules of HCE in the EEA). Set on `VirtualPhone.cardEmulation`, or for a process with
/// `OPENCORENFC_HCE` (`eligible`, `ineligible`, `access-not-accepted`, `unsupported`).
public enum CardEmulationAvailability: String, Sendable, Hashable, CaseIterable {
    /// The default: an account in an eligible region, the app's request accepted.
    case eligible
    /// The region or the account is not eligible: `isEligible` is false, `startEmulation()` throws
    /// `systemEligibilityFailed`, `NFCPresentmentIntentAssertion.acquire()` throws `systemEligibilityFailed`.
    case ineligible
    /// The user has not yet answered the app's request: `startEmulation()` throws `accessNotAccepted`.
    case accessNotAccepted = "access-not-accepted"
    /// The device does not support card emulation: `isSupported` is false and `CardSession()` traps.
    case unsupported
}
