internal import Foundation
internal import OpenCoreNFC
internal import OpenCoreNFCTesting
internal import OpenNFCRF
internal import OpenNFCSimulation
internal import OpenNFCSystem

/// The seed flows of the project, played on a simulated iPhone by small apps written against the public Core NFC
/// API exactly as for iOS, with a scripted user (tags in and out, Cancel, waiting). Each returns the transcript: what
/// the user saw on the sheet, what the user did, and what the app received. `opennfc demo` prints these; the tests
/// in `SeedFlowTests` check them. The four app flows run on phones without background tag reading, so their
/// transcripts are the app's alone; ``backgroundReading()`` shows what the phone does on its own.
package enum SeedFlows {
    /// A flow: its title and the lines it produced.
    package struct Outcome: Sendable {
        package var title: String
        package var lines: [String]
    }

    /// Every flow, in order.
    package static func all() throws -> [Outcome] {
        [
            try inventoryScanner(), try writeAndLock(), try selectApplication(), try errorPaths(),
            try backgroundReading(),
        ]
    }

    /// The flows by the name `opennfc demo NAME` takes, with the function holding each one's code.
    package static let catalogue: [(name: String, function: String, run: @Sendable () throws -> Outcome)] = [
        ("inventory-scanner", "inventoryScanner()", inventoryScanner),
        ("write-and-lock", "writeAndLock()", writeAndLock),
        ("select-application", "selectApplication()", selectApplication),
        ("error-paths", "errorPaths()", errorPaths),
        ("background-reading", "backgroundReading()", backgroundReading),
    ]

    /// Where the flows' code lives, for people reading the demo's output.
    package static let sourceFile = "Sources/OpenNFCDemo/SeedFlows.swift"

    /// An `NFCNDEFStatus` by its Swift name (`.readWrite`), as an app's author reads it.
    static func name(_ status: NFCNDEFStatus) -> String {
        switch status {
        case .notSupported: return ".notSupported"
        case .readWrite: return ".readWrite"
        case .readOnly: return ".readOnly"
        @unknown default: return "status \(status.rawValue)"
        }
    }

    static func lines(_ phone: VirtualPhone) -> [String] {
        phone.transcript.filter { $0.kind == .sheet || $0.kind == .app || $0.kind == .user }.map(\.description)
    }

    static func uriMessage(_ uri: String) -> NFCNDEFMessage {
        NFCNDEFMessage(records: [NFCNDEFPayload.wellKnownTypeURIPayload(string: uri)!])
    }

    static func code(_ error: (any Error)?) -> String {
        guard let error else { return "ok" }
        if let e = error as? NFCReaderError { return "\(e.code.rawValue) \(e.localizedDescription)" }
        return "\(error)"
    }

    // MARK: (i) inventory scanner

    /// A scan button starts a single-tag NDEF session; each scan adds a row.
    package static func inventoryScanner() throws -> Outcome {
        let phone = VirtualPhone(backgroundTagReading: false)
        let app = InventoryScannerApp(phone: phone)
        for item in ["https://example.com/item/1", "https://example.com/item/2"] {
            phone.noteUser("taps Scan")
            phone.run { app.scan() }
            phone.settle()
            let tag = try phone.put(uriMessage(item))
            phone.remove(tag)
        }
        phone.note("rows: \(app.rows)")
        return Outcome(title: "Inventory scanner", lines: lines(phone))
    }

    // MARK: (ii) write a URI and lock

    /// Extra tags removed, status and capacity queried, message written, success shown; then a separate lock.
    package static func writeAndLock() throws -> Outcome {
        let phone = VirtualPhone(backgroundTagReading: false)
        let target = try Type2Tag.factory(.ntag215, uid: [0x04, 0x21, 0x22, 0x23, 0x24, 0x25, 0x26])
        let extra = try Type2Tag.factory(.ntag213, uid: [0x04, 0x31, 0x32, 0x33, 0x34, 0x35, 0x36])
        let writer = TagWriterApp(phone: phone, message: uriMessage("https://opencorenfc.example/hello"))
        phone.put(target, at: 0)
        let extraHandle = phone.put(extra, at: 1)
        phone.run { writer.start(lock: false) }
        phone.settle()
        phone.remove(extraHandle)
        phone.advance(by: .milliseconds(500))
        phone.run { writer.retry() }
        phone.settle()
        phone.removeAllTags()
        phone.noteUser("starts a second session to lock the tag")
        phone.run { writer.start(lock: true) }
        phone.settle()
        phone.put(target)
        phone.removeAllTags()
        return Outcome(title: "Write a URI and lock the tag", lines: lines(phone))
    }

    // MARK: (iii) SELECT an application

    /// A tag session SELECTs an application on an ISO 7816 card and on a DESFire card and prints SW1 SW2.
    package static func selectApplication() throws -> Outcome {
        let aid: [UInt8] = [0xF0, 0x01, 0x02, 0x03, 0x04, 0x05]
        let phone = VirtualPhone(
            configuration: .init(readerSessionFormats: ["TAG"], iso7816SelectIdentifiers: ["F00102030405"]),
            backgroundTagReading: false)
        let applet = ISO7816ClosureApplet(aid: aid) { command in
            command.ins == 0xCA ? ISO7816Response(data: [0x12, 0x34], status: .success) : .status(.insNotSupported)
        }
        let card = try Type4Tag(uid: [0x02, 0x44, 0x55, 0x66], applets: [applet])
        let app = CardReaderApp(phone: phone)
        phone.run { app.start() }
        phone.settle()
        phone.put(card)
        phone.removeAllTags()
        phone.run { app.start() }
        phone.settle()
        phone.put(try DESFireEV1Tag.ndefFormatted(uid: [0x04, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56], holding: []))
        phone.removeAllTags()
        return Outcome(title: "SELECT an application (ISO 7816 and DESFire)", lines: lines(phone))
    }

    // MARK: (iv) error paths

    /// Cancel, timeout, tag too small (402), read-only tag (400), tag pulled away mid-write (100) then re-read.
    package static func errorPaths() throws -> Outcome {
        let phone = VirtualPhone(backgroundTagReading: false)
        let big = uriMessage("https://example.com/" + String(repeating: "x", count: 200))
        // Cancel.
        let writer = TagWriterApp(phone: phone, message: big)
        phone.run { writer.start(lock: false) }
        phone.settle()
        phone.tapCancel()
        // Timeout.
        phone.run { writer.start(lock: false) }
        phone.noteUser("waits 60 s")
        phone.advance(by: .seconds(60))
        // Too small: a 200-byte URI on an NTAG213 (137 bytes).
        phone.run { writer.start(lock: false) }
        phone.settle()
        phone.removeAllTags()
        phone.put(try Type2Tag.factory(.ntag213, uid: [0x04, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66]))
        phone.removeAllTags()
        // Read-only: a locked tag.
        let locked = try Type2Tag.factory(.ntag215, uid: [0x04, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76])
        let lockWriter = TagWriterApp(phone: phone, message: uriMessage("https://example.com/lock"))
        phone.run { lockWriter.start(lock: true) }
        phone.settle()
        phone.put(locked)
        phone.removeAllTags()
        let small = TagWriterApp(phone: phone, message: uriMessage("https://example.com/new"))
        phone.run { small.start(lock: false) }
        phone.settle()
        phone.put(locked)
        phone.removeAllTags()
        // Pulled away mid-write, then re-read.
        let victim = try Type2Tag.factory(.ntag215, uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x07])
        phone.run { small.start(lock: false) }
        phone.settle()
        phone.noteUser("will pull the tag away during the write")
        phone.inject(FaultPlan([.tear(frame: 8, afterBytes: 0)]))
        phone.put(victim)
        phone.inject(FaultPlan())
        phone.removeAllTags()
        let reader = InventoryScannerApp(phone: phone)
        phone.run { reader.scan() }
        phone.settle()
        phone.put(victim)
        phone.removeAllTags()
        phone.note("re-read after the interrupted write: \(reader.rows.isEmpty ? "no message" : reader.rows.joined())")
        if reader.rows.isEmpty {
            phone.tapCancel()
        }
        return Outcome(title: "Error paths", lines: lines(phone))
    }

    // MARK: (v) background tag reading

    /// No app is scanning: the phone reads tags itself, shows a notification per new tag, and a tap hands the app
    /// the whole message as an `NSUserActivity` (a locked phone asks to unlock first; a URI no app claims opens in
    /// Safari; a malformed URI gives "No usable data found"; nothing while the camera is in use).
    package static func backgroundReading() throws -> Outcome {
        var configuration = AppConfiguration()
        configuration.associatedDomains = ["applinks:museum.example.com"]
        let phone = VirtualPhone(configuration: configuration)
        let app = MuseumApp(phone: phone)
        phone.onContinueUserActivity { activity in app.continueActivity(activity) }
        phone.noteUser("holds the phone near a museum label (no app is scanning)")
        let label = try phone.put(
            NFCNDEFMessage(records: [
                NFCNDEFPayload.wellKnownTypeTextPayload(string: "Room 3", locale: Locale(identifier: "en"))!,
                NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://museum.example.com/room/3")!,
            ]))
        phone.tapNotification()
        phone.remove(label)
        phone.lock()
        let poster = try phone.put(uriMessage("https://tickets.example.org/today"))
        phone.tapNotification()
        phone.unlock()
        phone.remove(poster)
        let raw = Array("https://museum.example.com/broken".utf8)
        let broken = try phone.put(message: [0xD1, 0x01, UInt8(raw.count), 0x55] + raw)
        phone.remove(broken)
        phone.cameraInUse = true
        let ignored = try phone.put(uriMessage("https://museum.example.com/room/4"))
        phone.remove(ignored)
        phone.cameraInUse = false
        phone.note(
            "notifications shown: \(phone.notifications.count); opened in Safari: \(phone.openedURLs.map(\.uri))")
        let lines = phone.transcript.filter { [.sheet, .app, .user, .notification].contains($0.kind) }.map(
            \.description)
        return Outcome(title: "Background tag reading", lines: lines)
    }
}

