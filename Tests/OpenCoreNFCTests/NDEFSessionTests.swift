import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCSystem
import Testing

/// The NDEF reader session on the simulated iPhone: its two modes and the iPhone's rules.
@Suite struct NDEFSessionTests {
    @Test func readOnlyModeDeliversMessagesAfterBecomingActive() throws {
        let (phone, platform) = Fixtures.phone()
        phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: Fixtures.uriMessage("example.com")))
        let app = NDEFMessageRecorder()
        let q = LabelledQueue()
        let onQueue = Unchecked(Box(false))
        app.onMessages = { _, _ in onQueue.value.value = q.isCurrent }
        let session = phone.run {
            NFCNDEFReaderSession(delegate: app, queue: q.queue, invalidateAfterFirstRead: true)
        }
        session.alertMessage = "Hold your iPhone near the item."
        session.begin()
        phone.settle()
        #expect(
            app.events == [
                .becameActive, .detectedNDEFs(1), .invalidated(.readerSessionInvalidationErrorFirstNDEFTagRead),
            ])
        let record = try #require(app.messages.first?.records.first)
        #expect(record.typeNameFormat == .nfcWellKnown)
        #expect([UInt8](record.payload) == [0x04] + Array("example.com".utf8))
        #expect(onQueue.value.value, "callbacks run on the session queue")
        #expect(session.sessionQueue === q.queue)
        #expect(!phone.sheet.isPresented)
    }

    @Test func readOnlyModeWithoutFirstReadKeepsReadingNewTags() {
        let (phone, platform) = Fixtures.phone()
        let app = NDEFMessageRecorder()
        let session = phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false) }
        session.begin()
        phone.settle()
        let a = phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: Fixtures.uriMessage("a.example")))
        #expect(app.events == [.becameActive, .detectedNDEFs(1)])
        // The same tag staying in the field is not read again; taken away and back, it is.
        phone.advance(by: .seconds(1))
        #expect(app.messages.count == 1)
        phone.remove(a)
        phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: Fixtures.uriMessage("a.example")))
        #expect(app.messages.count == 2)
        #expect(session.isReady)
        session.invalidate()
        phone.settle()
        #expect(app.invalidationCode == .readerSessionInvalidationErrorUserCanceled)
    }

    @Test func readWriteModeDeliversTagsToADelegateThatImplementsDidDetect() {
        let (phone, platform) = Fixtures.phone()
        phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: Fixtures.uriMessage("a.example")))
        let app = NDEFTagRecorder()
        let kinds = Unchecked(Box<[String]>([]))
        app.onDetect = { _, tags in
            kinds.value.value = tags.map { t in t is any NFCMiFareTag ? "miFare" : "other" }
        }
        let session = phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true) }
        session.begin()
        phone.settle()
        #expect(app.events == [.becameActive, .detectedTags(1)])
        #expect(kinds.value.value == ["miFare"])
        // Read-write sessions never end by themselves after a detection.
        #expect(session.isReady)
        phone.advance(by: .seconds(60))
        #expect(app.invalidationCode == .readerSessionInvalidationErrorSessionTimeout)
    }

    @Test func readWriteFlowConnectQueryWriteLock() throws {
        let (phone, platform) = Fixtures.phone()
        phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: Fixtures.uriMessage("old.example")))
        let app = NDEFTagRecorder()
        let log = Unchecked(Box<[String]>([]))
        nonisolated(unsafe) let message = NFCNDEFMessage(data: Data(Fixtures.uriMessage("new.example")))!
        app.onDetect = { session, tags in
            nonisolated(unsafe) let tag = tags[0]
            tag.readNDEF { _, error in
                log.value.value.append("read before connect: \((error as? NFCReaderError)?.code.rawValue ?? 0)")
            }
            session.connect(to: tag) { error in
                log.value.value.append("connect: \(error == nil)")
                tag.queryNDEFStatus { status, capacity, _ in
                    log.value.value.append("status: \(status.rawValue) \(capacity)")
                    tag.writeNDEF(message) { error in
                        log.value.value.append("write: \(error == nil)")
                        tag.writeLock { error in
                            log.value.value.append("lock: \(error == nil)")
                            tag.writeNDEF(message) { error in
                                log.value.value.append("write again: \((error as? NFCReaderError)?.code.rawValue ?? 0)")
                                session.alertMessage = "Done."
                                session.invalidate()
                            }
                        }
                    }
                }
            }
        }
        let session = phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false) }
        session.begin()
        phone.settle()
        #expect(
            log.value.value == [
                "read before connect: 104", "connect: true", "status: 2 496", "write: true", "lock: true",
                "write again: 400",
            ])
        #expect(platform.ndef(uid: Fixtures.uidA)?.message == Fixtures.uriMessage("new.example"))
        #expect(platform.ndef(uid: Fixtures.uidA)?.readOnly == true)
        #expect(app.invalidationCode == .readerSessionInvalidationErrorUserCanceled)
    }

    @Test func writeErrorsAtTheRightMoments() {
        let (phone, platform) = Fixtures.phone()
        phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: [], capacity: 10))
        let app = NDEFTagRecorder()
        let codes = Unchecked(Box<[Int]>([]))
        nonisolated(unsafe) let big = NFCNDEFMessage(data: Data(Fixtures.uriMessage("a-rather-long-address.example")))!
        nonisolated(unsafe) let small = NFCNDEFMessage(data: Data(Fixtures.uriMessage("x")))!
        app.onDetect = { session, tags in
            nonisolated(unsafe) let tag = tags[0]
            session.connect(to: tag) { _ in
                tag.readNDEF { _, e in
                    codes.value.value.append((e as? NFCReaderError)?.code.rawValue ?? 0)  // 403 empty
                    tag.writeNDEF(big) { e in
                        codes.value.value.append((e as? NFCReaderError)?.code.rawValue ?? 0)  // 402 too small
                        tag.writeNDEF(small) { e in
                            codes.value.value.append((e as? NFCReaderError)?.code.rawValue ?? 0)  // 0 success
                        }
                    }
                }
            }
        }
        let session = phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false) }
        session.begin()
        phone.settle()
        #expect(codes.value.value == [403, 402, 0])
    }

    @Test func tagRemovedMidWriteIs100AndAFailedWriteIs401() {
        let (phone, platform) = Fixtures.phone()
        phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: Fixtures.uriMessage("a")))
        let app = NDEFTagRecorder()
        let codes = Unchecked(Box<[Int]>([]))
        let message = NFCNDEFMessage(data: Data(Fixtures.uriMessage("b")))!
        let tagBox = Unchecked(Box<(any NFCNDEFTag)?>(nil))
        app.onDetect = { session, tags in
            tagBox.value.value = tags[0]
            session.connect(to: tags[0]) { _ in }
        }
        let session = phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false) }
        session.begin()
        phone.settle()
        let tag = tagBox.value.value!
        // Frame 1: the detection ping; frame 2 fails as if the tag's answer was garbled: 401.
        phone.inject(FaultPlan([.error(frame: 3, code: .transmission, tagProcesses: false)]))
        tag.writeNDEF(message) { e in codes.value.value.append((e as? NFCReaderError)?.code.rawValue ?? 0) }
        phone.settle()
        // Now the tag leaves the field during the write: 100, and it is no longer available.
        phone.inject(FaultPlan([.removeAfter(frame: 2)]))
        tag.writeNDEF(message) { e in codes.value.value.append((e as? NFCReaderError)?.code.rawValue ?? 0) }
        phone.settle()
        tag.readNDEF { _, e in codes.value.value.append((e as? NFCReaderError)?.code.rawValue ?? 0) }
        phone.settle()
        #expect(codes.value.value == [401, 100, 100])
        #expect(!tag.isAvailable)
    }

    @Test func invalidatedSessionNeverScansAgain() {
        let (phone, platform) = Fixtures.phone()
        let app = NDEFMessageRecorder()
        let session = phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false) }
        session.begin()
        phone.advance(by: .seconds(60))
        #expect(app.events == [.becameActive, .invalidated(.readerSessionInvalidationErrorSessionTimeout)])
        phone.put(Fixtures.ntag(Fixtures.uidA, on: platform, message: Fixtures.uriMessage("a")))
        session.begin()
        phone.settle()
        // begin() again re-delivers the original reason and nothing is read.
        #expect(
            app.events == [
                .becameActive, .invalidated(.readerSessionInvalidationErrorSessionTimeout),
                .invalidated(.readerSessionInvalidationErrorSessionTimeout),
            ])
        session.restartPolling()
        phone.settle()
        #expect(app.messages.isEmpty)
        #expect(!session.isReady)
    }
}

/// A mutable box for values written on the session queue and read by the test after `settle()`.
final class Box<T> {
    var value: T
    init(_ value: T) { self.value = value }
}

struct Unchecked<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}
