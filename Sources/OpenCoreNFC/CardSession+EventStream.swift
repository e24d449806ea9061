@available(iOS 17.4, *)
extension CardSession {
    /// The asynchronous sequence of a card session's events: iterate it once with `for try await`; it finishes after
    /// ``CardSession/Event/sessionInvalidated(reason:)``.
    public final class EventStream: AsyncSequence {
        public typealias Element = CardSession.Event
        public typealias AsyncIterator = Iterator
        let buffer: CardEventBuffer

        init(buffer: CardEventBuffer) { self.buffer = buffer }

        /// The iterator over the session's events.
        public final class Iterator: AsyncIteratorProtocol {
            public typealias Element = CardSession.Event
            let buffer: CardEventBuffer

            init(buffer: CardEventBuffer) { self.buffer = buffer }

            deinit { buffer.iteratorReleased() }

            /// The next event, waiting for it; nil once the session's last event was taken (or the task is
            /// cancelled).
            public func next() async throws -> CardSession.Event? { await buffer.next() }
        }

        public func makeAsyncIterator() -> Iterator {
            buffer.iteratorMade()
            return Iterator(buffer: buffer)
        }
    }
}