// MARK: - The apps (written as for iOS)

/// Flow (v): the app's `application(_:continue:restorationHandler:)`, as Apple's sample writes it.
final class MuseumApp: @unchecked Sendable {
    let phone: VirtualPhone
    init(phone: VirtualPhone) { self.phone = phone }

    func continueActivity(_ userActivity: NSUserActivity) {
        guard userActivity.activityType == NSUserActivityTypeBrowsingWeb else { return }
        let message = userActivity.ndefMessagePayload
        guard message.records.count > 0, message.records[0].typeNameFormat != .empty else { return }
        let title = message.records[0].wellKnownTypeTextPayload().0 ?? "?"
        phone.note(
            "opens \(userActivity.webpageURL?.path ?? "?") from a tag: \(message.records.count) records, title \(title)"
        )
    }
}

/// Flow (i): one NDEF session per scan, read-only mode, ends after the first read.
final class InventoryScannerApp: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    let phone: VirtualPhone
    var session: NFCNDEFReaderSession?
    private let lock = NSLock()
    private var _rows: [String] = []
    var rows: [String] { lock.withLock { _rows } }

    init(phone: VirtualPhone) { self.phone = phone }

    func scan() {
        session = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: true)
        session?.alertMessage = "Hold your iPhone near the item to learn more about it."
        session?.begin()
    }

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        for message in messages {
            for record in message.records {
                let text = record.wellKnownTypeURIPayload()?.absoluteString ?? "\(record.payload.count) bytes"
                lock.withLock { _rows.append(text) }
                phone.note("didDetectNDEFs: row added: \(text)")
            }
        }
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        phone.note("didInvalidateWithError: \(SeedFlows.code(error))")
    }
}

