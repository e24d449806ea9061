internal import OpenCoreNFC
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
