package import OpenNFCBytes
package import OpenNFCRF

/// The JSON forms of the frontend protocol's values, shared by the field protocol (docs/FIELD.md) and the RF
/// transcript files of record/replay (docs/FIELD.md, "Transcripts"). Bytes are upper-case hex strings.
package enum RFWire {
    /// A decoding problem: what was wrong and where (`path` is the member, e.g. `targets[0].identifier`).
    package struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        package var path: String
        package var reason: String
        package init(_ path: String, _ reason: String) {
            self.path = path
            self.reason = reason
        }
        package var description: String { path.isEmpty ? reason : "\(path): \(reason)" }
    }

    // MARK: values

    package static func technologies(_ t: Set<RFTechnology>) -> JSONValue {
        .array(RFTechnology.allCases.filter(t.contains).map { .string($0.rawValue) })
    }

    package static func technologies(_ v: JSONValue?, _ path: String) throws(Problem) -> Set<RFTechnology> {
        guard let a = v?.arrayValue else { throw Problem(path, "expected an array of technology names") }
        var out: Set<RFTechnology> = []
        for (i, e) in a.enumerated() {
            guard let s = e.stringValue, let t = RFTechnology(rawValue: s) else {
                throw Problem(
                    "\(path)[\(i)]",
                    "expected one of \(RFTechnology.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            out.insert(t)
        }
        return out
    }

    package static func target(_ t: RFTarget) -> JSONValue {
        var m: [(String, JSONValue)] = [
            ("handle", .int(t.handle)), ("technology", .string(t.technology.rawValue)),
            ("identifier", .string(Hex.encode(t.identifier))),
        ]
        if let v = t.sensRes { m.append(("sensRes", .int(Int(v)))) }
        if let v = t.selRes { m.append(("selRes", .int(Int(v)))) }
        if let v = t.ats { m.append(("ats", .string(Hex.encode(v)))) }
        if let v = t.atqb { m.append(("atqb", .string(Hex.encode(v)))) }
        if let v = t.pmm { m.append(("pmm", .string(Hex.encode(v)))) }
        if let v = t.systemCode { m.append(("systemCode", .int(Int(v)))) }
        if let v = t.dsfid { m.append(("dsfid", .int(Int(v)))) }
        return .object(m)
    }

    package static func target(_ v: JSONValue?, _ path: String) throws(Problem) -> RFTarget {
        guard let v, v.objectValue != nil else { throw Problem(path, "expected a target object") }
        guard let ts = v["technology"]?.stringValue, let technology = RFTechnology(rawValue: ts) else {
            throw Problem("\(path).technology", "expected a technology name")
        }
        var t = RFTarget(
            technology: technology, identifier: try bytes(v["identifier"], "\(path).identifier", max: 16),
            handle: try int(v["handle"], "\(path).handle", 0...Int(Int32.max)))
        if v["sensRes"] != nil { t.sensRes = UInt16(try int(v["sensRes"], "\(path).sensRes", 0...0xFFFF)) }
        if v["selRes"] != nil { t.selRes = UInt8(try int(v["selRes"], "\(path).selRes", 0...0xFF)) }
        if v["ats"] != nil { t.ats = try bytes(v["ats"], "\(path).ats", max: 256) }
        if v["atqb"] != nil { t.atqb = try bytes(v["atqb"], "\(path).atqb", max: 64) }
        if v["pmm"] != nil { t.pmm = try bytes(v["pmm"], "\(path).pmm", max: 8) }
        if v["systemCode"] != nil {
            t.systemCode = UInt16(try int(v["systemCode"], "\(path).systemCode", 0...0xFFFF))
        }
        if v["dsfid"] != nil { t.dsfid = UInt8(try int(v["dsfid"], "\(path).dsfid", 0...0xFF)) }
        return t
    }

    package static func response(_ r: RFResponse) -> JSONValue {
        switch r {
        case .frame(let b): return .object([("frame", .string(Hex.encode(b)))])
        case .ack: return .object([("ack", .bool(true))])
        case .nak(let n): return .object([("nak", .int(Int(n)))])
        }
    }

    package static func response(_ v: JSONValue?, _ path: String, maxFrame: Int) throws(Problem) -> RFResponse {
        guard let v, v.objectValue != nil else { throw Problem(path, "expected a response object") }
        if v["frame"] != nil { return .frame(try bytes(v["frame"], "\(path).frame", max: maxFrame)) }
        if v["ack"]?.boolValue == true { return .ack }
        if v["nak"] != nil { return .nak(UInt8(try int(v["nak"], "\(path).nak", 0...15))) }
        throw Problem(path, "expected \"frame\", \"ack\" or \"nak\"")
    }

    package static func error(_ e: RFError) -> JSONValue {
        .object([("code", .string(e.code.rawValue)), ("detail", .string(e.detail))])
    }

    package static func error(_ v: JSONValue?, _ path: String) throws(Problem) -> RFError {
        guard let c = v?["code"]?.stringValue, let code = RFError.Code(rawValue: c) else {
            throw Problem("\(path).code", "expected an RF error code")
        }
        return RFError(code, v?["detail"]?.stringValue ?? "")
    }

    package static func capabilities(_ c: RFCapabilities) -> JSONValue {
        .object([
            ("maxCommandSize", .int(c.maxCommandSize)), ("maxResponseSize", .int(c.maxResponseSize)),
            ("rawFrames", .bool(c.rawFrames)), ("technologies", technologies(c.technologies)),
        ])
    }

    package static func capabilities(_ v: JSONValue?, _ path: String) throws(Problem) -> RFCapabilities {
        guard let v, v.objectValue != nil else { throw Problem(path, "expected a capabilities object") }
        guard let raw = v["rawFrames"]?.boolValue else { throw Problem("\(path).rawFrames", "expected true or false") }
        return RFCapabilities(
            maxCommandSize: try int(v["maxCommandSize"], "\(path).maxCommandSize", 1...65_536),
            maxResponseSize: try int(v["maxResponseSize"], "\(path).maxResponseSize", 1...65_536), rawFrames: raw,
            technologies: try technologies(v["technologies"], "\(path).technologies"))
    }

    // MARK: scalars

    package static func int(_ v: JSONValue?, _ path: String, _ range: ClosedRange<Int>) throws(Problem) -> Int {
        guard let i = v?.intValue else { throw Problem(path, "expected an integer") }
        guard range.contains(i) else { throw Problem(path, "\(i) is outside \(range.lowerBound)…\(range.upperBound)") }
        return i
    }

    package static func bytes(_ v: JSONValue?, _ path: String, max: Int) throws(Problem) -> [UInt8] {
        guard let s = v?.stringValue else { throw Problem(path, "expected a hex string") }
        guard s.utf8.count <= max * 2 else { throw Problem(path, "more than \(max) bytes") }
        do {
            return try Hex.decode(s)
        } catch {
            throw Problem(path, "\(error)")
        }
    }
}
