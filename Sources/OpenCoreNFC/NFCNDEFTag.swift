public import Foundation

/// NDEF operations on a connected tag (Apple's Core NFC documentation; docs/PARITY.md §5). Completions run on the session's queue.
public protocol NFCNDEFTag: NSObjectProtocol, NSSecureCoding, NSCopying {
    /// True while the tag is in the field for its session.
    var isAvailable: Bool { get }
    /// The NDEF status and the largest message, in bytes, the tag can store.
    @preconcurrency func queryNDEFStatus(
        completionHandler: @escaping @Sendable (NFCNDEFStatus, Int, (any Error)?) -> Void)
    /// Reads the NDEF message; an empty tag fails with 403.
    @preconcurrency func readNDEF(completionHandler: @escaping @Sendable (NFCNDEFMessage?, (any Error)?) -> Void)
    /// Writes a message: 400 read-only, 402 too small, 401 failed, 100 tag gone.
    @preconcurrency func writeNDEF(
        _ ndefMessage: NFCNDEFMessage, completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Makes the NDEF data permanently read-only.
    @preconcurrency func writeLock(completionHandler: @escaping @Sendable ((any Error)?) -> Void)
}

/// The `async` forms Swift imports for the completion-handler methods.
extension NFCNDEFTag {
    public func queryNDEFStatus() async throws -> (NFCNDEFStatus, Int) {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<(NFCNDEFStatus, Int), any Error>) in
            queryNDEFStatus { status, capacity, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: (status, capacity)) }
            }
        }
    }

    public func readNDEF() async throws -> NFCNDEFMessage {
        let box = try await withCheckedThrowingContinuation {
            (c: CheckedContinuation<Handoff<NFCNDEFMessage>, any Error>) in
            readNDEF { message, error in
                if let message, error == nil {
                    c.resume(returning: Handoff(message))
                } else {
                    c.resume(throwing: error ?? NFCReaderError(.readerTransceiveErrorTagResponseError))
                }
            }
        }
        return box.value
    }

    public func writeNDEF(_ ndefMessage: NFCNDEFMessage) async throws {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            writeNDEF(ndefMessage) { error in
                if let error { c.resume(throwing: error) } else { c.resume() }
            }
        }
    }

    public func writeLock() async throws {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            writeLock { error in
                if let error { c.resume(throwing: error) } else { c.resume() }
            }
        }
    }
}