/// Flows (ii) and (iv): a read-write NDEF session that writes a message, or locks the tag.
final class TagWriterApp: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    let phone: VirtualPhone
    let message: NFCNDEFMessage
    var session: NFCNDEFReaderSession?
    var locking = false

    init(phone: VirtualPhone, message: NFCNDEFMessage) {
        self.phone = phone
        self.message = message
    }

    func start(lock: Bool) {
        locking = lock
        session = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: false)
        session?.alertMessage =
            lock
            ? "Hold your iPhone near the tag to lock it." : "Hold your iPhone near an NDEF tag to write the message."
        session?.begin()
    }

    func retry() {
        phone.note("app calls restartPolling() (Apple's sample waits 500 ms)")
        session?.restartPolling()
    }

    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) { phone.note("readerSessionDidBecomeActive") }

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}

    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
        phone.note("didDetect: \(tags.count) tag\(tags.count == 1 ? "" : "s")")
        if tags.count > 1 {
            session.alertMessage = "More than 1 tag is detected. Please remove all tags and try again."
            return
        }
        // Tag objects are not Sendable and handlers are: the tag is used only on the session queue.
        nonisolated(unsafe) let tag = tags[0]
        session.connect(to: tag) { error in
            if let error {
                self.phone.note("connect: \(SeedFlows.code(error))")
                session.invalidate(errorMessage: "Unable to connect to tag.")
                return
            }
            tag.queryNDEFStatus { status, capacity, error in
                self.phone.note("queryNDEFStatus: \(SeedFlows.name(status)), capacity \(capacity) bytes")
                if self.locking {
                    tag.writeLock { error in
                        self.phone.note("writeLock: \(SeedFlows.code(error))")
                        if error != nil {
                            session.invalidate(errorMessage: "Lock failed.")
                        } else {
                            session.alertMessage = "The tag is now read-only."
                            session.invalidate()
                        }
                    }
                    return
                }
                tag.writeNDEF(self.message) { error in
                    self.phone.note("writeNDEF: \(SeedFlows.code(error))")
                    if error != nil {
                        session.invalidate(errorMessage: "Write failed: \(SeedFlows.code(error)).")
                    } else {
                        session.alertMessage = "Update success!"
                        session.invalidate()
                    }
                }
            }
        }
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        phone.note("didInvalidateWithError: \(SeedFlows.code(error))")
    }
}

