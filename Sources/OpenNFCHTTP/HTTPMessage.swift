/// A request the server refuses, with the status it answers and a reason a person can act on.
package struct HTTPError: Error, Hashable, Sendable, CustomStringConvertible {
    package var status: Int
    package var reason: String

    package init(_ status: Int, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    package var description: String { "\(status) \(HTTPResponse.reasonPhrase(status)): \(reason)" }
}

/// Header fields in the order received; names compare case-insensitively (RFC 9110 §5.1).
package struct HTTPHeaders: Sendable, Hashable, Sequence {
    package private(set) var fields: [(name: String, value: String)] = []

    package init(_ fields: [(String, String)] = []) {
        for (n, v) in fields { add(n, v) }
    }

    package mutating func add(_ name: String, _ value: String) { fields.append((name, value)) }

    /// Replaces every field of this name with one.
    package mutating func set(_ name: String, _ value: String) {
        fields.removeAll { $0.name.lowercased() == name.lowercased() }
        fields.append((name, value))
    }

    /// Every value of the fields with this name.
    package func values(_ name: String) -> [String] {
        let n = name.lowercased()
        return fields.filter { $0.name.lowercased() == n }.map(\.value)
    }

    /// The value of the only field with this name (nil when absent).
    package subscript(name: String) -> String? { values(name).first }

    /// Whether a comma-separated field holds `token` (case-insensitive), as `Connection: keep-alive, Upgrade`.
    package func contains(_ name: String, token: String) -> Bool {
        values(name).contains { v in
            v.split(separator: ",").contains { $0.trimmingWhitespace().lowercased() == token.lowercased() }
        }
    }

    package func makeIterator() -> IndexingIterator<[(name: String, value: String)]> { fields.makeIterator() }

    package static func == (a: Self, b: Self) -> Bool {
        a.fields.count == b.fields.count
            && zip(a.fields, b.fields).allSatisfy { $0.name == $1.name && $0.value == $1.value }
    }

    package func hash(into h: inout Hasher) {
        for f in fields {
            h.combine(f.name)
            h.combine(f.value)
        }
    }
}

/// A parsed HTTP/1.1 request (RFC 9112).
package struct HTTPRequest: Sendable, Hashable {
    package var method: String
    /// The request target as sent (origin form: `/path?query`).
    package var target: String
    /// The path, percent-decoded.
    package var path: String
    /// Query parameters in order, percent-decoded (`+` is a space, as HTML forms send them).
    package var query: [(String, String)]
    /// `HTTP/1.1` or `HTTP/1.0`.
    package var version: String
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(
        method: String, target: String, version: String = "HTTP/1.1", headers: HTTPHeaders = HTTPHeaders(),
        body: [UInt8] = []
    ) throws(HTTPError) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        let (p, q) = try HTTPRequest.splitTarget(target)
        self.path = p
        self.query = q
    }

    /// The first query parameter with this name.
    package func parameter(_ name: String) -> String? { query.first { $0.0 == name }?.1 }

    /// Whether the connection stays open after the response (RFC 9112 §9.3).
    package var keepsAlive: Bool {
        if headers.contains("Connection", token: "close") { return false }
        if version == "HTTP/1.0" { return headers.contains("Connection", token: "keep-alive") }
        return true
    }

    package static func == (a: Self, b: Self) -> Bool {
        a.method == b.method && a.target == b.target && a.version == b.version && a.headers == b.headers
            && a.body == b.body
    }

    package func hash(into h: inout Hasher) {
        h.combine(method)
        h.combine(target)
        h.combine(body)
    }

    static func splitTarget(_ target: String) throws(HTTPError) -> (String, [(String, String)]) {
        guard target.hasPrefix("/") else {
            throw HTTPError(
                400, "the request target must be a path starting with \"/\" (origin form), not \"\(target)\"")
        }
        let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let path = percentDecode(parts[0], plusIsSpace: false) else {
            throw HTTPError(400, "bad percent-encoding in the path \"\(parts[0])\"")
        }
        var query: [(String, String)] = []
        if parts.count == 2 {
            for pair in parts[1].split(separator: "&") where !pair.isEmpty {
                let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let k = percentDecode(kv[0], plusIsSpace: true),
                    let v = percentDecode(kv.count == 2 ? kv[1] : "", plusIsSpace: true)
                else { throw HTTPError(400, "bad percent-encoding in the query parameter \"\(pair)\"") }
                query.append((k, v))
            }
        }
        return (path, query)
    }

    /// RFC 3986 §2.1 percent-decoding; nil for a malformed escape or bytes that are not UTF-8.
    package static func percentDecode(_ s: Substring, plusIsSpace: Bool) -> String? {
        var out: [UInt8] = []
        var bytes = Array(s.utf8)[...]
        while let b = bytes.popFirst() {
            if b == UInt8(ascii: "%") {
                guard bytes.count >= 2, let h = hexValue(bytes.removeFirst()), let l = hexValue(bytes.removeFirst())
                else { return nil }
                out.append(h << 4 | l)
            } else if b == UInt8(ascii: "+") && plusIsSpace {
                out.append(0x20)
            } else {
                out.append(b)
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// A response to send, or one the client received.
package struct HTTPResponse: Sendable, Hashable {
    package var status: Int
    package var headers: HTTPHeaders
    package var body: [UInt8]

    package init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A response with a body of this media type.
    package init(status: Int, contentType: String, body: [UInt8]) {
        self.init(status: status, headers: HTTPHeaders([("Content-Type", contentType)]), body: body)
    }

    /// A plain-text response (errors say what was wrong in one line).
    package static func text(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array((text + "\n").utf8))
    }

    /// The bytes on the wire: status line, the headers, `Content-Length` (unless 1xx/204/304), CRLF, body.
    package func serialized(closing: Bool = false) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(Self.reasonPhrase(status))\r\n"
        for f in headers.fields where f.name.lowercased() != "content-length" {
            head += "\(f.name): \(f.value)\r\n"
        }
        let bodyless = (100..<200).contains(status) || status == 204 || status == 304
        if !bodyless { head += "Content-Length: \(body.count)\r\n" }
        if closing && headers["Connection"] == nil { head += "Connection: close\r\n" }
        head += "\r\n"
        return Array(head.utf8) + (bodyless ? [] : body)
    }

    /// The reason phrases of RFC 9110 §15 for the statuses this module sends.
    package static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 101: return "Switching Protocols"
        case 200: return "OK"
        case 201: return "Created"
        case 204: return "No Content"
        case 400: return "Bad Request"
        case 403: return "Forbidden"
        case 404: return "Not Found"
        case 405: return "Method Not Allowed"
        case 408: return "Request Timeout"
        case 409: return "Conflict"
        case 411: return "Length Required"
        case 413: return "Content Too Large"
        case 414: return "URI Too Long"
        case 415: return "Unsupported Media Type"
        case 422: return "Unprocessable Content"
        case 426: return "Upgrade Required"
        case 431: return "Request Header Fields Too Large"
        case 500: return "Internal Server Error"
        case 501: return "Not Implemented"
        case 503: return "Service Unavailable"
        case 505: return "HTTP Version Not Supported"
        default: return "Status"
        }
    }
}

