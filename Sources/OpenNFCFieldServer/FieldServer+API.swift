internal import Foundation
internal import OpenNFCBytes
internal import OpenNFCHTTP
internal import OpenNFCNDEF
internal import OpenNFCRF
internal import OpenNFCRemote
internal import OpenNFCSimulation

/// The HTTP/JSON API (docs/FIELD.md "The HTTP API"): everything the page does, for scripts and the CLI.
extension FieldServer {
    static let routes: [String: String] = [
        "/": "GET", "/app": "GET", "/api/state": "GET", "/api/transcript": "GET", "/api/tag": "GET",
        "/api/put": "POST", "/api/remove": "POST", "/api/move": "POST", "/api/cancel": "POST", "/api/save": "POST",
        "/api/new": "POST", "/api/shelf": "POST", "/api/terminal": "POST",
    ]

    func handle(_ r: HTTPRequest) -> HTTPReply {
        let port = address.port
        let hosts = ["127.0.0.1:\(port)", "localhost:\(port)", address.description]
        guard let host = r.headers["Host"], hosts.contains(host.lowercased()) else {
            return .response(
                Self.error(403, "requests must be addressed to \(address) (Host \"\(r.headers["Host"] ?? "")\")"))
        }
        if let origin = r.headers["Origin"], r.method != "GET" || r.path == FieldProtocol.appPath {
            guard hosts.map({ "http://\($0)" }).contains(origin.lowercased()) else {
                return .response(
                    Self.error(403, "requests from the page at \(origin) are refused; use http://\(address)/"))
            }
        }
        guard let method = Self.routes[r.path] else { return .response(Self.error(404, "no such path \(r.path)")) }
        guard method == r.method else {
            var e = Self.error(405, "\(r.path) takes \(method), not \(r.method)")
            e.headers.add("Allow", method)
            return .response(e)
        }
        switch r.path {
        case "/":
            return .response(
                HTTPResponse(status: 200, contentType: "text/html; charset=utf-8", body: Array(FieldPage.html.utf8)))
        case FieldProtocol.appPath:
            if let refusal = appRefusal() { return .response(HTTPResponse.text(409, refusal)) }
            return .webSocket(Self.appLimits) { [weak self] ws in self?.serveApp(ws) }
        default:
            break
        }
        if r.path == "/api/terminal" {
            // Waits for the app's answer without holding the field's lock.
            do throws(FieldServerError) {
                return .response(Self.json(200, try terminal(try Self.body(r))))
            } catch {
                return .response(Self.error(error.status, error.message))
            }
        }
        if r.path == "/api/state", let after = r.parameter("after").flatMap(Int.init) {
            waitForRevision(after: after, milliseconds: r.parameter("wait").flatMap(Int.init) ?? 10_000)
        }
        do throws(FieldServerError) {
            let body = try Self.body(r)
            lock.lock()
            defer { lock.unlock() }
            let result = try api(r.path, r, body)
            return .response(Self.json(200, result))
        } catch {
            return .response(Self.error(error.status, error.message))
        }
    }

    static func json(_ status: Int, _ v: JSONValue) -> HTTPResponse {
        var r = HTTPResponse(status: status, contentType: "application/json", body: Array((v.pretty + "\n").utf8))
        r.headers.add("Cache-Control", "no-store")
        return r
    }

    static func error(_ status: Int, _ message: String) -> HTTPResponse {
        json(status, .object([("error", .string(message))]))
    }

    static func body(_ r: HTTPRequest) throws(FieldServerError) -> JSONValue {
        guard r.method == "POST" else { return .object([]) }
        if r.body.isEmpty { return .object([]) }
        guard let text = String(validating: r.body, as: UTF8.self) else {
            throw FieldServerError("the body is not UTF-8 text")
        }
        do {
            let v = try JSONValue(parsing: text, maxDepth: 8)
            guard v.objectValue != nil else { throw FieldServerError("the body must be a JSON object") }
            return v
        } catch let e as JSONValue.ParseError {
            throw FieldServerError("the body is not JSON: \(e)")
        } catch {
            throw error as? FieldServerError ?? FieldServerError("\(error)")
        }
    }

    func string(_ b: JSONValue, _ key: String) throws(FieldServerError) -> String {
        guard let s = b[key]?.stringValue, !s.isEmpty else {
            throw FieldServerError("the body needs \"\(key)\" (a string)")
        }
        return s
    }

    private func reference(_ b: JSONValue, _ key: String = "tag") throws(FieldServerError) -> String {
        if let i = b[key]?.intValue { return String(i) }
        return try string(b, key)
    }

    private func position(_ b: JSONValue) throws(FieldServerError) -> Int? {
        guard let v = b["position"] else { return nil }
        guard let p = v.intValue, (0...99).contains(p) else {
            throw FieldServerError("\"position\" must be an integer 0…99")
        }
        return p
    }

