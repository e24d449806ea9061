internal import Dispatch
internal import Foundation
internal import OpenCoreNFC
internal import OpenCoreNFCTesting
internal import OpenNFCRF
internal import OpenNFCSimulation
internal import OpenNFCSystem

/// The order sessions became active and ended in, across one scenario's sessions.
final class OrderLog: @unchecked Sendable {
    struct Event {
        var session: Int
        var active: Bool
    }
    private let lock = NSLock()
    private var _events: [Event] = []
    var events: [Event] { lock.withLock { _events } }
    func append(_ e: Event) { lock.withLock { _events.append(e) } }
}

/// One soak app: a delegate of either session kind that does what its kind does with the first tag it sees and
/// counts every callback, noting any that comes after the invalidation. NDEF sessions use the subclasses: without
/// `didDetect tags` (read-only mode, ``SoakNDEFReadApp``) or with it (``SoakNDEFWriteApp``).
class SoakApp: NSObject, NFCTagReaderSessionDelegate, @unchecked Sendable {
    struct Snapshot {
        var invalidations = 0
        var callbacksAfterInvalidation = 0
        var code: Int?
        var messages = 0
        var writes = 0
        var answers = 0
    }

    let number: Int
    let kind: Soak.Kind
    let order: OrderLog
    let write: [UInt8]
    /// Tag sessions: restart polling once after the first command instead of invalidating.
    let restarts: Bool
    private var invalidateNow: (() -> Void)?
    let lock = NSLock()
    private var state = Snapshot()
    private var restarted = false

    init(number: Int, kind: Soak.Kind, order: OrderLog, write: [UInt8], restarts: Bool) {
        self.number = number
        self.kind = kind
        self.order = order
        self.write = write
        self.restarts = restarts
    }

    func snapshot() -> Snapshot { lock.withLock { state } }

    func invalidateFromApp() { lock.withLock { invalidateNow }?() }

    func setInvalidate(_ body: @escaping () -> Void) { lock.withLock { invalidateNow = body } }

    /// Counts a delegate callback; false (and a violation noted) when the session had already ended.
    func callback() -> Bool {
        lock.withLock {
            if state.invalidations > 0 {
                state.callbacksAfterInvalidation += 1
                return false
            }
            return true
        }
    }

    private func ended(_ error: any Error) {
        let first: Bool = lock.withLock {
            state.invalidations += 1
            if state.invalidations > 1 { return false }
            state.code = (error as? NFCReaderError)?.code.rawValue ?? -1
            return true
        }
        if first { order.append(.init(session: number, active: false)) }
        lock.withLock { invalidateNow = nil }
    }

    func count(_ body: (inout Snapshot) -> Void) { lock.withLock { body(&state) } }

    // MARK: NDEF sessions

    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {
        if callback() { order.append(.init(session: number, active: true)) }
    }

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        if callback() { count { $0.messages += messages.count } }
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        _ = callback()
        ended(error)
    }

    /// Query; when the kind writes and the tag is writable, write the scenario's message and read it back.
    func ndefWork(_ tag: any NFCNDEFTag, then done: @escaping @Sendable () -> Void) {
        nonisolated(unsafe) let tag = tag
        tag.queryNDEFStatus { status, capacity, error in
            guard error == nil else { return done() }
            guard self.kind == .ndefWrite || self.kind == .tag, status == .readWrite, capacity >= self.write.count,
                let message = NFCNDEFMessage(data: Data(self.write))
            else {
                return tag.readNDEF { message, _ in
                    if message != nil { self.count { $0.messages += 1 } }
                    done()
                }
            }
            tag.writeNDEF(message) { error in
                guard error == nil else { return done() }
                self.count { $0.writes += 1 }
                tag.readNDEF { message, _ in
                    if message != nil { self.count { $0.messages += 1 } }
                    done()
                }
            }
        }
    }

    // MARK: tag sessions

    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {
        if callback() { order.append(.init(session: number, active: true)) }
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        guard callback(), let first = tags.first else { return }
        nonisolated(unsafe) let tag = first
        session.connect(to: tag) { error in
            guard error == nil else { return session.invalidate() }
            let finish: @Sendable () -> Void = {
                let again: Bool = self.lock.withLock {
                    defer { self.restarted = true }
                    return self.restarts && !self.restarted
                }
                if again { session.restartPolling() } else { session.invalidate() }
            }
            self.command(tag) { answered in
                if answered { self.count { $0.answers += 1 } }
                switch tag {
                case .miFare(let t): self.ndefWork(t, then: finish)
                case .iso7816(let t): self.ndefWork(t, then: finish)
                case .iso15693(let t): self.ndefWork(t, then: finish)
                case .feliCa(let t): self.ndefWork(t, then: finish)
                @unknown default: finish()
                }
            }
        }
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {
        _ = callback()
        ended(error)
    }

    /// One command of the tag's family: READ page 4, SELECT of the NDEF application, READ SINGLE BLOCK 0, or
    /// Request Service of the NDEF service.
    private func command(_ tag: NFCTag, done: @escaping @Sendable (Bool) -> Void) {
        switch tag {
        case .miFare(let t):
            t.sendMiFareCommand(commandPacket: Data([0x30, 0x04])) { _, error in done(error == nil) }
        case .iso7816(let t):
            let select = NFCISO7816APDU(
                instructionClass: 0x00, instructionCode: 0xA4, p1Parameter: 0x04, p2Parameter: 0x00,
                data: Data([0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01]), expectedResponseLength: 256)
            t.sendCommand(apdu: select) { _, _, _, error in done(error == nil) }
        case .iso15693(let t):
            t.readSingleBlock(requestFlags: [.highDataRate], blockNumber: 0) { _, error in done(error == nil) }
        case .feliCa(let t):
            t.requestService(nodeCodeList: [Data([0x0B, 0x00])]) { _, error in done(error == nil) }
        @unknown default:
            done(false)
        }
    }
}

/// An NDEF session app in read-only mode: the messages arrive through `didDetectNDEFs`.
final class SoakNDEFReadApp: SoakApp, NFCNDEFReaderSessionDelegate, @unchecked Sendable {}

/// An NDEF session app in read-write mode: it connects to the first tag, queries it, writes and reads back.
final class SoakNDEFWriteApp: SoakApp, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
        guard callback(), let first = tags.first else { return }
        nonisolated(unsafe) let tag = first
        session.connect(to: tag) { error in
            guard error == nil else { return session.invalidate() }
            self.ndefWork(tag) { session.invalidate() }
        }
    }
}