/// The strict parser of request and response heads (RFC 9112 §2–§6), with bounded sizes.
package enum HTTPParser {
    /// RFC 9110 §5.6.2 `tchar`.
    static func isTokenChar(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default: return Array("!#$%&'*+-.^_`|~".utf8).contains(c)
        }
    }

    /// Splits a head (without or with its final empty line) into lines; every line must end in CRLF, and a bare CR
    /// or LF anywhere is an error (RFC 9112 §2.2: we do not accept the lenient forms).
    static func lines(_ head: [UInt8]) throws(HTTPError) -> [[UInt8]] {
        var lines: [[UInt8]] = []
        var current: [UInt8] = []
        var i = 0
        while i < head.count {
            let c = head[i]
            if c == 0x0D {
                guard i + 1 < head.count, head[i + 1] == 0x0A else {
                    throw HTTPError(400, "bare CR at byte \(i) of the header section (lines end in CRLF)")
                }
                lines.append(current)
                current = []
                i += 2
                continue
            }
            if c == 0x0A { throw HTTPError(400, "bare LF at byte \(i) of the header section (lines end in CRLF)") }
            current.append(c)
            i += 1
        }
        if !current.isEmpty { throw HTTPError(400, "the header section does not end in CRLF") }
        while lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// Header field lines (RFC 9112 §5): `name: OWS value OWS`; no space before the colon, no obsolete line folding,
    /// no control characters in values. `firstLine` is the 1-based line number of `lines[0]`, for messages.
    static func headers(_ lines: ArraySlice<[UInt8]>, maxFields: Int) throws(HTTPError) -> HTTPHeaders {
        guard lines.count <= maxFields else {
            throw HTTPError(431, "\(lines.count) header fields; at most \(maxFields) are accepted")
        }
        var h = HTTPHeaders()
        for (n, line) in zip(2..., lines) {
            guard let first = line.first else { throw HTTPError(400, "empty header line \(n)") }
            if first == 0x20 || first == 0x09 {
                throw HTTPError(400, "header line \(n) starts with whitespace (obsolete line folding is refused)")
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
                throw HTTPError(400, "header line \(n) has no colon")
            }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenChar) else {
                throw HTTPError(
                    400, "header line \(n): the field name must be a token with no whitespace before the colon")
            }
            var value = line[(colon + 1)...]
            while let f = value.first, f == 0x20 || f == 0x09 { value.removeFirst() }
            while let l = value.last, l == 0x20 || l == 0x09 { value.removeLast() }
            if let bad = value.firstIndex(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                throw HTTPError(400, "header line \(n): control character at byte \(bad) of the field value")
            }
            guard let v = String(validating: value, as: UTF8.self), let k = String(validating: name, as: UTF8.self)
            else { throw HTTPError(400, "header line \(n) is not UTF-8") }
            h.add(k, v)
        }
        return h
    }

    /// Parses a request head (request line and header fields, RFC 9112 §3 and §5).
    package static func requestHead(_ head: [UInt8], maxTarget: Int = 8_192, maxFields: Int = 100) throws(HTTPError)
        -> HTTPRequest
    {
        let lines = try lines(head)
        guard let requestLine = lines.first else { throw HTTPError(400, "empty request") }
        let parts = requestLine.split(separator: 0x20, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw HTTPError(400, "the request line must be \"METHOD target HTTP/1.1\" with single spaces")
        }
        guard parts[0].allSatisfy(isTokenChar) else { throw HTTPError(400, "the method is not a token") }
        guard parts[1].count <= maxTarget else {
            throw HTTPError(414, "the request target has \(parts[1].count) bytes; at most \(maxTarget) are accepted")
        }
        guard parts[1].allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else {
            throw HTTPError(400, "the request target holds a space or a control character")
        }
        let version = String(decoding: parts[2], as: UTF8.self)
        guard version.hasPrefix("HTTP/"), version.count == 8 else {
            throw HTTPError(400, "\"\(version)\" is not an HTTP version")
        }
        guard version == "HTTP/1.1" || version == "HTTP/1.0" else {
            throw HTTPError(505, "\(version) is not supported; use HTTP/1.1")
        }
        let headers = try headers(lines.dropFirst(), maxFields: maxFields)
        let hosts = headers.values("Host")
        if version == "HTTP/1.1" && hosts.count != 1 {
            // RFC 9112 §3.2: a request without exactly one Host field is answered with 400.
            throw HTTPError(400, hosts.isEmpty ? "no Host header" : "\(hosts.count) Host headers; send one")
        }
        return try HTTPRequest(
            method: String(decoding: parts[0], as: UTF8.self), target: String(decoding: parts[1], as: UTF8.self),
            version: version, headers: headers)
    }

    /// The body length a message declares (RFC 9112 §6): `Content-Length` digits only, one value; a
    /// `Transfer-Encoding` is refused (501), and so is one together with `Content-Length` (400, §6.1).
    package static func contentLength(_ headers: HTTPHeaders) throws(HTTPError) -> Int {
        let te = headers.values("Transfer-Encoding")
        let cl = headers.values("Content-Length")
        if !te.isEmpty {
            if !cl.isEmpty { throw HTTPError(400, "both Transfer-Encoding and Content-Length are present") }
            throw HTTPError(501, "Transfer-Encoding is not supported; send the body with Content-Length")
        }
        let values = Set(cl.flatMap { $0.split(separator: ",").map { $0.trimmingWhitespace() } })
        guard values.count <= 1 else { throw HTTPError(400, "Content-Length values differ: \(cl)") }
        guard let v = values.first else { return 0 }
        guard !v.isEmpty, v.count <= 15, v.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(v) else {
            throw HTTPError(400, "Content-Length \"\(v)\" is not a decimal number")
        }
        return n
    }

    /// Parses a response head (status line and header fields, RFC 9112 §4).
    package static func responseHead(_ head: [UInt8]) throws(HTTPError) -> (status: Int, headers: HTTPHeaders) {
        let lines = try lines(head)
        guard let statusLine = lines.first else { throw HTTPError(400, "empty response") }
        let parts = statusLine.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        // RFC 9112 §4: status-code = 3DIGIT (Int() alone would take "+12" or "-99"); RFC 9110 §15: 100 to 599.
        guard parts.count >= 2, String(decoding: parts[0], as: UTF8.self).hasPrefix("HTTP/1."),
            parts[1].count == 3, parts[1].allSatisfy({ (0x30...0x39).contains($0) }),
            let status = Int(String(decoding: parts[1], as: UTF8.self)), (100...599).contains(status)
        else { throw HTTPError(400, "malformed status line") }
        do {
            return (status, try headers(lines.dropFirst(), maxFields: 100))
        } catch  where error.status == 431 {
            // 431 names a request's fields; a response with too many is simply malformed.
            throw HTTPError(400, error.reason)
        }
    }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs (RFC 9110 OWS).
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
        while let l = s.last, l == " " || l == "\t" { s.removeLast() }
        return String(s)
    }
}
