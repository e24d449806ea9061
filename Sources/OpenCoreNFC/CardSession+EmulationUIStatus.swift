@available(iOS 17.4, *)
extension CardSession {
    /// The final status the sheet shows when ``CardSession/stopEmulation(status:)`` ends emulation.
    public enum EmulationUIStatus: Sendable, Hashable {
        /// A checkmark.
        case success
        /// An exclamation mark.
        case failure
    }
}
