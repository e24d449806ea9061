/// Whether the user may read payment cards with `NFCPaymentTagReaderSession` (iOS 26: EU accounts on devices located
/// in the EU; the 26.6 location errors). Each value other than `eligible` refuses the session with its code.
public enum PaymentEligibility: Sendable, Hashable {
    case eligible
    /// Outside the EU, or the account is not registered there: 7 `readerErrorIneligible`.
    case ineligible
    /// The user has not yet accepted or declined the app's request: 8 `readerErrorAccessNotAccepted`.
    case accessNotAccepted
    /// The user denied location access: `paymentTagReaderSessionErrorLocationAuthorizationDenied`.
    case locationAuthorizationDenied
    /// Location services are restricted: `paymentTagReaderSessionErrorLocationServiceRestricted`.
    case locationServiceRestricted
    /// The device cannot determine its location: `paymentTagReaderSessionErrorOnDeviceLocationUnavailable`.
    case onDeviceLocationUnavailable
}

/// The simulated iPhone's own state, as far as NFC cares (Core NFC "Adding support for background tag reading":
/// when the phone scans on its own; `readerErrorRadioDisabled`; the payment session's eligibility).
package struct PhoneState: Sendable, Hashable {
    /// The display is on (the phone is in use).
    package var screenOn = true
    /// The phone is locked (background reads then ask to unlock before delivering).
    package var locked = false
    /// The phone was unlocked at least once since it started.
    package var unlockedSinceBoot = true
    /// Wallet / Apple Pay is in use.
    package var walletInUse = false
    /// The camera is in use.
    package var cameraInUse = false
    /// Airplane mode: the NFC radio is off (sessions end with 6 `readerErrorRadioDisabled`).
    package var airplaneMode = false
    /// Eligibility for the payment session.
    package var payment = PaymentEligibility.eligible
    /// Host card emulation's support and eligibility (`CardSession.isSupported`, `isEligible`).
    package var cardEmulation = CardEmulationAvailability.eligible
    /// The default contactless app, which a terminal's field opens unless the foreground app emulates or holds a
    /// presentment assertion; nil when there is none (or the app itself is the default).
    package var defaultContactlessApp: String? = "Wallet"

    package init() {}
}

extension NFCSystem {
    /// The phone's state now.
    package var phoneState: PhoneState { perform { phone } }

    /// Changes the phone's state. Turning airplane mode on ends the running and waiting sessions with 6; any
    /// change may let background tag reading scan (``backgroundScan()``).
    package func updatePhone(_ change: @escaping @Sendable (inout PhoneState) -> Void) {
        event { [self] in
            let before = phone
            change(&phone)
            if phone.airplaneMode && !before.airplaneMode {
                log(.user, "turns airplane mode on")
                // The waiting sessions first, so that ending the active one promotes none of them.
                for id in arbiter.waiting.reversed() { run(arbiter.end(id, .radioDisabled)) }
                if let id = arbiter.active { run(arbiter.end(id, .radioDisabled)) }
                runCard(cardEmulation.machine.radioTurnedOff(now()))
            } else if !phone.airplaneMode && before.airplaneMode {
                log(.user, "turns airplane mode off")
            }
            phoneDidChange(from: before)
        }
    }

    /// An external reader's field is near the phone (a payment terminal): the running session ends with 203
    /// `readerSessionInvalidationErrorSystemIsBusy`, as devices log it.
    package func externalReaderFieldDetected() {
        event { [self] in
            log(.user, "holds the phone to an external reader's field")
            guard let id = arbiter.active else { return }
            run(arbiter.end(id, .systemBusy))
        }
    }
}
