import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCSystem
import Testing

/// Core NFC's session rules (audit items S1–S14), each through the public API on a `VirtualPhone` with the real
/// reader procedures. The decisions where Apple's documentation is silent are listed in docs/DIFFERENCES.md.
@Suite struct SessionRulesPinTests {
    @Test func S1_queuedSessionsSixtySecondsStartWhenItBecomesActive() {
        let phone = VirtualPhone()
        let first = NDEFMessageRecorder()
        let second = NDEFMessageRecorder()
        let s1 = Pin.beginNDEFSession(phone, first)
        let s2 = Pin.beginNDEFSession(phone, second)
        phone.advance(by: .seconds(40))
        #expect(second.events.isEmpty)
        s1.invalidate()
        phone.settle()
        #expect(second.events == [.becameActive])
        // 40 s waited + 59.999 s active: a clock started at begin() would have fired 40 s ago.
        phone.advance(by: NFCDuration(nanoseconds: 59_999_999_999))
        #expect(s2.isReady)
        #expect(second.invalidationError == nil)
        phone.advance(by: NFCDuration(nanoseconds: 1))
        #expect(second.events == [.becameActive, .invalidated(.readerSessionInvalidationErrorSessionTimeout)])
    }

    @Test func S2_beginOnAnActiveSessionDoesNothing() {
        let phone = VirtualPhone()
        let app = NDEFMessageRecorder()
        let session = Pin.beginNDEFSession(phone, app)
        phone.advance(by: .seconds(30))
        session.begin()
        phone.settle()
        #expect(app.events == [.becameActive])
        // The deadline is not restarted either: 60 s after the first begin() the session times out.
        phone.advance(by: .seconds(30))
        #expect(app.events == [.becameActive, .invalidated(.readerSessionInvalidationErrorSessionTimeout)])
    }

