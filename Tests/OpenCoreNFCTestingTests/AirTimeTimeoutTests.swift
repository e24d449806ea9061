import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCTestSupport
import Testing

/// The phone's clock moves by the air time of every frame (docs/TIMING.md) and the iPhone's own time per command, so
/// the sheet's 60 s limit ends a read chain where the model says it must, not never.
@Suite struct AirTimeTimeoutTests {
    /// The app's loop: FAST_READ pages 04–27 again and again, noting the phone's clock after each answer.
    final class Chain: @unchecked Sendable {
        let phone: VirtualPhone
        var tag: (any NFCMiFareTag)?
        var finished: [UInt64] = []
        var started: UInt64?
        init(_ phone: VirtualPhone) { self.phone = phone }
        func next() {
            if started == nil { started = phone.clock.now.nanoseconds }
            tag?.sendMiFareCommand(commandPacket: Data([0x3A, 0x04, 0x27])) { _, error in
                guard error == nil else { return }
                self.finished.append(self.phone.clock.now.nanoseconds)
                self.next()
            }
        }
    }

    @Test func theSixtySecondLimitEndsAReadChainAtTheModelledTime() {
        // One FAST_READ 04–27 on the air (ISO/IEC 14443-3 §6.2): 1172 cycles before it, the frame 3A 04 27 1D 62
        // (5 bytes, 47 etu = 6016), the FDT after 62 (three ones: parity 0) = 9·128 + 20 = 1172, the answer of
        // 36 pages + CRC_A = 146 bytes = 1316 etu = 168 448. The command's part (7188 cycles) and the answer's
        // (169 620) each move the clock once; the iPhone profile adds 4 ms per command.
        let period = AirTime(cycles: 7188).nanoseconds + AirTime(cycles: 169_620).nanoseconds + 4_000_000
        #expect(period == 530_088 + 12_508_850 + 4_000_000)  // ≈ 17.04 ms

        let phone = VirtualPhone()
        phone.put(Pin.ntag(holding: Pin.uri("a.example")))
        let chain = Chain(phone)
        let app = TagSessionRecorder()
        app.onDetect = { session, tags in
            guard case .miFare(let tagObject) = tags[0] else { return }
            nonisolated(unsafe) let tag = tagObject
            session.connect(to: tags[0]) { error in
                guard error == nil else { return }
                chain.tag = tag
                chain.next()
            }
        }
        let begun = phone.clock.now.nanoseconds
        Pin.beginTagSession(phone, app)
        phone.settle()

        #expect(app.invalidationCode == .readerSessionInvalidationErrorSessionTimeout)
        let limit = begun + 60_000_000_000
        let times = chain.finished
        guard let first = chain.started, let last = times.last else {
            Issue.record("no command completed")
            return
        }
        // Every answer came exactly one modelled period after the one before.
        // Answers come one modelled period after another; a step is longer only when the system put frames of its
        // own between two commands (never shorter).
        let steps = zip(times.dropFirst(), times).map { $0 - $1 }
        #expect(steps.min() == period && times[0] - first == period)
        let longer = steps.filter { $0 != period }.count
        #expect(longer * 100 <= steps.count, "\(longer) of \(steps.count) steps differ from \(period) ns")
        // The limit ends the chain where the model says: the command on the air at 60 s is the last one answered,
        // so the count is what fits between the first command and the limit, give or take that one.
        let fit = Int((limit - first) / period)
        #expect((fit - longer...fit + 1).contains(times.count), "\(times.count) answers, \(fit) periods fit")
        #expect(times.filter { $0 > limit }.count <= 1)
        #expect(last + period > limit && last < limit + period)
        // Activation (WUPA … SAK on the air, and the iPhone's activation time) came before the chain.
        #expect(first - begun > 10_000_000)
    }

    @Test func anInstantPhoneSpendsNoTimeOnTheAir() throws {
        let phone = VirtualPhone()
        phone.isInstant = true
        #expect(phone.isInstant)
        try phone.put(message: Pin.uri("instant.example"))
        let before = phone.clock.now
        let app = phone.readFirstNDEF()
        #expect(Pin.host(app.messages.first) == "instant.example")
        #expect(phone.clock.now == before)
        phone.isInstant = false
        #expect(!phone.isInstant)
    }
}
