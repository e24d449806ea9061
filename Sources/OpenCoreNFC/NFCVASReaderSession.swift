public import Foundation
internal import OpenNFCSystem
internal import OpenNFCTags

/// A session reading Apple Wallet passes over Value Added Services as a "VAS app only" terminal: each pass holder
/// that enters the field gets one GET VAS DATA per configuration, in array order, and the responses arrive together
/// in `readerSession(_:didReceive:)`; the same holder is read again only after it left the field.
///
/// The session rules are those of every reader session: the formats entitlement (else 2), the usage description,
/// the sheet, 60 s (201), one active session system-wide with the others waiting in FIFO order, Cancel (200),
/// background (202). Configurations that cannot be sent (none, an empty pass type identifier, a URL over 64
/// characters) end the session with 300 at `begin()` (docs/DIFFERENCES.md).
open class NFCVASReaderSession: NFCReaderSession, @unchecked Sendable {
    private weak var vasDelegate: (any NFCVASReaderSessionDelegate)?

    /// Creates a session sending one GET VAS DATA per configuration (copied now), in array order; `queue` nil gives
    /// it a private serial queue.
    public init(
        vasCommandConfigurations commandConfigurations: [NFCVASCommandConfiguration],
        delegate: any NFCVASReaderSessionDelegate, queue: DispatchQueue?
    ) {
        self.vasDelegate = delegate
        super.init(system: resolveSystem(), delegate: delegate, queue: queue)
        let commands = commandConfigurations.map {
            VASCommand(
                fullMode: $0.mode == .normal, passTypeIdentifier: $0.passTypeIdentifier, url: $0.url?.absoluteString)
        }
        register(.vas(commands: commands))
    }

    override func handle(_ event: SessionEvent) {
        guard let delegate = vasDelegate else { return }
        switch event {
        case .becameActive:
            delegate.readerSessionDidBecomeActive(self)
        case .vasResponses(let results):
            let responses = results.map { r in
                NFCVASResponse(
                    status: NFCVASResponse.ErrorCode(rawValue: Int(r.status)) ?? .dataNotFound,
                    vasData: Data(r.vasData),
                    mobileToken: Data(r.mobileToken))
            }
            delegate.readerSession(self, didReceive: responses)
        case .invalidated(let reason):
            delegate.readerSession(self, didInvalidateWithError: NFCReaderError(reason))
        case .detected, .message:
            break
        }
    }
}