    /// One API call, under the lock.
    private func api(_ path: String, _ r: HTTPRequest, _ b: JSONValue) throws(FieldServerError) -> JSONValue {
        switch path {
        case "/api/state":
            return state()
        case "/api/transcript":
            let since = Int(r.parameter("since") ?? "0") ?? 0
            let out = lines.filter { $0.seq > since }
            return .object([
                (
                    "lines",
                    .array(
                        out.map { l in
                            var m: [(String, JSONValue)] = [
                                ("seq", .int(l.seq)), ("kind", .string(l.kind)), ("text", .string(l.text)),
                            ]
                            if let c = l.comment { m.append(("comment", .string(c))) }
                            if !l.air.isEmpty { m.append(("air", .array(l.air.map(RFTranscript.airFrame)))) }
                            return .object(m)
                        })
                ),
                ("next", .int(nextLine - 1)),
            ])
        case "/api/tag":
            guard let ref = r.parameter("tag") else { throw FieldServerError("give ?tag=<id or name>") }
            return memory(try resolveExisting(ref))
        case "/api/shelf":
            let i = try addFile(try string(b, "file"))
            return .object([("ok", .bool(true)), ("tag", tagSummary(shelf[i]))])
        case "/api/put":
            let i = try resolve(try reference(b))
            place(i, at: try position(b))
            return .object([("ok", .bool(true)), ("tag", tagSummary(shelf[i]))])
        case "/api/move":
            let i = try resolveExisting(try reference(b))
            guard let p = try position(b) else { throw FieldServerError("the body needs \"position\"") }
            guard let h = shelf[i].handle else {
                throw FieldServerError("\(shelf[i].name) is not on the phone; put it there first", status: 409)
            }
            field.move(h, to: p)
            log("user", "moves \(shelf[i].name) to position \(p)")
            return .object([("ok", .bool(true)), ("tag", tagSummary(shelf[i]))])
        case "/api/remove":
            if b["all"]?.boolValue == true {
                for i in shelf.indices { takeAway(i) }
                return .object([("ok", .bool(true))])
            }
            let i = try resolveExisting(try reference(b))
            guard shelf[i].handle != nil else {
                throw FieldServerError("\(shelf[i].name) is not on the phone", status: 409)
            }
            takeAway(i)
            return .object([("ok", .bool(true)), ("tag", tagSummary(shelf[i]))])
        case "/api/cancel":
            guard let a = app else { throw FieldServerError("no app is connected", status: 409) }
            guard sheet.presented else { throw FieldServerError("\(a.name) shows no sheet to cancel", status: 409) }
            log("user", "taps Cancel")
            try? a.socket.send(text: FieldProtocol.Reply.event(.cancel).json.compact)
            return .object([("ok", .bool(true))])
        case "/api/save":
            let i = try resolveExisting(try reference(b))
            return try save(i)
        case "/api/new":
            return try newTag(b)
        default:
            throw FieldServerError("no such path \(path)", status: 404)
        }
    }

    func resolveExisting(_ ref: String) throws(FieldServerError) -> Int {
        if let id = Int(ref), let i = shelf.firstIndex(where: { $0.id == id }) { return i }
        if let i = shelf.firstIndex(where: { $0.name == ref || $0.path == ref }) { return i }
        if FileManager.default.fileExists(atPath: ref), let i = shelfIndex(ofFile: ref) { return i }
        let known = shelf.map { "\($0.id) \($0.name)" }.joined(separator: ", ")
        throw FieldServerError(
            "no tag \"\(ref)\" on the shelf (\(known.isEmpty ? "the shelf is empty" : known))", status: 404)
    }

    func encoded(_ t: ShelfTag) -> [UInt8]? {
        guard let format = TagFile.Format(path: t.path) else { return nil }
        return try? TagFile.encode(t.tag, as: format)
    }

    func tagSummary(_ t: ShelfTag) -> JSONValue {
        let position = t.handle.flatMap { h in field.tags.first { $0.handle == h }?.position }
        var m: [(String, JSONValue)] = [
            ("id", .int(t.id)), ("name", .string(t.name)), ("file", .string(t.path)), ("chip", .string(t.tag.chip)),
            ("uid", .string(Hex.encode(t.tag.activation.uid))), ("onPhone", .bool(t.handle != nil)),
            ("position", position.map { .int($0) } ?? .null), ("revision", .int(t.revision)),
            ("unsaved", .bool(t.saved == nil || encoded(t) != t.saved)),
            ("changed", .bool((encoded(t) ?? []) != (t.saved ?? t.created ?? []))),
        ]
        if let h = t.handle { m.append(("handle", .int(h))) }
        return .object(m)
    }

