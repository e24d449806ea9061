import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport

/// Shared fixtures of the pin suites (SessionRulesPinTests, NDEFRulesPinTests, TagRulesPinTests): each pins one
/// documented Core NFC behaviour through the public API on a `VirtualPhone` running the real reader procedures over
/// virtual chips.
enum Pin {
    static let uidA: [UInt8] = [0x04, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6]
    static let uidB: [UInt8] = [0x04, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6]
    static let uidC: [UInt8] = [0x04, 0xC1, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6]
    static let appletAID: [UInt8] = [0xF0, 0x01, 0x02, 0x03, 0x04, 0x05]

    /// A one-record URI message, `https://` + `s` (``uriMessage(_:)``).
    static func uri(_ s: String) -> [UInt8] { uriMessage(s) }

    /// The host of the first URI record of a delivered message.
    static func host(_ message: NFCNDEFMessage?) -> String {
        message?.records.first?.wellKnownTypeURIPayload()?.host ?? "-"
    }

    /// A configuration allowing both session kinds, with these declared AIDs.
    static func configuration(
        aids: [String] = [], profile: DeviceProfile = .iphone, formats: [String] = ["NDEF", "TAG"]
    ) -> AppConfiguration {
        AppConfiguration(profile: profile, readerSessionFormats: formats, iso7816SelectIdentifiers: aids)
    }

    static func ntag(_ uid: [UInt8] = uidA, holding message: [UInt8]? = nil) -> Type2Tag {
        if let message { return try! Type2Tag.factory(.ntag213, uid: uid, holding: message) }
        return try! Type2Tag.factory(.ntag213, uid: uid)
    }

    /// A Type 4 card with the NDEF application (holding `message`) and one applet that echoes its command's INS.
    static func type4(uid: [UInt8] = [0x02, 0x11, 0x22, 0x33], holding message: [UInt8] = uri("t4.example")) -> Type4Tag
    {
        let applet = ISO7816ClosureApplet(aid: appletAID) { command in
            command.ins == 0xCA ? ISO7816Response(data: [], status: .success) : ISO7816Response(data: [command.ins])
        }
        return try! Type4Tag.factory(uid: uid, holding: message, applets: [applet])
    }

    /// `code` of an `NFCReaderError`, 0 for none, -1 for another error type.
    static func code(_ error: (any Error)?) -> Int {
        guard let error else { return 0 }
        return (error as? NFCReaderError)?.code.rawValue ?? -1
    }

    static func apdu(ins: UInt8, data: [UInt8] = [], le: Int = 256, p1: UInt8 = 0, cla: UInt8 = 0) -> NFCISO7816APDU {
        NFCISO7816APDU(
            instructionClass: cla, instructionCode: ins, p1Parameter: p1, p2Parameter: 0, data: Data(data),
            expectedResponseLength: le)
    }

    /// Begins a tag session on `phone` and lets it settle.
    @discardableResult
    static func beginTagSession(
        _ phone: VirtualPhone, _ app: TagSessionRecorder, _ option: NFCTagReaderSession.PollingOption = .iso14443,
        queue: DispatchQueue? = nil
    ) -> NFCTagReaderSession {
        let session = phone.run {
            NFCTagReaderSession(configuration: .init(pollingOption: option), delegate: app, queue: queue)
        }
        session.begin()
        phone.settle()
        return session
    }

    /// Begins an NDEF session on `phone` and lets it settle.
    @discardableResult
    static func beginNDEFSession(
        _ phone: VirtualPhone, _ delegate: any NFCNDEFReaderSessionDelegate, once: Bool = false,
        queue: DispatchQueue? = nil
    ) -> NFCNDEFReaderSession {
        let session = phone.run {
            NFCNDEFReaderSession(delegate: delegate, queue: queue, invalidateAfterFirstRead: once)
        }
        session.begin()
        phone.settle()
        return session
    }

    /// Runs an NDEF session whose app, on the first tag it detects, queries the status, writes `message`, locks the
    /// tag and queries again, as the write-and-lock seed app does; returns what it logged. `beforeConnecting` may log
    /// a line about the detected tag first.
    static func queryWriteLockQuery(
        _ phone: VirtualPhone, writing message: NFCNDEFMessage,
        beforeConnecting: ((any NFCNDEFTag, LogBox) -> Void)? = nil
    ) -> [String] {
        let app = NDEFTagRecorder()
        let log = LogBox()
        nonisolated(unsafe) let message = message
        app.onDetect = { session, tags in
            nonisolated(unsafe) let tag = tags[0]
            beforeConnecting?(tag, log)
            session.connect(to: tag) { _ in
                tag.queryNDEFStatus { status, capacity, _ in
                    log.append("status \(status.rawValue) capacity \(capacity)")
                    tag.writeNDEF(message) { e in
                        log.append("write \(e == nil)")
                        tag.writeLock { e in
                            log.append("lock \(e == nil)")
                            tag.queryNDEFStatus { status, _, _ in
                                log.append("status \(status.rawValue)")
                                session.invalidate()
                            }
                        }
                    }
                }
            }
        }
        phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false).begin() }
        phone.settle()
        return log.lines
    }
}

/// A value shared between the test and callbacks on session queues.
final class Shared<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: T
    init(_ value: T) { stored = value }
    var value: T {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
    func update(_ body: (inout T) -> Void) { lock.withLock { body(&stored) } }
}

/// A queue whose callbacks can tell they run on it.
final class ProbeQueue: @unchecked Sendable {
    let queue: DispatchQueue
    private let key = DispatchSpecificKey<UInt8>()
    init(_ label: String = "pin.session.queue") {
        queue = DispatchQueue(label: label)
        queue.setSpecific(key: key, value: 1)
    }
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}

/// A card with MIFARE Classic 1K's activation (ATQA 0004, SAK 08, 4-byte UID; NXP MF1S50yz datasheet) and no
/// answer to anything without Crypto1 authentication, which no Core NFC session performs: enough for the delivery
/// rules, which go by SAK (NXP AN10833, "MIFARE type identification procedure").
final class ClassicStandIn: VirtualTag {
    let chip = "mifare-classic-1k (stand-in)"
    let activation = VirtualActivation(uid: [0xC1, 0xA5, 0x51, 0xC0], sensRes: 0x0004, selRes: 0x08)
    func reset() {}
    func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer { .silence }
}

/// An ISO-DEP card that answers SELECT by DF name with `90 00` and every other APDU with the single byte `90`: a
/// response shorter than the two status bytes ISO/IEC 7816-4 §5.1 requires.
final class ShortAnswerCard: VirtualTag {
    let chip = "short-answer card"
    let activation = VirtualActivation(
        uid: [0x08, 0x51, 0x52, 0x53], sensRes: 0x0004, selRes: 0x20, ats: [0x05, 0x78, 0x80, 0x70, 0x02])
    func reset() {}
    func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        frame.count >= 2 && frame[1] == 0xA4 ? .data([0x90, 0x00]) : .data([0x90])
    }
}