/// Flow (iii): a tag session that SELECTs an application and prints SW1 SW2.
final class CardReaderApp: NSObject, NFCTagReaderSessionDelegate, @unchecked Sendable {
    let phone: VirtualPhone
    var session: NFCTagReaderSession?
    init(phone: VirtualPhone) { self.phone = phone }

    func start() {
        session = NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: self, queue: nil)
        session?.alertMessage = "Hold your iPhone near the card."
        session?.begin()
    }

    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {
        phone.note("tagReaderSessionDidBecomeActive")
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {
        phone.note("didInvalidateWithError: \(SeedFlows.code(error))")
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        nonisolated(unsafe) let tag = tags[0]
        session.connect(to: tag) { _ in
            switch tag {
            case .iso7816(let card):
                self.phone.note("didDetect: ISO 7816 tag, initialSelectedAID \(card.initialSelectedAID)")
                let get = NFCISO7816APDU(
                    instructionClass: 0x80, instructionCode: 0xCA, p1Parameter: 0, p2Parameter: 0, data: Data(),
                    expectedResponseLength: 256)
                card.sendCommand(apdu: get) { data, sw1, sw2, error in
                    self.phone.note(
                        "GET DATA: \(data.map { String(format: "%02X", $0) }.joined()) SW1 SW2 = "
                            + String(format: "%02X %02X", sw1, sw2))
                    session.invalidate()
                }
            case .miFare(let mifare):
                self.phone.note("didDetect: MIFARE tag, family \(mifare.mifareFamily.rawValue) (DESFire = 4)")
                // DESFire GetVersion, ISO 7816-wrapped (CLA 90): the card answers 91 AF (more frames follow).
                let getVersion = NFCISO7816APDU(
                    instructionClass: 0x90, instructionCode: 0x60, p1Parameter: 0x00, p2Parameter: 0x00,
                    data: Data(), expectedResponseLength: 256)
                mifare.sendMiFareISO7816Command(getVersion) { data, sw1, sw2, error in
                    self.phone.note(
                        "GetVersion: \(data.count) bytes, SW1 SW2 = " + String(format: "%02X %02X", sw1, sw2)
                            + (error.map { " (\(SeedFlows.code($0)))" } ?? ""))
                    session.invalidate()
                }
            default:
                session.invalidate(errorMessage: "Unsupported tag.")
            }
        }
    }
}
