public import Foundation
internal import OpenNFCSystem

/// A tag reader session for payment cards (iOS 26, EU only): it polls ISO 14443 and delivers `NFCISO7816Tag`s after
/// a SELECT by DF name of an Info.plist AID, payment AIDs included, which other sessions skip.
///
/// Eligibility is the phone's: outside the EU `readingAvailable` is false and `begin()` ends the session with 7
/// `readerErrorIneligible`; before the user accepted the app's request, 8 `readerErrorAccessNotAccepted`; the
/// location problems give the iOS 26.6 `paymentTagReaderSessionError…` codes (raw values chosen here,
/// docs/DIFFERENCES.md). `VirtualPhone.paymentEligibility` sets it.
open class NFCPaymentTagReaderSession: NFCTagReaderSession, @unchecked Sendable {
    /// Creates a payment session; only ISO 14443 polling is used. `queue` nil gives it a private serial queue.
    public convenience init(delegate: any NFCTagReaderSessionDelegate, queue: DispatchQueue? = nil) {
        var discovery = NFCTagReaderSession.discovery(.iso14443)
        discovery.payment = true
        self.init(discovery: discovery, option: .iso14443, delegate: delegate, queue: queue)
    }

    /// False on a device without a reader, and for a user who is not eligible (outside the EU).
    open override class var readingAvailable: Bool {
        let system = resolveSystem()
        return system.frontend != nil && system.phoneState.payment != .ineligible
    }
}
