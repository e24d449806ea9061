import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// The iPhone's session rules through the public API.
@Suite struct PhoneRulesTests {
    @Test func oneActiveSessionOthersWaitInFIFOOrder() {
        let (phone, _) = Fixtures.phone()
        let first = NDEFMessageRecorder()
        let second = NDEFMessageRecorder()
        let third = NDEFMessageRecorder()
        let (s1, s2, s3) = phone.run {
            (
                NFCNDEFReaderSession(delegate: first, queue: nil, invalidateAfterFirstRead: true),
                NFCNDEFReaderSession(delegate: second, queue: nil, invalidateAfterFirstRead: true),
                NFCNDEFReaderSession(delegate: third, queue: nil, invalidateAfterFirstRead: true)
            )
        }
        s1.alertMessage = "first"
        s2.alertMessage = "second"
        s3.alertMessage = "third"
        s1.begin()
        s3.begin()
        s2.begin()
        phone.settle()
        #expect(first.events == [.becameActive])
        #expect(second.events.isEmpty && third.events.isEmpty)
        #expect(!s3.isReady)
        #expect(phone.sheetText == "first")
        s1.invalidate()
        phone.settle()
        #expect(third.events == [.becameActive])
        #expect(second.events.isEmpty)
        #expect(phone.sheetText == "third")
        phone.tapCancel()
        #expect(third.invalidationCode == .readerSessionInvalidationErrorUserCanceled)
        #expect(second.events == [.becameActive])
        #expect(phone.sheetText == "second")
    }

