@available(iOS 17.4, *)
extension CardSession {
    /// An event of a card session's ``CardSession/eventStream``.
    public enum Event: Sendable {
        /// The session started (the first event).
        case sessionStarted
        /// A terminal's field reached the phone.
        case readerDetected
        /// The terminal sent an APDU the app must answer exactly once.
        case received(CardSession.APDU)
        /// The field went away, or the app's AID was deselected.
        case readerDeselected
        /// The session ended (the last event); never with ``CardSession/Error/transmissionError``.
        case sessionInvalidated(reason: CardSession.Error)
    }
}
