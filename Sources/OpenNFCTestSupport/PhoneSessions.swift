internal import Foundation
package import OpenCoreNFC
package import OpenCoreNFCTesting

/// The phone sessions the test suites start again and again, written once: each begins the session inside
/// ``VirtualPhone/run(_:)`` (so it belongs to that phone) and lets the phone settle before handing back what the app
/// saw, for the test to assert on.
extension VirtualPhone {
    /// The app begins an NDEF reader session that ends after its first read (`invalidateAfterFirstRead: true`).
    package func readFirstNDEF() -> NDEFMessageRecorder {
        let app = NDEFMessageRecorder()
        run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true).begin() }
        settle()
        return app
    }
}

extension TagSessionRecorder {
    /// Runs `body` for the session's first detection only: a test that examines one tag ignores the detections that
    /// follow (after `restartPolling()`, or of the next tag in the field).
    package func onFirstDetect(_ body: @escaping (NFCTagReaderSession, [NFCTag]) -> Void) {
        let first = FirstTime()
        onDetect = { session, tags in
            if first.claim() { body(session, tags) }
        }
    }
}

/// True the first time it is asked, false ever after (from any thread).
private final class FirstTime: @unchecked Sendable {
    private let lock = NSLock()
    private var claimed = false

    func claim() -> Bool {
        lock.withLock {
            defer { claimed = true }
            return !claimed
        }
    }
}
