package import OpenNFCBytes
package import OpenNFCRF

/// The app↔field protocol, version 2 (docs/FIELD.md): one JSON object per WebSocket text message on `/app`.
///
/// The app sends `hello` first, then requests that each carry an `id` and get exactly one `result` with that id
/// (`poll`, `activate`, `exchange`, `deactivate`), and `sheet` notices (no answer). The field answers `welcome`
/// (or refuses), the results, and pushes `event`s: `field` (tags arrived, left or moved) and `cancel` (the person
/// tapped Cancel on the sheet).
///
/// Card emulation (the page's terminal panel, docs/FIELD.md "The terminal"): an app whose `CardSession` emulates
/// sends `card` notices (emulating or not, with its AID prefixes) and `cardEvent` notices (what its event stream
/// received); the field pushes `terminal` messages (the terminal's field comes or goes, an APDU to answer, the
/// terminal stopped waiting), and the app answers each APDU with one `answer` carrying the same `terminal` number.
package enum FieldProtocol {
    /// The protocol version this build speaks; a `hello` with another one is refused with close code 1008. Version 1
    /// had the reader messages only; version 2 added card emulation (`card`, `cardEvent`, `terminal`, `answer`) and
    /// the app's session events (`appEvent`), so a field of either version names the other's version when it refuses.
    package static let version = 2
    /// The WebSocket path of the app connection.
    package static let appPath = "/app"
    /// The port `remote:` uses when none is given.
    package static let defaultPort: UInt16 = 7071
    /// Largest message either side accepts (bytes of JSON text).
    package static let maxMessageBytes = 65_536
    /// Largest frame or answer carried (bytes).
    package static let maxFrameBytes = 4_096
    /// How long the app waits for the welcome and for each result before treating the field as gone.
    package static let requestTimeoutMilliseconds = 10_000
    /// Longest app name, sheet title and message accepted (characters).
    package static let maxTextLength = 1_024

    /// The sheet as the app's system shows it (mirrors OpenNFCSystem's SystemSheet without depending on it).
    package struct Sheet: Sendable, Hashable {
        package var presented: Bool
        package var title: String
        package var message: String
        /// `scanning`, `error`, or for a card session's sheet `emulating` and `success`.
        package var glyph: String
        /// The glyphs a sheet shows (OpenNFCSystem's `SystemSheet.Glyph`).
        package static let glyphs = ["scanning", "error", "emulating", "success"]

        package init(
            presented: Bool = false, title: String = "Ready to Scan", message: String = "", glyph: String = "scanning"
        ) {
            self.presented = presented
            self.title = title
            self.message = message
            self.glyph = glyph
        }

        package var json: JSONValue {
            .object([
                ("presented", .bool(presented)), ("title", .string(title)), ("message", .string(message)),
                ("glyph", .string(glyph)),
            ])
        }
    }

    /// What the app sends.
    package enum Request: Sendable, Hashable {
        case hello(version: Int, app: String, pid: Int)
        case poll(id: Int, RFPollRequest)
        case authenticate(id: Int, RFAuthentication)
        case activate(id: Int, handle: Int, isoDEP: Bool)
        case exchange(id: Int, [UInt8])
        case deactivate(id: Int)
        case sheet(Sheet)
        /// The app's card is emulated (`present`) or not; `aids` are its AID prefixes.
        case card(present: Bool, aids: [[UInt8]])
        /// An event of the app's card session (``CardEvent``), for the page.
        case cardEvent(CardEvent)
        /// The app's answer to the terminal's APDU number `terminal`; nil when the phone stayed mute.
        case answer(terminal: Int, response: [UInt8]?)
        /// What the app's reader session received (`didDetect …`, `didInvalidateWithError: 200 …`), for the
        /// transcript.
        case appEvent(String)

        package var json: JSONValue {
            switch self {
            case .appEvent(let text):
                return .object([("type", .string("appEvent")), ("text", .string(text))])
            case .card(let present, let aids):
                return .object([
                    ("type", .string("card")), ("present", .bool(present)),
                    ("aids", .array(aids.map { .string(Hex.encode($0)) })),
                ])
            case .cardEvent(let e):
                return .object([
                    ("type", .string("cardEvent")), ("event", .string(e.name)), ("detail", .string(e.detail)),
                ])
            case .answer(let n, let r):
                return .object([
                    ("type", .string("answer")), ("terminal", .int(n)),
                    ("response", r.map { .string(Hex.encode($0)) } ?? .null),
                ])
            case .hello(let v, let app, let pid):
                return .object([
                    ("type", .string("hello")), ("version", .int(v)), ("app", .string(app)), ("pid", .int(pid)),
                ])
            case .poll(let id, let t):
                return .object([("type", .string("poll")), ("id", .int(id)), ("request", RFWire.pollRequest(t))])
            case .authenticate(let id, let a):
                return .object([
                    ("type", .string("authenticate")), ("id", .int(id)), ("authentication", RFWire.authentication(a)),
                ])
            case .activate(let id, let h, let iso):
                return .object([
                    ("type", .string("activate")), ("id", .int(id)), ("handle", .int(h)), ("isoDEP", .bool(iso)),
                ])
            case .exchange(let id, let f):
                return .object([("type", .string("exchange")), ("id", .int(id)), ("frame", .string(Hex.encode(f)))])
            case .deactivate(let id):
                return .object([("type", .string("deactivate")), ("id", .int(id))])
            case .sheet(let s):
                var m = s.json.objectValue ?? []
                m.insert(("type", .string("sheet")), at: 0)
                return .object(m)
            }
        }

        /// Parses one message; the problem names the member that is wrong.
        package init(_ text: String) throws(RFWire.Problem) {
            let v = try FieldProtocol.object(text)
            let id = { () throws(RFWire.Problem) -> Int in try RFWire.int(v["id"], "id", 0...Int(Int32.max)) }
            switch v["type"]?.stringValue {
            case "hello":
                self = .hello(
                    version: try RFWire.int(v["version"], "version", 0...1_000_000),
                    app: try FieldProtocol.text(v["app"], "app"),
                    pid: try RFWire.int(v["pid"], "pid", 0...Int(Int32.max)))
            case "poll": self = .poll(id: try id(), try RFWire.pollRequest(v["request"], "request"))
            case "authenticate":
                self = .authenticate(id: try id(), try RFWire.authentication(v["authentication"], "authentication"))
            case "activate":
                guard let iso = v["isoDEP"]?.boolValue else { throw RFWire.Problem("isoDEP", "expected true or false") }
                self = .activate(
                    id: try id(), handle: try RFWire.int(v["handle"], "handle", 0...Int(Int32.max)), isoDEP: iso)
            case "exchange":
                self = .exchange(id: try id(), try RFWire.bytes(v["frame"], "frame", max: FieldProtocol.maxFrameBytes))
            case "deactivate": self = .deactivate(id: try id())
            case "sheet":
                guard let p = v["presented"]?.boolValue else {
                    throw RFWire.Problem("presented", "expected true or false")
                }
                let glyph = try FieldProtocol.text(v["glyph"], "glyph")
                guard Sheet.glyphs.contains(glyph) else {
                    throw RFWire.Problem(
                        "glyph", "expected \(Sheet.glyphs.map { "\"\($0)\"" }.joined(separator: ", "))")
                }
                self = .sheet(
                    Sheet(
                        presented: p, title: try FieldProtocol.text(v["title"], "title"),
                        message: try FieldProtocol.text(v["message"], "message"), glyph: glyph))
            case "card":
                guard let p = v["present"]?.boolValue else {
                    throw RFWire.Problem("present", "expected true or false")
                }
                guard let list = v["aids"]?.arrayValue, list.count <= 64 else {
                    throw RFWire.Problem("aids", "expected an array of at most 64 hex AIDs")
                }
                var aids: [[UInt8]] = []
                for (i, a) in list.enumerated() {
                    let b = try RFWire.bytes(a, "aids[\(i)]", max: 16)
                    guard !b.isEmpty else { throw RFWire.Problem("aids[\(i)]", "an empty AID") }
                    aids.append(b)
                }
                self = .card(present: p, aids: aids)
            case "cardEvent":
                let name = try FieldProtocol.text(v["event"], "event")
                guard CardEvent.names.contains(name) else {
                    throw RFWire.Problem("event", "expected one of \(CardEvent.names.joined(separator: ", "))")
                }
                self = .cardEvent(CardEvent(name: name, detail: try FieldProtocol.text(v["detail"], "detail")))
            case "answer":
                let n = try RFWire.int(v["terminal"], "terminal", 0...Int(Int32.max))
                if case .null? = v["response"] {
                    self = .answer(terminal: n, response: nil)
                } else {
                    self = .answer(
                        terminal: n,
                        response: try RFWire.bytes(v["response"], "response", max: FieldProtocol.maxFrameBytes))
                }
            case "appEvent": self = .appEvent(try FieldProtocol.text(v["text"], "text"))
            case let other?: throw RFWire.Problem("type", "unknown message type \"\(other)\"")
            case nil: throw RFWire.Problem("type", "missing")
            }
        }
    }

    /// An event of the app's card session as the page shows it: `name` is the `CardSession.Event` case
    /// (`sessionStarted`, `readerDetected`, `received`, `readerDeselected`, `sessionInvalidated`), `detail` the
    /// APDU's bytes or the reason.
    package struct CardEvent: Sendable, Hashable {
        package static let names = [
            "sessionStarted", "readerDetected", "received", "readerDeselected", "sessionInvalidated",
        ]
        package var name: String
        package var detail: String
        package init(name: String, detail: String = "") {
            self.name = name
            self.detail = detail
        }
    }

    /// What the terminal of the page does to the app's card.
    package enum Terminal: Sendable, Hashable {
        /// The terminal's field reaches the phone.
        case fieldOn
        /// The terminal's field goes away.
        case fieldOff
        /// A command APDU, numbered: the app answers with an `answer` carrying the number.
        case apdu(Int, [UInt8])
        /// The terminal stopped waiting for the answer to its last APDU.
        case gaveUp

        var json: JSONValue {
            switch self {
            case .fieldOn: .object([("type", .string("terminal")), ("action", .string("fieldOn"))])
            case .fieldOff: .object([("type", .string("terminal")), ("action", .string("fieldOff"))])
            case .gaveUp: .object([("type", .string("terminal")), ("action", .string("gaveUp"))])
            case .apdu(let n, let b):
                .object([
                    ("type", .string("terminal")), ("action", .string("apdu")), ("terminal", .int(n)),
                    ("apdu", .string(Hex.encode(b))),
                ])
            }
        }

        init(_ v: JSONValue) throws(RFWire.Problem) {
            switch v["action"]?.stringValue {
            case "fieldOn": self = .fieldOn
            case "fieldOff": self = .fieldOff
            case "gaveUp": self = .gaveUp
            case "apdu":
                self = .apdu(
                    try RFWire.int(v["terminal"], "terminal", 0...Int(Int32.max)),
                    try RFWire.bytes(v["apdu"], "apdu", max: FieldProtocol.maxFrameBytes))
            default: throw RFWire.Problem("action", "expected fieldOn, fieldOff, apdu or gaveUp")
            }
        }
    }

    /// The outcome of one request.
    package enum Outcome: Sendable, Hashable {
        case targets([RFTarget])
        case target(RFTarget)
        case response(RFResponse)
        case done
        case failed(RFError)
    }

    /// What the field pushes without being asked.
    package enum Event: String, Sendable, Hashable {
        /// Tags arrived, left or moved: poll again.
        case field
        /// The person tapped Cancel on the sheet.
        case cancel
    }

    /// What the field sends.
    package enum Reply: Sendable, Hashable {
        case welcome(version: Int, capabilities: RFCapabilities)
        case result(id: Int, Outcome)
        case event(Event)
        /// The page's terminal acts on the app's card.
        case terminal(Terminal)

        package var json: JSONValue {
            switch self {
            case .terminal(let t): return t.json
            case .welcome(let v, let c):
                return .object([
                    ("type", .string("welcome")), ("version", .int(v)), ("capabilities", RFWire.capabilities(c)),
                ])
            case .event(let e):
                return .object([("type", .string("event")), ("event", .string(e.rawValue))])
            case .result(let id, let o):
                var m: [(String, JSONValue)] = [("type", .string("result")), ("id", .int(id))]
                switch o {
                case .targets(let t): m.append(("targets", .array(t.map(RFWire.target))))
                case .target(let t): m.append(("target", RFWire.target(t)))
                case .response(let r): m.append(("response", RFWire.response(r)))
                case .done: break
                case .failed(let e): m.append(("error", RFWire.error(e)))
                }
                return .object(m)
            }
        }

        package init(_ text: String) throws(RFWire.Problem) {
            let v = try FieldProtocol.object(text)
            switch v["type"]?.stringValue {
            case "welcome":
                self = .welcome(
                    version: try RFWire.int(v["version"], "version", 0...1_000_000),
                    capabilities: try RFWire.capabilities(v["capabilities"], "capabilities"))
            case "event":
                guard let s = v["event"]?.stringValue, let e = Event(rawValue: s) else {
                    throw RFWire.Problem("event", "expected \"field\" or \"cancel\"")
                }
                self = .event(e)
            case "terminal":
                self = .terminal(try Terminal(v))
            case "result":
                let id = try RFWire.int(v["id"], "id", 0...Int(Int32.max))
                if v["error"] != nil {
                    self = .result(id: id, .failed(try RFWire.error(v["error"], "error")))
                } else if let a = v["targets"] {
                    guard let list = a.arrayValue, list.count <= 64 else {
                        throw RFWire.Problem("targets", "expected an array of at most 64 targets")
                    }
                    var out: [RFTarget] = []
                    for (i, t) in list.enumerated() { out.append(try RFWire.target(t, "targets[\(i)]")) }
                    self = .result(id: id, .targets(out))
                } else if v["target"] != nil {
                    self = .result(id: id, .target(try RFWire.target(v["target"], "target")))
                } else if v["response"] != nil {
                    self = .result(
                        id: id,
                        .response(try RFWire.response(v["response"], "response", maxFrame: FieldProtocol.maxFrameBytes))
                    )
                } else {
                    self = .result(id: id, .done)
                }
            case let other?: throw RFWire.Problem("type", "unknown message type \"\(other)\"")
            case nil: throw RFWire.Problem("type", "missing")
            }
        }
    }

    static func object(_ text: String) throws(RFWire.Problem) -> JSONValue {
        guard text.utf8.count <= maxMessageBytes else {
            throw RFWire.Problem("", "message of \(text.utf8.count) bytes (at most \(maxMessageBytes))")
        }
        let v: JSONValue
        do {
            v = try JSONValue(parsing: text, maxDepth: 8)
        } catch {
            throw RFWire.Problem("", "not JSON: \(error)")
        }
        guard v.objectValue != nil else { throw RFWire.Problem("", "expected a JSON object") }
        return v
    }

    static func text(_ v: JSONValue?, _ path: String) throws(RFWire.Problem) -> String {
        guard let s = v?.stringValue else { throw RFWire.Problem(path, "expected a string") }
        guard s.count <= maxTextLength else { throw RFWire.Problem(path, "longer than \(maxTextLength) characters") }
        return s
    }
}
