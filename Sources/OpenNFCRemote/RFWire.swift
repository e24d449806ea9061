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
        var m: [(String, JSONValue)] = [("handle", .int(t.handle)), ("technology", .string(t.technology.rawValue))]
        func hex(_ k: String, _ b: [UInt8]?) { if let b { m.append((k, .string(Hex.encode(b)))) } }
        func num<I: BinaryInteger>(_ k: String, _ v: I?) { if let v { m.append((k, .int(Int(v)))) } }
        switch t.activation {
        case .nfcA(let a):
            hex("uid", a.uid)
            num("sensRes", a.sensRes)
            num("selRes", a.selRes)
            hex("ats", a.ats)
            if let h = a.type1 { m.append(("type1", .object([("hr0", .int(Int(h.hr0))), ("hr1", .int(Int(h.hr1)))]))) }
        case .nfcB(let b):
            hex("pupi", b.pupi)
            hex("applicationData", b.applicationData)
            hex("protocolInfo", b.protocolInfo)
            hex("attribResponse", b.attribResponse)
        case .nfcF(let f):
            hex("idm", f.idm)
            hex("pmm", f.pmm)
            num("systemCode", f.systemCode)
            hex("requestData", f.requestData)
            num("bitRate", f.bitRate)
        case .nfcV(let v):
            hex("uid", v.uid)
            num("dsfid", v.dsfid)
            num("afi", v.afi)
        }
        return .object(m)
    }

    package static func target(_ v: JSONValue?, _ path: String) throws(Problem) -> RFTarget {
        guard let v, v.objectValue != nil else { throw Problem(path, "expected a target object") }
        guard let ts = v["technology"]?.stringValue, let technology = RFTechnology(rawValue: ts) else {
            throw Problem("\(path).technology", "expected a technology name")
        }
        func hex(_ k: String, max: Int) throws(Problem) -> [UInt8] { try bytes(v[k], "\(path).\(k)", max: max) }
        func opt(_ k: String, max: Int) throws(Problem) -> [UInt8]? { v[k] == nil ? nil : try hex(k, max: max) }
        func num(_ k: String, _ r: ClosedRange<Int>) throws(Problem) -> Int? {
            v[k] == nil || v[k] == .null ? nil : try int(v[k], "\(path).\(k)", r)
        }
        let activation: RFActivation
        switch technology {
        case .nfcA:
            var type1: NFCAActivation.Type1Header? = nil
            if let h = v["type1"] {
                type1 = NFCAActivation.Type1Header(
                    hr0: UInt8(try int(h["hr0"], "\(path).type1.hr0", 0...0xFF)),
                    hr1: UInt8(try int(h["hr1"], "\(path).type1.hr1", 0...0xFF)))
            }
            activation = .nfcA(
                NFCAActivation(
                    uid: try hex("uid", max: 10), sensRes: try num("sensRes", 0...0xFFFF).map { UInt16($0) },
                    selRes: try num("selRes", 0...0xFF).map { UInt8($0) }, ats: try opt("ats", max: 256), type1: type1))
        case .nfcB:
            activation = .nfcB(
                NFCBActivation(
                    pupi: try hex("pupi", max: 4), applicationData: try hex("applicationData", max: 4),
                    protocolInfo: try hex("protocolInfo", max: 4), attribResponse: try opt("attribResponse", max: 256)))
        case .nfcF:
            activation = .nfcF(
                NFCFActivation(
                    idm: try hex("idm", max: 8), pmm: try hex("pmm", max: 8),
                    systemCode: try num("systemCode", 0...0xFFFF).map { UInt16($0) },
                    requestData: try opt("requestData", max: 16), bitRate: try num("bitRate", 1...10_000) ?? 212))
        case .nfcV:
            activation = .nfcV(
                NFCVActivation(
                    uid: try hex("uid", max: 8), dsfid: UInt8(try num("dsfid", 0...0xFF) ?? 0),
                    afi: try num("afi", 0...0xFF).map { UInt8($0) }))
        }
        return RFTarget(activation, handle: try int(v["handle"], "\(path).handle", 0...Int(Int32.max)))
    }

    package static func pollRequest(_ r: RFPollRequest) -> JSONValue {
        var m: [(String, JSONValue)] = []
        if let a = r.nfcA { m.append(("nfcA", .object([("wakeUp", .bool(a.wakeUp))]))) }
        if let b = r.nfcB { m.append(("nfcB", .object([("afi", .int(Int(b.afi))), ("wakeUp", .bool(b.wakeUp))]))) }
        if let f = r.nfcF {
            m.append(
                (
                    "nfcF",
                    .object([
                        ("systemCode", .int(Int(f.systemCode))), ("requestCode", .int(Int(f.requestCode))),
                        ("timeSlots", .int(Int(f.timeSlots))), ("bitRate", .int(f.bitRate)),
                    ])
                ))
        }
        if let v = r.nfcV {
            m.append(("nfcV", .object([("afi", v.afi.map { .int(Int($0)) } ?? .null), ("slots", .int(v.slots))])))
        }
        return .object(m)
    }

    package static func pollRequest(_ v: JSONValue?, _ path: String) throws(Problem) -> RFPollRequest {
        guard let v, v.objectValue != nil else { throw Problem(path, "expected a poll request object") }
        for (k, _) in v.objectValue ?? [] where RFTechnology(rawValue: k) == nil {
            throw Problem("\(path).\(k)", "unknown technology")
        }
        func flag(_ o: JSONValue, _ k: String, _ p: String) throws(Problem) -> Bool {
            guard let b = o[k]?.boolValue else { throw Problem("\(p).\(k)", "expected true or false") }
            return b
        }
        var r = RFPollRequest()
        if let a = v["nfcA"] { r.nfcA = .init(wakeUp: try flag(a, "wakeUp", "\(path).nfcA")) }
        if let b = v["nfcB"] {
            r.nfcB = .init(
                afi: UInt8(try int(b["afi"], "\(path).nfcB.afi", 0...0xFF)),
                wakeUp: try flag(b, "wakeUp", "\(path).nfcB"))
        }
        if let f = v["nfcF"] {
            r.nfcF = .init(
                systemCode: UInt16(try int(f["systemCode"], "\(path).nfcF.systemCode", 0...0xFFFF)),
                requestCode: UInt8(try int(f["requestCode"], "\(path).nfcF.requestCode", 0...0xFF)),
                timeSlots: UInt8(try int(f["timeSlots"], "\(path).nfcF.timeSlots", 0...0x0F)),
                bitRate: try int(f["bitRate"], "\(path).nfcF.bitRate", 1...10_000))
        }
        if let x = v["nfcV"] {
            let afi =
                x["afi"] == nil || x["afi"] == .null ? nil : UInt8(try int(x["afi"], "\(path).nfcV.afi", 0...0xFF))
            r.nfcV = .init(afi: afi, slots: try int(x["slots"], "\(path).nfcV.slots", 1...16))
        }
        return r
    }

    package static func authentication(_ a: RFAuthentication) -> JSONValue {
        switch a {
        case .mifareClassic(let block, let keyType, let key):
            return .object([
                (
                    "mifareClassic",
                    .object([
                        ("block", .int(Int(block))), ("keyType", .string(keyType == .a ? "a" : "b")),
                        ("key", .string(Hex.encode(key))),
                    ])
                )
            ])
        }
    }

    package static func authentication(_ v: JSONValue?, _ path: String) throws(Problem) -> RFAuthentication {
        guard let m = v?["mifareClassic"] else { throw Problem(path, "expected {\"mifareClassic\": …}") }
        let p = "\(path).mifareClassic"
        let keyType: RFAuthentication.MiFareKeyType
        switch m["keyType"]?.stringValue {
        case "a": keyType = .a
        case "b": keyType = .b
        default: throw Problem("\(p).keyType", "expected \"a\" or \"b\"")
        }
        let key = try bytes(m["key"], "\(p).key", max: 6)
        guard key.count == 6 else { throw Problem("\(p).key", "a MIFARE Classic key has 6 bytes") }
        return .mifareClassic(block: UInt8(try int(m["block"], "\(p).block", 0...255)), keyType: keyType, key: key)
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
            ("frameModes", .array(RFFrameMode.allCases.filter(c.frameModes.contains).map { .string($0.rawValue) })),
            ("mifareClassicAuthentication", .bool(c.mifareClassicAuthentication)),
        ])
    }

    package static func capabilities(_ v: JSONValue?, _ path: String) throws(Problem) -> RFCapabilities {
        guard let v, v.objectValue != nil else { throw Problem(path, "expected a capabilities object") }
        guard let raw = v["rawFrames"]?.boolValue else { throw Problem("\(path).rawFrames", "expected true or false") }
        var modes: Set<RFFrameMode>? = nil
        if let list = v["frameModes"] {
            guard let a = list.arrayValue else { throw Problem("\(path).frameModes", "expected an array") }
            var set = Set<RFFrameMode>()
            for (i, e) in a.enumerated() {
                guard let s = e.stringValue, let m = RFFrameMode(rawValue: s) else {
                    throw Problem("\(path).frameModes[\(i)]", "expected a frame mode name")
                }
                set.insert(m)
            }
            modes = set
        }
        return RFCapabilities(
            maxCommandSize: try int(v["maxCommandSize"], "\(path).maxCommandSize", 1...65_536),
            maxResponseSize: try int(v["maxResponseSize"], "\(path).maxResponseSize", 1...65_536), rawFrames: raw,
            technologies: try technologies(v["technologies"], "\(path).technologies"), frameModes: modes,
            mifareClassicAuthentication: v["mifareClassicAuthentication"]?.boolValue ?? false)
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
