internal import Foundation
internal import OpenNFCBytes
package import OpenNFCHTTP
internal import OpenNFCNDEF
package import OpenNFCRF
internal import OpenNFCRemote
internal import OpenNFCSimulation

/// The virtual field served on loopback (`opennfc field serve`, docs/FIELD.md): a ``VirtualField`` with a shelf of
/// tag files, one app connected over the app protocol (``FieldProtocol``), the HTTP/JSON API and the web page.
///
/// | Feature | Behaviour |
/// |---|---|
/// | Apps | one at a time on `/app`; a second is refused with 409 and the name and pid of the one connected |
/// | Tags | the shelf holds tag files (`.json`, `.nfc`, `.ndef`) and new tags; any number may be on the phone at once, at positions (poll order) |
/// | The app's frames | answered by a ``VirtualFieldFrontend`` over the field, with the iPhone's capabilities |
/// | The sheet | shown as the app reports it; Cancel goes to the app as an event (Core NFC 200 there) |
/// | The terminal | the page plays a contactless terminal against the app's `CardSession`: brings or takes away its field, sends APDUs and shows the answers and the card session's events (FieldServer+Terminal.swift) |
/// | Saving | a tag an app changed is written back to its file (through the one writer, ``FileAccess``) on Save, when it is taken off the phone, and when the server stops (``saveAll()``); with `autosave` off only on Save |
/// | Identity | the shelf is keyed by the file's real path: a second `put` of a file (or of a link to it) is the same tag |
/// | Transcript | the last 2,000 lines: app, sheet, field and RF events, frames with the `--trace` comments and their air time (drawn on the page's time axis) |
/// | Security | loopback only; requests whose `Host` is not this server's loopback address, and browser requests from another origin, are refused (403): a web page elsewhere cannot drive the field |
package final class FieldServer: @unchecked Sendable {
    /// Names frames for people (the CLI passes its `--trace` decoder), given the frame mode of the activated target
    /// (ISO-DEP, NFC-A, FeliCa, ISO 15693), so each technology's frames get their own family's names.
    package struct Describer: Sendable {
        package var command: @Sendable (_ frame: [UInt8], _ mode: RFFrameMode) -> String?
        package var answer: @Sendable (_ response: RFResponse, _ command: [UInt8], _ mode: RFFrameMode) -> String?
        package init(
            command: @escaping @Sendable ([UInt8], RFFrameMode) -> String?,
            answer: @escaping @Sendable (RFResponse, [UInt8], RFFrameMode) -> String?
        ) {
            self.command = command
            self.answer = answer
        }
        package static let none = Describer(command: { _, _ in nil }, answer: { _, _, _ in nil })
    }

    struct ShelfTag {
        var id: Int
        var name: String
        var path: String
        /// `path` with every link resolved (`realpath(3)`): two paths of the same file name the same shelf tag.
        var realPath: String
        var tag: any VirtualTag
        /// The file's bytes as last read or saved (nil: never saved).
        var saved: [UInt8]?
        /// A new tag's bytes as made (nil for a tag from a file): it is written on its own only once an app changed it.
        var created: [UInt8]? = nil
        var handle: Int?
        var revision = 0
    }

    struct Line {
        var seq: Int
        var kind: String
        var text: String
        var comment: String?
        /// The frames the event put on the air, by the air-time model (docs/TIMING.md): the page's time axis.
        var air: [OpenNFCRF.AirFrame] = []
    }

    struct App {
        var name: String
        var pid: Int
        var socket: WebSocket
        var token: Int
    }

    package static let transcriptLimit = 2_000

    let lock = NSRecursiveLock()
    let clock = VirtualClock()
    let field: VirtualField
    let virtualFrontend: VirtualFieldFrontend
    let describer: Describer
    /// Where new tags are saved.
    let newTagDirectory: String
    /// Write a changed tag back when it leaves the phone and when the server stops (off: `field serve --no-save`).
    let autosave: Bool
    var shelf: [ShelfTag] = []
    var nextTagID = 1
    var sheet = FieldProtocol.Sheet()
    /// Whether the app is polling for tags: from its poll until it activates one, its session ends or it leaves (the
    /// page's phone shows "Ready to Scan" then, even for an app that shows no sheet).
    var polling = false
    var app: App?
    var nextAppToken = 1
    var lines: [Line] = []
    var nextLine = 1
    /// Counts every change a page or script can see; `GET /api/state?after=N` waits for it to pass N.
    var revision = 0 {
        didSet {
            changed.lock()
            published = revision
            changed.broadcast()
            changed.unlock()
        }
    }
    let changed = NSCondition()
    var published = 0
    /// Longest wait of a long-polling `GET /api/state?after=N` (milliseconds).
    package static let maxWaitMilliseconds = 30_000
    var activeMode = RFFrameMode.nfcA
    var lastCommand: [UInt8] = []
    /// The app's emulated card and the page's terminal (FieldServer+Terminal.swift).
    var card = CardState()
    /// Guards ``answers``: the app's answers to the terminal's APDUs, by number (nil inside: the phone was mute).
    let answered = NSCondition()
    var answers: [Int: [UInt8]?] = [:]
    /// Counts the card's departures (under ``answered``): an APDU in flight when the card leaves stops waiting.
    var cardEpoch = 0
    /// The activated target, which times the exchanges on the page's time axis.
    var activeTarget: RFTarget?
    private var http: HTTPServer!

    /// The address the server listens on.
    package var address: LoopbackAddress { http.address }

    /// Loads the tag files onto the shelf (each one of `onPhone` is also put on the phone) and binds the port.
    package init(
        port: UInt16, shelf files: [String], onPhone: [String] = [], describer: Describer = .none,
        newTagDirectory: String = FileManager.default.currentDirectoryPath, autosave: Bool = true
    ) throws(FieldServerError) {
        field = VirtualField(clock: clock)
        virtualFrontend = VirtualFieldFrontend(field: field, capabilities: .simulatedIPhone)
        self.describer = describer
        self.newTagDirectory = newTagDirectory
        self.autosave = autosave
        for path in files + onPhone where shelfIndex(ofFile: path) == nil {
            _ = try addFile(path)
        }
        for path in onPhone {
            guard let i = shelfIndex(ofFile: path) else { continue }
            place(i, at: nil)
        }
        field.addObserver { [weak self] _ in self?.fieldChanged() }
        let address: LoopbackAddress
        do {
            address = try LoopbackAddress(host: "127.0.0.1", port: port)
        } catch {
            throw FieldServerError(error.message)
        }
        do {
            http = try HTTPServer(address: address) { [weak self] request in
                guard let self else { return .response(.text(503, "the field is shutting down")) }
                return self.handle(request)
            }
        } catch {
            throw FieldServerError(error.message)
        }
    }

    /// Starts serving.
    package func start() {
        http.start()
        log("field", "serving on http://\(address)/ (apps: OPENCORENFC_DEVICE=remote:\(address))")
    }

    /// The names of the tags an app changed since they were last read or saved (what a stop would write).
    package var unsavedTags: [String] {
        lock.withLock { shelf.indices.filter { changedSinceSaved($0) }.map { shelf[$0].name } }
    }

    /// Writes every tag an app changed back to its file: the names saved, and the names that failed with why.
    package func saveAll() -> (saved: [String], failed: [(name: String, reason: String)]) {
        lock.withLock {
            var saved: [String] = []
            var failed: [(String, String)] = []
            for i in shelf.indices where changedSinceSaved(i) {
                do throws(FieldServerError) {
                    _ = try save(i)
                    saved.append(shelf[i].path)
                } catch {
                    failed.append((shelf[i].path, error.message))
                }
            }
            return (saved, failed)
        }
    }

    /// Stops serving and disconnects the app.
    package func stop() {
        let a = lock.withLock { app }
        a?.socket.close(WebSocketClose.goingAway, "the field is shutting down", abort: true)
        http.stop()
    }

    // MARK: the shelf

    /// Adds a tag file to the shelf and returns its index.
    func addFile(_ path: String) throws(FieldServerError) -> Int {
        guard let format = TagFile.Format(path: path) else {
            throw FieldServerError("tag file '\(path)': unknown extension; use .json, .nfc or .ndef")
        }
        let tag: any VirtualTag
        let bytes: [UInt8]
        do {
            tag = try TagFile.read(path: path)
            bytes = try TagFile.encode(tag, as: format)
        } catch {
            throw FieldServerError(error.file == nil ? "tag file '\(path)': \(error)" : "\(error)")
        }
        let name = URL(fileURLWithPath: path).lastPathComponent
        shelf.append(
            ShelfTag(id: nextTagID, name: name, path: path, realPath: Self.realPath(path), tag: tag, saved: bytes))
        nextTagID += 1
        revision += 1
        log("field", "shelf: \(name) (\(tag.chip), UID \(Hex.encode(tag.activation.uid)))")
        return shelf.count - 1
    }

    /// `path` as `realpath(3)` gives it (links resolved, absolute), or `path` made absolute when it does not exist.
    static func realPath(_ path: String) -> String {
        guard let resolved = realpath(path, nil) else {
            return URL(fileURLWithPath: path).standardizedFileURL.path
        }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The shelf tag that holds the file `path` (by its real path), if any.
    func shelfIndex(ofFile path: String) -> Int? {
        let real = Self.realPath(path)
        return shelf.firstIndex { $0.realPath == real }
    }

    /// True when the tag's bytes differ from its file's (a new tag: from how it was made).
    func changedSinceSaved(_ i: Int) -> Bool {
        guard let now = encoded(shelf[i]) else { return false }
        return now != (shelf[i].saved ?? shelf[i].created)
    }

    /// The shelf index a reference names: an id, a name, a path on the shelf, or a tag file to add.
    func resolve(_ reference: String) throws(FieldServerError) -> Int {
        if let id = Int(reference), let i = shelf.firstIndex(where: { $0.id == id }) { return i }
        if let i = shelf.firstIndex(where: { $0.name == reference || $0.path == reference }) { return i }
        if let i = shelfIndex(ofFile: reference) { return i }
        guard FileManager.default.fileExists(atPath: reference) else {
            let known = shelf.map { "\($0.id) \($0.name)" }.joined(separator: ", ")
            throw FieldServerError(
                "no tag \"\(reference)\" on the shelf (\(known.isEmpty ? "the shelf is empty" : known)) and no such file",
                status: 404)
        }
        return try addFile(reference)
    }

    func place(_ i: Int, at position: Int?) {
        guard shelf[i].handle == nil else {
            if let position { field.move(shelf[i].handle!, to: position) }
            return
        }
        let p = position ?? ((field.tags.map(\.position).max() ?? -1) + 1)
        shelf[i].handle = field.place(shelf[i].tag, at: p)
        shelf[i].revision += 1
        log("user", "puts \(shelf[i].name) on the phone (position \(p))")
    }

    func takeAway(_ i: Int) {
        guard let h = shelf[i].handle else { return }
        shelf[i].handle = nil
        shelf[i].revision += 1
        log("user", "takes \(shelf[i].name) away")
        field.remove(h)
        guard autosave, changedSinceSaved(i) else { return }
        do throws(FieldServerError) {
            _ = try save(i)
        } catch {
            log("field", "could not save \(shelf[i].name): \(error.message); it stays unsaved")
        }
    }

    private func fieldChanged() {
        lock.withLock {
            revision += 1
            // A tag the field removed on its own (a fault) is back on the shelf.
            let present = Set(field.tags.map(\.handle))
            for i in shelf.indices where shelf[i].handle.map({ !present.contains($0) }) ?? false {
                shelf[i].handle = nil
            }
            if let a = app { try? a.socket.send(text: FieldProtocol.Reply.event(.field).json.compact) }
        }
    }

    /// Blocks until the revision passes `after` or `milliseconds` elapse (a long poll; no lock held meanwhile).
    func waitForRevision(after: Int, milliseconds: Int) {
        let deadline = Date(timeIntervalSinceNow: Double(min(milliseconds, Self.maxWaitMilliseconds)) / 1000)
        changed.lock()
        while published <= after {
            if !changed.wait(until: deadline) { break }
        }
        changed.unlock()
    }

    // MARK: the transcript

    func log(_ kind: String, _ text: String, _ comment: String? = nil, air: [OpenNFCRF.AirFrame] = []) {
        lock.withLock {
            lines.append(Line(seq: nextLine, kind: kind, text: text, comment: comment, air: air))
            nextLine += 1
            if lines.count > Self.transcriptLimit { lines.removeFirst(lines.count - Self.transcriptLimit) }
        }
    }
}

/// A field that cannot start or a request it refuses, with what to do.
package struct FieldServerError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    /// The HTTP status the API answers with.
    package var status: Int
    package init(_ message: String, status: Int = 400) {
        self.message = message
        self.status = status
    }
    package var description: String { message }
}
