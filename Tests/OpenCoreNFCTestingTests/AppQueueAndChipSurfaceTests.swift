import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import Testing

// An app developer's test, written as a project outside this package writes it (only the two products imported;
// `scripts/check-public-surface` typechecks it without the package name): sessions an app creates on its own queues
// reach a started phone, and every virtual chip is built with its content and inspected afterwards through the
// testing product's public API (docs/ARCHITECTURE.md "How a session finds its phone").

/// The URI message `https://example.com/q` (NDEF 1.0 §3.2, URI RTD prefix 04).
private let uriMessage: [UInt8] = [0xD1, 0x01, 0x0E, 0x55, 0x04] + Array("example.com/q".utf8)

/// An app whose scan starts on a queue of its own, as shipping apps do.
private final class QueueApp: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    let queue = DispatchQueue(label: "app.nfc")
    private let lock = NSLock()
    private var hosts: [String] = []
    private var codes: [Int] = []
    var seenHosts: [String] { lock.withLock { hosts } }
    var seenCodes: [Int] { lock.withLock { codes } }

    func scan() {
        queue.async {
            let session = NFCNDEFReaderSession(delegate: self, queue: self.queue, invalidateAfterFirstRead: true)
            session.begin()
        }
    }

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        let host = messages.first?.records.first?.wellKnownTypeURIPayload()?.host ?? "-"
        lock.withLock { hosts.append(host) }
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        lock.withLock { codes.append((error as? NFCReaderError)?.code.rawValue ?? -1) }
    }
}

// Starting a phone changes where the whole process's unbound sessions go: these tests run one at a time.
@Suite(.serialized) struct AppQueueSessionTests {
    @Test func aSessionCreatedInsideDispatchQueueAsyncReachesTheStartedPhone() throws {
        let phone = VirtualPhone()
        phone.start()
        defer { phone.stop() }
        #expect(phone.isStarted)
        let app = QueueApp()
        app.scan()
        app.queue.sync {}
        phone.settle()
        #expect(phone.sheet.isPresented)
        try phone.put(message: uriMessage)
        app.queue.sync {}
        phone.settle()
        #expect(app.seenHosts == ["example.com"])
        #expect(app.seenCodes == [NFCReaderError.Code.readerSessionInvalidationErrorFirstNDEFTagRead.rawValue])
    }

    @Test func aSessionCreatedOnAThreadOfItsOwnReachesTheStartedPhone() throws {
        let phone = VirtualPhone()
        phone.start()
        defer { phone.stop() }
        let app = NDEFMessageRecorder()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true).begin()
            done.signal()
        }
        thread.start()
        done.wait()
        phone.settle()
        try phone.put(message: uriMessage)
        #expect(app.messages.count == 1)
    }

    @Test func aSecondPhonesRunKeepsItsSessionsWhileAnotherPhoneIsStarted() throws {
        let started = VirtualPhone()
        started.start()
        defer { started.stop() }
        let other = VirtualPhone()
        let app = NDEFMessageRecorder()
        other.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true).begin() }
        other.settle()
        #expect(other.sheet.isPresented)
        #expect(!started.sheet.isPresented)
        try other.put(message: uriMessage)
        #expect(app.messages.count == 1)
    }

    @Test func withTwoPhonesStartedAnUnboundSessionBelongsToNeither() {
        let a = VirtualPhone()
        let b = VirtualPhone()
        a.start()
        b.start()
        defer {
            a.stop()
            b.stop()
        }
        let app = QueueApp()
        // A session created now would get a device without a reader: reading is not available.
        #expect(app.queue.sync { NFCNDEFReaderSession.readingAvailable } == false)
        app.scan()
        app.queue.sync {}
        a.settle()
        b.settle()
        #expect(!a.sheet.isPresented && !b.sheet.isPresented)
        b.stop()
        #expect(a.isStarted && !b.isStarted)
        #expect(app.queue.sync { NFCNDEFReaderSession.readingAvailable })
    }

    @Test func stoppingThePhoneSendsUnboundSessionsBackToTheProcessDefault() {
        let phone = VirtualPhone()
        let queue = DispatchQueue(label: "app.check")
        phone.start()
        #expect(queue.sync { NFCNDEFReaderSession.readingAvailable })
        phone.stop()
        #expect(!phone.isStarted)
        // The process default of a test process has no device configured (no OPENCORENFC_DEVICE): no reader.
        if ProcessInfo.processInfo.environment["OPENCORENFC_DEVICE"] == nil {
            #expect(queue.sync { NFCNDEFReaderSession.readingAvailable } == false)
        }
    }
}