    @Test func sixtySecondLimitFrom201() {
        let (phone, _) = Fixtures.phone()
        let app = NDEFMessageRecorder()
        let session = phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true) }
        session.begin()
        phone.advance(by: NFCDuration(nanoseconds: 59_999_999_999))
        #expect(app.invalidationError == nil)
        #expect(session.isReady)
        phone.advance(by: NFCDuration(nanoseconds: 1))
        #expect(app.invalidationCode == .readerSessionInvalidationErrorSessionTimeout)
        #expect((app.invalidationError as? NFCReaderError)?.localizedDescription == "Session timeout")
        #expect(!session.isReady)
        #expect(!phone.sheet.isPresented)
    }

    @Test func sheetShowsTheAlertMessageLiveAndClosesWithTheErrorGlyph() {
        let (phone, platform) = Fixtures.phone()
        let app = NDEFTagRecorder()
        app.onDetect = { session, _ in session.alertMessage = "Found it." }
        let session = phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false) }
        session.alertMessage = "Hold your iPhone near the tag."
        #expect(!phone.sheet.isPresented)
        session.begin()
        phone.settle()
        #expect(phone.sheet.isPresented)
        #expect(phone.sheet.title == "Ready to Scan")
        #expect(phone.sheetText == "Hold your iPhone near the tag.")
        #expect(session.alertMessage == "Hold your iPhone near the tag.")
        phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: []))
        #expect(phone.sheetText == "Found it.")
        session.invalidate(errorMessage: "Tag is empty.")
        phone.settle()
        #expect(!phone.sheet.isPresented)
        let sheet = phone.transcript.filter { $0.kind == .sheet }.map(\.text)
        #expect(
            sheet == [
                "shown: [Ready to Scan] Hold your iPhone near the tag.", "message: Found it.", "error: Tag is empty.",
                "closed",
            ])
        #expect(app.invalidationCode == .readerSessionInvalidationErrorUserCanceled)
    }

    @Test func errorGlyphIsNotDrawnForReadOnlySessions() {
        let (phone, platform) = Fixtures.phone()
        phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: Fixtures.uriMessage("a")))
        let app = NDEFMessageRecorder()
        app.onMessages = { session, _ in session.invalidate(errorMessage: "not shown") }
        phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false).begin() }
        phone.settle()
        #expect(!phone.transcript.contains { $0.kind == .sheet && $0.text.hasPrefix("error") })
        #expect(app.invalidationCode == .readerSessionInvalidationErrorUserCanceled)
    }

    @Test func backgroundEndsRunningAndWaitingSessionsWith202() {
        let (phone, _) = Fixtures.phone()
        let a = NDEFMessageRecorder()
        let b = NDEFMessageRecorder()
        phone.run {
            NFCNDEFReaderSession(delegate: a, queue: nil, invalidateAfterFirstRead: true).begin()
            NFCNDEFReaderSession(delegate: b, queue: nil, invalidateAfterFirstRead: true).begin()
        }
        phone.settle()
        phone.backgroundApp()
        #expect(a.invalidationCode == .readerSessionInvalidationErrorSessionTerminatedUnexpectedly)
        #expect(b.events == [.invalidated(.readerSessionInvalidationErrorSessionTerminatedUnexpectedly)])
        let c = phone.readFirstNDEF()
        #expect(c.invalidationCode == .readerSessionInvalidationErrorSessionTerminatedUnexpectedly)
        phone.foregroundApp()
        let d = phone.readFirstNDEF()
        #expect(d.events == [.becameActive])
    }

    @Test func readingAvailableIsFalseWithoutAReaderAndSessionsFailWith1() {
        let (phone, _) = Fixtures.phone(hasReader: false)
        let app = NDEFMessageRecorder()
        phone.run {
            #expect(!NFCNDEFReaderSession.readingAvailable)
            NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true).begin()
        }
        phone.settle()
        #expect(app.events == [.invalidated(.readerErrorUnsupportedFeature)])
        let (withReader, _) = Fixtures.phone()
        withReader.run { #expect(NFCReaderSession.readingAvailable) }
    }

    @Test func missingEntitlementIs2AndMissingUsageDescriptionTerminatesTheApp() {
        let (noTag, _) = Fixtures.phone(AppConfiguration(readerSessionFormats: ["NDEF"]))
        let tagApp = TagSessionRecorder()
        noTag.run { NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: tagApp).begin() }
        noTag.settle()
        #expect(tagApp.events == [.invalidated(.readerErrorSecurityViolation)])
        let ndefApp = noTag.readFirstNDEF()
        #expect(ndefApp.events == [.becameActive])

        let (noUsage, _) = Fixtures.phone(AppConfiguration(usageDescription: nil))
        let app = noUsage.readFirstNDEF()
        #expect(noUsage.terminationReason?.contains("NFCReaderUsageDescription") == true)
        #expect(app.events.isEmpty)

        let (desktop, _) = Fixtures.phone(AppConfiguration.empty(.desktop))
        let tagOnDesktop = TagSessionRecorder()
        desktop.run {
            NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: tagOnDesktop).begin()
        }
        desktop.settle()
        #expect(tagOnDesktop.events == [.becameActive])
    }

    @Test func operationsAfterInvalidationFailWith103() {
        let (phone, platform) = Fixtures.phone()
        phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: Fixtures.uriMessage("a")))
        let app = NDEFTagRecorder()
        let tagBox = Unchecked(Box<(any NFCNDEFTag)?>(nil))
        app.onDetect = { session, tags in
            tagBox.value.value = tags[0]
            session.invalidate()
        }
        phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false).begin() }
        phone.settle()
        let code = Unchecked(Box(0))
        tagBox.value.value?.queryNDEFStatus { _, _, e in code.value.value = (e as? NFCReaderError)?.code.rawValue ?? 0 }
        phone.settle()
        #expect(code.value.value == 103)
        #expect(tagBox.value.value?.isAvailable == false)
    }

    @Test func asyncFormsWork() async throws {
        let (phone, platform) = Fixtures.phone()
        phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: Fixtures.uriMessage("async.example")))
        let app = NDEFTagRecorder()
        let read = Unchecked(Box<[UInt8]>([]))
        app.onDetect = { session, tags in
            let tag = Unchecked(tags[0])
            let s = Unchecked(session)
            Task {
                do {
                    try await s.value.connect(to: tag.value)
                    let (status, _) = try await tag.value.queryNDEFStatus()
                    #expect(status == .readWrite)
                    let message = try await tag.value.readNDEF()
                    read.value.value = [UInt8](message.records[0].payload)
                    s.value.invalidate()
                } catch {
                    s.value.invalidate(errorMessage: "\(error)")
                }
            }
        }
        phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false).begin() }
        let error = await app.invalidation()
        #expect((error as? NFCReaderError)?.code == .readerSessionInvalidationErrorUserCanceled)
        #expect(read.value.value == [0x04] + Array("async.example".utf8))
    }
}
