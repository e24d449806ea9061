internal import Dispatch
internal import Foundation
internal import OpenCoreNFC
internal import OpenCoreNFCTesting
internal import OpenNFCSimulation

/// Complete simulated NDEF read sessions back to back: each one is created, begun, finds the NTAG215
/// lying on the phone, reads its message over the virtual field through the real reader procedures, delivers it to
/// the delegate and ends with 204 — every callback on the session queue, as an app sees it. Like an app that starts
/// the next scan from `didInvalidateWithError`, each session is begun from the previous one's invalidation.
package enum SessionsBenchmark {
    package struct Result: Sendable {
        package var sessions: Int
        package var seconds: Double
        /// Messages the delegate received (one per session when all went well).
        package var messagesDelivered: Int
        package var sessionsPerSecond: Double { seconds > 0 ? Double(sessions) / seconds : 0 }
    }

    /// Runs `sessions` sessions after `warmUp` untimed ones.
    package static func run(sessions: Int, warmUp: Int = 200) throws -> Result {
        let phone = VirtualPhone()
        phone.system.recordsTranscript = false
        try phone.put(message: [0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.com".utf8))
        func batch(_ n: Int) -> Int {
            let app = ChainingDelegate(remaining: n)
            phone.run { app.startNext() }
            app.done.wait()
            return app.messages
        }
        _ = batch(warmUp)
        let start = DispatchTime.now().uptimeNanoseconds
        let messages = batch(sessions)
        let end = DispatchTime.now().uptimeNanoseconds
        phone.settle()
        return Result(sessions: sessions, seconds: Double(end - start) / 1e9, messagesDelivered: messages)
    }
}

/// Starts a session, and the next one from each invalidation, until `remaining` sessions have ended.
private final class ChainingDelegate: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var remaining: Int
    var messages = 0
    init(remaining: Int) { self.remaining = remaining }

    func startNext() {
        NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: true).begin()
    }

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        self.messages += messages.count
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        remaining -= 1
        if remaining > 0 { startNext() } else { done.signal() }
    }
}