@Suite struct AppChipSurfaceTests {
    static let uid7: [UInt8] = [0x04, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60]

    /// Runs an NDEF read-write session on a fresh phone that writes `message` to the first tag and locks it when told.
    static func write(_ message: NFCNDEFMessage, to tag: any VirtualTag, lock: Bool = false) -> [Int] {
        let phone = VirtualPhone()
        phone.put(tag)
        let app = NDEFTagRecorder()
        let codes = CodeLog()
        nonisolated(unsafe) let message = message
        app.onDetect = { session, tags in
            nonisolated(unsafe) let tags = tags
            session.connect(to: tags[0]) { _ in
                tags[0].writeNDEF(message) { error in
                    codes.add(error)
                    guard lock else { return session.invalidate() }
                    tags[0].writeLock { error in
                        codes.add(error)
                        session.invalidate()
                    }
                }
            }
        }
        phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false).begin() }
        phone.settle()
        return codes.all
    }

    static func message(_ host: String) -> NFCNDEFMessage {
        NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(url: URL(string: "https://\(host)/")!)!])
    }

    @Test func aType2TagsMessageLockAndPasswordStateAreVisible() throws {
        let tag = try Type2Tag.factory(.ntag215, uid: Self.uid7)
        #expect(tag.isNDEFFormatted && tag.ndefMessage == nil && !tag.isNDEFReadOnly)
        #expect(tag.auth0 == 0xFF && !tag.readProtection && !tag.isAuthenticated)
        #expect(Self.write(Self.message("t2.example"), to: tag, lock: true) == [0, 0])
        let stored = try #require(tag.ndefMessage)
        #expect(NFCNDEFMessage(data: Data(stored))?.records.first?.wellKnownTypeURIPayload()?.host == "t2.example")
        #expect(tag.isNDEFReadOnly && tag.isLocked(4))
        #expect(tag.memory.count == 540)
    }

    @Test func aType1AndAType4TagAreBuiltAndReadBack() throws {
        let topaz = try Type1Tag.factory(.topaz512, uid: [0x01, 0x02, 0x03, 0x04], holding: uriMessage)
        #expect(topaz.ndefMessage == uriMessage && topaz.isNDEFFormatted && !topaz.isLocked(block: 1))
        let card = try Type4Tag.factory(uid: Self.uid7, holding: [])
        #expect(Self.write(Self.message("t4.example"), to: card) == [0])
        #expect(NFCNDEFMessage(data: Data(card.ndefMessage))?.records.count == 1)
        #expect(card.ndefAccess == (read: 0x00, write: 0x00))
    }

    @Test func aDESFireCardIsBuiltWithApplicationsFilesAndKeysAndInspected() throws {
        let key = try DESFireKey(.aes, bytes: Array(0..<16), version: 1)
        let app = DESFireApplication(
            aid: 0x12_3456, keySettings: 0x0B, keyCount: 0x81, isoFileID: 0xE110, dfName: [0xF0, 0x01, 0x02, 0x03],
            files: [
                DESFireFile(number: 1, contents: Array("hello".utf8)),
                .valueFile(number: 2, lower: 0, upper: 1000, value: 250),
                .recordFile(number: 3, recordSize: 4, maxRecords: 3, records: [[1, 2, 3, 4]]),
            ], keys: [key])
        let card = try DESFireEV1Tag(uid: Self.uid7, applications: [app])
        #expect(card.applications.map(\.aid) == [0x12_3456])
        let files = try #require(card.applications.first?.files)
        #expect(files[0].contents == Array("hello".utf8) && files[1].value == 250 && files[2].records.count == 1)
        #expect(card.applications[0].keys[0].version == 1 && card.masterKey.type == .des)
        #expect(card.ndefMessage == nil)
        // An NDEF-formatted card takes a message through a session; the NDEF file shows it.
        let formatted = try DESFireEV1Tag.ndefFormatted(uid: Self.uid7, holding: [])
        #expect(Self.write(Self.message("desfire.example"), to: formatted) == [0])
        #expect(formatted.ndefMessage.flatMap { NFCNDEFMessage(data: Data($0)) }?.records.count == 1)
    }

    @Test func feliCaCardsAreBuiltWithServicesAndBlocksAndInspected() throws {
        let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0xE4, 0x45, 0x05, 0x5B, 0x87]
        let service = FeliCaStandardTag.Service(code: 0x1009, blocks: [[UInt8](repeating: 7, count: 16)])
        let card = FeliCaStandardTag(systems: [
            .init(code: 0x0003, idm: idm, areas: [.init(code: 0x0000, end: 0xFFFE)], services: [service])
        ])
        #expect(card.systems[0].services[0].blocks[0] == [UInt8](repeating: 7, count: 16))
        #expect(card.systems[0].services[0].isRandom && card.systems[0].services[0].isReadOnly == false)
        let lite = try FeliCaLiteSTag.factory(idm: idm, holding: uriMessage)
        #expect(lite.ndefMessage == uriMessage && lite.idm == idm && lite.user.count == 15)
        #expect(Self.write(Self.message("lite.example"), to: lite) == [0])
        #expect(
            lite.ndefMessage.flatMap { NFCNDEFMessage(data: Data($0)) }?.records.first?.wellKnownTypeURIPayload()?.host
                == "lite.example")
    }

    @Test func aType5TagIsBuiltFromBlocksAndItsMemoryLocksAndPasswordsAreVisible() throws {
        let profile = ISO15693ChipProfile.icodeSLIX2
        let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]
        var memory = [UInt8](repeating: 0, count: profile.blockCount * profile.blockSize)
        memory[8..<12] = [0xDE, 0xAD, 0xBE, 0xEF]
        let tag = try ISO15693Tag(profile: profile, uid: uid, memory: memory)
        #expect(Array(tag.memory[8..<12]) == [0xDE, 0xAD, 0xBE, 0xEF])
        #expect(tag.lockedBlocks.isEmpty && !tag.dsfidLocked && !tag.afiLocked && tag.state == .ready)
        #expect(tag.nxp.lockedPasswords.isEmpty && !tag.nxp.privacy && !tag.nxp.destroyed)
        let formatted = try ISO15693Tag.factory(profile, uid: uid)
        #expect(Self.write(Self.message("t5.example"), to: formatted, lock: true) == [0, 0])
        #expect(formatted.ndefMessage.flatMap { NFCNDEFMessage(data: Data($0)) }?.records.count == 1)
        #expect(!formatted.lockedBlocks.isEmpty)
    }

    @Test func thePhonesClockIsReadable() {
        let phone = VirtualPhone()
        let start = phone.clock.now
        phone.advance(by: .seconds(3))
        #expect(phone.clock.now.duration(since: start) == .seconds(3))
    }
}

/// Error codes in order (0 for success), filled from completion handlers.
private final class CodeLog: @unchecked Sendable {
    private let lock = NSLock()
    private var codes: [Int] = []
    func add(_ error: (any Error)?) {
        lock.withLock { codes.append(error.map { ($0 as? NFCReaderError)?.code.rawValue ?? -1 } ?? 0) }
    }
    var all: [Int] { lock.withLock { codes } }
}
