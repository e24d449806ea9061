@available(iOS 17.4, *)
extension NFCPresentmentIntentAssertion {
    /// Why an assertion could not be acquired.
    public enum Error: Swift.Error, Sendable, Hashable {
        /// The system is not eligible (region, account).
        case systemEligibilityFailed
        /// The system is unavailable: the background, another valid assertion, or the wait after the last one.
        case systemNotAvailable
    }
}