    func state() -> JSONValue {
        .object([
            ("version", .int(FieldProtocol.version)),
            ("address", .string(address.description)),
            ("revision", .int(revision)),
            ("app", app.map { .object([("name", .string($0.name)), ("pid", .int($0.pid))]) } ?? .null),
            ("sheet", sheet.json),
            ("polling", .bool(app != nil && polling)),
            ("tags", .array(shelf.map(tagSummary))),
            ("unsaved", .array(shelf.indices.filter { changedSinceSaved($0) }.map { .string(shelf[$0].name) })),
            ("chips", .array(TagFile.chips.map { .string($0.name) })),
            ("transcript", .int(nextLine - 1)),
            ("card", cardSummary()),
        ])
    }

    /// The memory view of a tag: the report of `opennfc tag show` (memory map, CC, TLVs, lock bits) and the message.
    func memory(_ i: Int) -> JSONValue {
        let t = shelf[i]
        let chip = TagFile.chip(for: t.tag)
        let report = chip?.report?(t.tag)
        var ndef: JSONValue = .null
        if let message = TagFile.ndefMessage(of: t.tag) {
            var m: [(String, JSONValue)] = [("bytes", .string(Hex.encode(message)))]
            do {
                let decoded = try NDEFMessage(decoding: message, options: .lenient)
                m.append(("records", .array(decoded.listing().map { .string($0) })))
            } catch {
                m.append(("error", .string("\(error)")))
            }
            ndef = .object(m)
        }
        return .object([
            ("tag", tagSummary(t)),
            ("report", .array((report?.lines ?? []).map { .string($0) })),
            ("ndefAccess", .string(report?.ndefAccess ?? "unknown")),
            ("ndef", ndef),
        ])
    }

    func save(_ i: Int) throws(FieldServerError) -> JSONValue {
        let t = shelf[i]
        guard let format = TagFile.Format(path: t.path) else { throw FieldServerError("\(t.path): unknown extension") }
        let bytes: [UInt8]
        do {
            bytes = try TagFile.encode(t.tag, as: format)
            try TagFile.writeAtomically(bytes, to: t.path)
        } catch {
            throw FieldServerError(error.file == nil ? "\(t.path): \(error)" : "\(error)", status: 500)
        }
        shelf[i].saved = bytes
        shelf[i].revision += 1
        revision += 1
        log("field", "saved \(t.name) to \(t.path)")
        return .object([("ok", .bool(true)), ("tag", tagSummary(shelf[i]))])
    }

    /// A factory-fresh chip, as `opennfc tag new` makes it, onto the shelf (saved to `<name>.json` on Save).
    func newTag(_ b: JSONValue) throws(FieldServerError) -> JSONValue {
        let chipName = try string(b, "chip")
        guard let chip = TagFile.chip(named: chipName) else {
            throw FieldServerError(
                "unknown chip \"\(chipName)\" (known: \(TagFile.chips.map(\.name).joined(separator: ", ")))")
        }
        let uid: [UInt8]
        if let text = b["uid"]?.stringValue, !text.isEmpty {
            do {
                uid = try Hex.decode(text)
            } catch {
                throw FieldServerError("uid: \(error)")
            }
            if let problem = chip.newUIDProblem(uid) { throw FieldServerError("uid: \(problem)") }
        } else {
            uid = chip.randomUID()
        }
        var message: [UInt8]? = nil
        do {
            if let text = b["text"]?.stringValue, !text.isEmpty {
                message = NDEFMessage(records: [try NDEFTextRecord(text: text).record()]).encoded()
            } else if let uri = b["uri"]?.stringValue, !uri.isEmpty {
                message = NDEFMessage(records: [try NDEFURIRecord(uri: uri).record()]).encoded()
            }
        } catch {
            throw FieldServerError("cannot encode the record: \(error)")
        }
        let tag: any VirtualTag
        do {
            tag = try chip.factory(uid, message)
        } catch {
            throw FieldServerError("\(error)")
        }
        var name = b["name"]?.stringValue ?? "\(chip.name)-\(Hex.encode(uid))"
        if !name.hasSuffix(".json") { name += ".json" }
        guard !name.contains("/"), !name.hasPrefix(".") else {
            throw FieldServerError("name: a file name without \"/\" that does not start with a dot")
        }
        guard !shelf.contains(where: { $0.name == name }) else {
            throw FieldServerError("a tag named \(name) is already on the shelf", status: 409)
        }
        let path = URL(fileURLWithPath: newTagDirectory).appendingPathComponent(name).path
        var made = ShelfTag(id: nextTagID, name: name, path: path, realPath: path, tag: tag, saved: nil)
        made.created = encoded(made)
        shelf.append(made)
        nextTagID += 1
        revision += 1
        log("user", "makes a new \(chip.name) (UID \(Hex.encode(uid))) as \(name)")
        if b["put"]?.boolValue == true { place(shelf.count - 1, at: nil) }
        return .object([("ok", .bool(true)), ("tag", tagSummary(shelf[shelf.count - 1]))])
    }
}
