internal import OpenNFCSystem

@available(iOS 17.4, *)
extension CardSession {
    /// Why a card-session call failed or the session ended.
    public enum Error: Swift.Error, Sendable, Hashable {
        /// The system invalidated the session (background, lock screen, another app over it).
        case invalidated
        /// The session was invalidated by the app (`invalidate()`) or the person using it.
        case userInvalidated
        /// Emulation reached its 60 s maximum.
        case maxSessionDurationReached
        /// The answer could not be transmitted; ``CardSession/APDU/respond(response:)`` may be retried.
        case transmissionError
        /// A system resource is unavailable (another session, the cool-down, the background).
        case systemNotAvailable
        /// The person has not yet accepted or declined the app's use of card emulation.
        case accessNotAccepted
        /// The system's region, account or hardware is not eligible.
        case systemEligibilityFailed
        /// Emulation is not running.
        case emulationStopped
        /// The NFC radio is off.
        case radioDisabled

        init(_ e: CardEmulationError) {
            switch e {
            case .invalidated: self = .invalidated
            case .userInvalidated: self = .userInvalidated
            case .maxSessionDurationReached: self = .maxSessionDurationReached
            case .transmissionError: self = .transmissionError
            case .systemNotAvailable: self = .systemNotAvailable
            case .accessNotAccepted: self = .accessNotAccepted
            case .systemEligibilityFailed: self = .systemEligibilityFailed
            case .emulationStopped: self = .emulationStopped
            case .radioDisabled: self = .radioDisabled
            }
        }
    }
}
