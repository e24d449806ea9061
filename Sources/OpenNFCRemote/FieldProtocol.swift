package import OpenNFCBytes
package import OpenNFCRF

/// The app↔field protocol, version 1 (docs/FIELD.md): one JSON object per WebSocket text message on `/app`.
///
/// The app sends `hello` first, then requests that each carry an `id` and get exactly one `result` with that id
/// (`poll`, `activate`, `exchange`, `deactivate`), and `sheet` notices (no answer). The field answers `welcome`
/// (or refuses), the results, and pushes `event`s: `field` (tags arrived, left or moved) and `cancel` (the person
/// tapped Cancel on the sheet).
package enum FieldProtocol {
    /// The protocol version this build speaks; a `hello` with another one is refused with close code 1008.
    package static let version = 1
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
        /// `scanning` or `error`.
        package var glyph: String

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

        package var json: JSONValue {
            switch self {
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
                guard glyph == "scanning" || glyph == "error" else {
                    throw RFWire.Problem("glyph", "expected \"scanning\" or \"error\"")
                }
                self = .sheet(
                    Sheet(
                        presented: p, title: try FieldProtocol.text(v["title"], "title"),
                        message: try FieldProtocol.text(v["message"], "message"), glyph: glyph))
            case let other?: throw RFWire.Problem("type", "unknown message type \"\(other)\"")
            case nil: throw RFWire.Problem("type", "missing")
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

        package var json: JSONValue {
            switch self {
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