    @Test func S3_invalidateBeforeBeginReportsOnceAndALaterBeginRepeatsIt() {
        let phone = VirtualPhone()
        let app = NDEFMessageRecorder()
        let session = phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true) }
        session.invalidate()
        phone.settle()
        #expect(app.events == [.invalidated(.readerSessionInvalidationErrorUserCanceled)])
        session.begin()
        phone.settle()
        #expect(
            app.events == [
                .invalidated(.readerSessionInvalidationErrorUserCanceled),
                .invalidated(.readerSessionInvalidationErrorUserCanceled),
            ])
        #expect(!phone.sheet.isPresented)
        #expect(!session.isReady)
    }

    @Test func S4_invalidatingAQueuedSessionReports200AndTakesItOutOfTheQueue() {
        let phone = VirtualPhone()
        let (a, b, c) = (NDEFMessageRecorder(), NDEFMessageRecorder(), NDEFMessageRecorder())
        let sa = Pin.beginNDEFSession(phone, a)
        let sb = Pin.beginNDEFSession(phone, b)
        Pin.beginNDEFSession(phone, c)
        sb.invalidate()
        phone.settle()
        #expect(b.events == [.invalidated(.readerSessionInvalidationErrorUserCanceled)])
        #expect(a.events == [.becameActive])
        sa.invalidate()
        phone.settle()
        // C is next, not B; B never becomes active.
        #expect(c.events == [.becameActive])
        #expect(b.events == [.invalidated(.readerSessionInvalidationErrorUserCanceled)])
        #expect(!sb.isReady)
    }

    @Test func S5_tagSessionWithoutUsageDescriptionTerminatesTheApp() {
        var configuration = Pin.configuration()
        configuration.usageDescription = nil
        let phone = VirtualPhone(configuration: configuration)
        let app = TagSessionRecorder()
        let session = Pin.beginTagSession(phone, app)
        #expect(phone.terminationReason?.contains("NFCReaderUsageDescription") == true)
        #expect(app.events.isEmpty)
        #expect(!session.isReady)
        #expect(!phone.sheet.isPresented)
    }

    @Test func S6_tagSessionOnADeviceWithoutAReaderEndsWith1() {
        let phone = VirtualPhone(configuration: Pin.configuration(), hasReader: false)
        #expect(phone.run { NFCTagReaderSession.readingAvailable } == false)
        let app = TagSessionRecorder()
        Pin.beginTagSession(phone, app)
        #expect(app.events == [.invalidated(.readerErrorUnsupportedFeature)])
    }

    @Test func S7_ndefSessionWithoutNDEFOrTAGInFormatsEndsWith2AtBegin() {
        let cases: [([String], RecordedEvent)] = [
            (["PACE"], .invalidated(.readerErrorSecurityViolation)), ([], .invalidated(.readerErrorSecurityViolation)),
            (["TAG"], .becameActive), (["NDEF"], .becameActive),
        ]
        for (formats, expected) in cases {
            let phone = VirtualPhone(configuration: Pin.configuration(formats: formats))
            let app = NDEFMessageRecorder()
            Pin.beginNDEFSession(phone, app)
            #expect(app.events == [expected], "formats \(formats)")
        }
    }

    @Test func S8_paceNeedsThePACEEntitlementWhateverOtherBitsAreSet() {
        let pace = NFCTagReaderSession.PollingOption.pace
        let cases: [([String], NFCTagReaderSession.PollingOption, RecordedEvent)] = [
            (["TAG"], pace, .invalidated(.readerErrorSecurityViolation)),
            // 0x9 and 0xF: the PACE bit overrides the others, so the PACE entitlement is still required.
            (["TAG"], pace.union(.iso14443), .invalidated(.readerErrorSecurityViolation)),
            (["TAG"], NFCTagReaderSession.PollingOption(rawValue: 0xF), .invalidated(.readerErrorSecurityViolation)),
            (["TAG", "PACE"], pace.union(.iso14443), .becameActive),
            (["TAG"], .iso14443, .becameActive),
            (["PACE"], pace, .invalidated(.readerErrorSecurityViolation)),
        ]
        for (formats, option, expected) in cases {
            let phone = VirtualPhone(configuration: Pin.configuration(formats: formats))
            let app = TagSessionRecorder()
            Pin.beginTagSession(phone, app, option)
            #expect(app.events == [expected], "formats \(formats) option \(option.rawValue)")
        }
    }

    @Test func S9_backgroundingDuringACommandDeliversItsResultThen202AndLaterOperationsGive103() {
        let phone = VirtualPhone(configuration: Pin.configuration(aids: ["F00102030405"]))
        let system = phone.system
        // The applet answers and, while the exchange is still in flight, the user leaves the app.
        let applet = ISO7816ClosureApplet(aid: Pin.appletAID) { command in
            if command.ins == 0x01 { system.appDidEnterBackground() }
            return ISO7816Response(data: [0x42])
        }
        phone.put(try! Type4Tag(uid: [0x02, 0x11, 0x22, 0x33], applets: [applet]))
        let app = TagSessionRecorder()
        let log = LogBox()
        let tagBox = Shared<(any NFCISO7816Tag)?>(nil)
        app.onDetect = { session, tags in
            guard case .iso7816(let tagObject) = tags[0] else { return }
            nonisolated(unsafe) let tag = tagObject
            tagBox.value = tag
            session.connect(to: tags[0]) { _ in
                tag.sendCommand(apdu: Pin.apdu(ins: 0x01)) { data, sw1, sw2, error in
                    log.append("command \([UInt8](data)) \(String(format: "%02X%02X", sw1, sw2)) \(Pin.code(error))")
                }
            }
        }
        app.onInvalidate = { _, error in log.append("invalidated \(Pin.code(error))") }
        Pin.beginTagSession(phone, app)
        #expect(log.lines == ["command [66] 9000 0", "invalidated 202"])
        let later = Shared(0)
        tagBox.value?.sendCommand(apdu: Pin.apdu(ins: 0x02)) { _, _, _, error in later.value = Pin.code(error) }
        phone.settle()
        #expect(later.value == 103)
        #expect(tagBox.value?.isAvailable == false)
    }

    @Test func S10_timeoutOrCancelWhileConnectedDropsTheConnectionAndLaterOperationsGive103() {
        for end in ["timeout", "cancel"] {
            let phone = VirtualPhone()
            phone.put(Pin.ntag(holding: Pin.uri("a.example")))
            let app = TagSessionRecorder()
            let tagBox = Shared<(any NFCMiFareTag)?>(nil)
            app.onDetect = { session, tags in
                guard case .miFare(let tagObject) = tags[0] else { return }
                nonisolated(unsafe) let tag = tagObject
                session.connect(to: tags[0]) { _ in tagBox.value = tag }
            }
            let session = Pin.beginTagSession(phone, app)
            #expect(session.connectedTag != nil)
            if end == "timeout" { phone.advance(by: .seconds(60)) } else { phone.tapCancel() }
            let expected: NFCReaderError.Code =
                end == "timeout"
                ? .readerSessionInvalidationErrorSessionTimeout : .readerSessionInvalidationErrorUserCanceled
            #expect(app.invalidationCode == expected, "\(end)")
            #expect(session.connectedTag == nil, "\(end)")
            let codes = Shared<[Int]>([])
            let tag = tagBox.value!
            tag.sendMiFareCommand(commandPacket: Data([0x30, 0x04])) { _, e in codes.update { $0.append(Pin.code(e)) } }
            tag.readNDEF { _, e in codes.update { $0.append(Pin.code(e)) } }
            phone.settle()
            #expect(codes.value == [103, 103], "\(end)")
            #expect(!tag.isAvailable, "\(end)")
        }
    }

    @Test func S11_theDelegateIsHeldWeaklyAndARunningSessionLivesUntilItsInvalidationIsDelivered() {
        let phone = VirtualPhone()
        // The delegate: the session does not keep it alive.
        var delegate: NDEFMessageRecorder? = NDEFMessageRecorder()
        weak let weakDelegate = delegate
        let session = phone.run {
            NFCNDEFReaderSession(delegate: delegate!, queue: nil, invalidateAfterFirstRead: true)
        }
        #expect(session.delegate === delegate)
        delegate = nil
        #expect(weakDelegate == nil)
        #expect(session.delegate == nil)
        // The session: once begun, the system keeps it alive until didInvalidateWithError has run.
        let app = NDEFMessageRecorder()
        weak var weakSession: NFCNDEFReaderSession?
        do {
            let running = phone.run {
                NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true)
            }
            weakSession = running
            running.begin()
        }
        phone.settle()
        #expect(weakSession != nil)
        #expect(app.events == [.becameActive])
        phone.tapCancel()
        #expect(app.events == [.becameActive, .invalidated(.readerSessionInvalidationErrorUserCanceled)])
        #expect(weakSession == nil)
    }

    @Test func S11_tagsHoldTheirSessionWeakly() {
        let phone = VirtualPhone()
        phone.put(Pin.ntag(holding: Pin.uri("weak.example")))
        let app = TagSessionRecorder()
        let found = Shared<NFCTag?>(nil)
        app.onDetect = { session, tags in
            found.value = tags[0]
            session.invalidate()
        }
        weak var weakSession: NFCTagReaderSession?
        do {
            let session = Pin.beginTagSession(phone, app)
            weakSession = session
            if case .miFare(let tag)? = found.value { #expect(tag.session === session) }
        }
        phone.settle()
        #expect(app.invalidationCode == .readerSessionInvalidationErrorUserCanceled)
        // The ended session is released although the app still holds its tag.
        #expect(weakSession == nil)
        guard case .miFare(let tag)? = found.value else {
            Issue.record("no MIFARE tag")
            return
        }
        #expect(tag.session == nil)
        #expect(!tag.isAvailable)
    }

    @Test func S12_aNilQueueGivesEachSessionItsOwnPrivateSerialQueue() {
        let phone = VirtualPhone()
        let a = NDEFMessageRecorder()
        let b = NDEFMessageRecorder()
        let (sa, sb) = phone.run {
            (
                NFCNDEFReaderSession(delegate: a, queue: nil, invalidateAfterFirstRead: true),
                NFCNDEFReaderSession(delegate: b, queue: nil, invalidateAfterFirstRead: true)
            )
        }
        #expect(sa.sessionQueue !== sb.sessionQueue)
        #expect(sa.sessionQueue !== DispatchQueue.main)
        // Callbacks run on it.
        let key = DispatchSpecificKey<Int>()
        sa.sessionQueue.setSpecific(key: key, value: 7)
        let seen = Shared<[Int?]>([])
        a.onMessages = { _, _ in seen.update { $0.append(DispatchQueue.getSpecific(key: key)) } }
        try! phone.put(message: Pin.uri("q.example"))
        sa.begin()
        phone.settle()
        #expect(seen.value == [7])
        // Serial: blocks submitted to it never overlap.
        let inside = Shared(0)
        let overlaps = Shared(0)
        let group = DispatchGroup()
        for _ in 0..<200 {
            sa.sessionQueue.async(group: group) {
                inside.update { $0 += 1 }
                if inside.value > 1 { overlaps.update { $0 += 1 } }
                inside.update { $0 -= 1 }
            }
        }
        group.wait()
        #expect(overlaps.value == 0)
    }

    @Test func S13_tagOperationCompletionHandlersRunOnTheSessionQueue() {
        for passed in [true, false] {
            let phone = VirtualPhone()
            phone.put(Pin.ntag(holding: Pin.uri("h.example")))
            let probe = ProbeQueue()
            let app = NDEFTagRecorder()
            let onQueue = Shared<[String]>([])
            @Sendable func check(_ what: String) {
                onQueue.update { $0.append("\(what) \(passed ? probe.isCurrent : Self.isOnMarkedQueue)") }
            }
            app.onDetect = { session, tags in
                nonisolated(unsafe) let tag = tags[0]
                session.connect(to: tag) { _ in
                    check("connect")
                    tag.queryNDEFStatus { _, _, _ in
                        check("query")
                        tag.readNDEF { _, _ in
                            check("read")
                            tag.writeNDEF(NFCNDEFMessage(data: Data(Pin.uri("w.example")))!) { _ in
                                check("write")
                                session.invalidate()
                            }
                        }
                    }
                }
            }
            let session = phone.run {
                NFCNDEFReaderSession(
                    delegate: app, queue: passed ? probe.queue : nil, invalidateAfterFirstRead: false)
            }
            if !passed { Self.mark(session.sessionQueue) }
            session.begin()
            phone.settle()
            #expect(
                onQueue.value == ["connect true", "query true", "read true", "write true"], "queue passed: \(passed)")
        }
    }

    @Test func S14_alertMessageCanBeChangedFromAnyThreadWhileTheSessionIsValid() {
        let phone = VirtualPhone()
        let app = NDEFMessageRecorder()
        let session = Pin.beginNDEFSession(phone, app)
        let group = DispatchGroup()
        for i in 0..<8 {
            DispatchQueue.global().async(group: group) { session.alertMessage = "progress \(i)" }
        }
        group.wait()
        phone.settle()
        #expect(phone.sheetText.hasPrefix("progress "))
        #expect(phone.sheetText == session.alertMessage)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            session.alertMessage = "Almost done."
            done.signal()
        }
        done.wait()
        phone.settle()
        #expect(phone.sheetText == "Almost done.")
        #expect(phone.transcript.filter { $0.kind == .sheet }.map(\.text).last == "message: Almost done.")
    }

    // MARK: helpers

    private static let queueKey = DispatchSpecificKey<UInt8>()
    private static func mark(_ q: DispatchQueue) { q.setSpecific(key: queueKey, value: 1) }
    private static var isOnMarkedQueue: Bool { DispatchQueue.getSpecific(key: queueKey) == 1 }
}
