/// Whether a tag carries NDEF and may be written, as Core NFC's `NFCNDEFStatus` reports it.
package enum NDEFStatus: String, Sendable, Hashable, CaseIterable {
    /// No NDEF data structure: not formatted, an unknown mapping version, or read access not granted.
    case notSupported
    /// NDEF present and writable.
    case readWrite
    /// NDEF present and write-protected.
    case readOnly
}

/// What NDEF detection found on a tag.
package struct NDEFDetection: Sendable, Hashable, CustomStringConvertible {
    package var status: NDEFStatus
    /// The largest NDEF message, in bytes, that fits the NDEF area after its framing (Type 2: the NDEF TLV's tag
    /// and 1- or 3-byte length, reserved and lock bytes excluded; Type 4: the 2-byte NLEN). 0 when not supported.
    package var capacity: Int
    /// Length in bytes of the message on the tag now (0 for an initialised, empty tag); nil when not supported.
    package var messageLength: Int?
    /// Why the status is ``NDEFStatus/notSupported`` (for `--json` output and diagnostics); nil otherwise.
    package var reason: String?

    package init(status: NDEFStatus, capacity: Int, messageLength: Int?, reason: String? = nil) {
        self.status = status
        self.capacity = capacity
        self.messageLength = messageLength
        self.reason = reason
    }

    /// A tag without NDEF.
    package static func notSupported(_ reason: String) -> NDEFDetection {
        NDEFDetection(status: .notSupported, capacity: 0, messageLength: nil, reason: reason)
    }

    package var description: String {
        switch status {
        case .notSupported: return "not supported (\(reason ?? "no NDEF"))"
        case .readWrite, .readOnly:
            return "\(status.rawValue), capacity \(capacity) bytes, message \(messageLength ?? 0) bytes"
        }
    }
}

/// The NFC Forum NDEF operations of one activated tag, whatever its platform: the logic behind Core NFC's
/// `queryNDEFStatus`, `readNDEF`, `writeNDEF` and `writeLock`, plus formatting.
///
/// An instance is bound to one activation of one tag. It remembers what it has learnt (capability container,
/// TLV layout, the bytes it has read or written) so that a query followed by a read or a write does not send the
/// same commands twice; create a new instance after re-activating or when another tag is presented.
///
/// Every operation goes through the frontend it was given: wrap that frontend in an `InstrumentedFrontend` to count
/// frames and bytes or to trace them. Retries: none of these operations repeats a write; reads are repeated only
/// where the platform's rules make it safe (see each implementation).
package protocol NDEFTagProcedure: AnyObject {
    /// NDEF detection: status, capacity and current message length (`queryNDEFStatus`). A tag without NDEF is
    /// reported as ``NDEFStatus/notSupported``, not thrown; RF failures and malformed answers throw.
    func detect() throws(TagError) -> NDEFDetection

    /// The NDEF message bytes as stored (`readNDEF`); `[]` for an initialised, empty tag.
    /// Throws ``TagError/Code/notFormatted`` when the tag holds no NDEF structure at all.
    func readMessage() throws(TagError) -> [UInt8]

    /// Replaces the message with `message` (one complete NDEF message, encoded), in the tear-safe order: a tag
    /// taken away at any moment afterwards reads as the old message, an empty one, or the new one.
    /// Checks emptiness, write access and capacity before sending the first write.
    func writeMessage(_ message: [UInt8]) throws(TagError)

    /// Makes the NDEF data permanently read-only (`writeLock`). Irreversible.
    func makeReadOnly() throws(TagError)

    /// Prepares a blank tag for NDEF, or empties an NDEF tag: afterwards it detects as ``NDEFStatus/readWrite``
    /// with an empty message.
    func format() throws(TagError)
}

/// The rule every NDEF write obeys before its first frame: the one place it lives. Every procedure's
/// ``NDEFTagProcedure/writeMessage(_:)`` calls it with what its detection found (a tag without NDEF has already been
/// refused as ``TagError/Code/notFormatted``), and the system (`writeNDEF`) and the CLI (`opennfc write`) rely on it
/// instead of checking again. The order is Core NFC's as the system reports it: read-only (400), then an empty
/// message (403), then capacity (402).
package enum NDEFWriteRule {
    /// Throws ``TagError/Code/readOnly`` (with `readOnlyReason`), ``TagError/Code/emptyMessage`` or
    /// ``TagError/Code/capacityExceeded``; returns when `message` may be written.
    package static func check(
        _ message: [UInt8], writable: Bool, capacity: Int, readOnlyReason: @autoclosure () -> String
    ) throws(TagError) {
        guard writable else { throw TagError(.readOnly, readOnlyReason()) }
        guard !message.isEmpty else { throw TagError(.emptyMessage, "an NDEF message of 0 bytes cannot be written") }
        guard message.count <= capacity else {
            throw TagError(
                .capacityExceeded, "the message is \(message.count) bytes; the tag holds at most \(capacity)")
        }
    }
}
