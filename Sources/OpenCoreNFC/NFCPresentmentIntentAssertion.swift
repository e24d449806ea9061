internal import OpenNFCSystem

/// The app's intention to use the phone's contactless features exclusively (iOS 17.4): while it is valid, a
/// terminal's field does not open the default contactless app (Wallet) over the app (Apple's Core NFC documentation,
/// `NFCPresentmentIntentAssertion`; docs/CARD-EMULATION.md).
///
/// Acquired only in the foreground; it expires after 15 s, when the app moves to the background, or when the object
/// is released, and a 15 s wait follows before the next one. `acquire()` traps on a device without card emulation or
/// without the HCE entitlements.
@available(iOS 17.4, *)
public final class NFCPresentmentIntentAssertion: Sendable {
    let system: NFCSystem
    let number: UInt64

    init(system: NFCSystem, number: UInt64) {
        self.system = system
        self.number = number
    }

    deinit { system.presentmentAssertionReleased(number) }

    /// Acquires an assertion; throws ``Error/systemNotAvailable`` in the background, while another is valid or during
    /// the wait, ``Error/systemEligibilityFailed`` when the region or account is not eligible.
    public static func acquire() async throws -> NFCPresentmentIntentAssertion {
        let system = resolveSystem()
        switch system.acquirePresentmentAssertion() {
        case .success(let n): return NFCPresentmentIntentAssertion(system: system, number: n)
        case .failure(let e): throw e == .systemEligibilityFailed ? Error.systemEligibilityFailed : .systemNotAvailable
        }
    }

    /// True from acquisition until it expires (15 s, the background, release).
    public final var isValid: Bool { system.presentmentAssertionIsValid(number) }
}
