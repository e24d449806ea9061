internal import OpenNFCBytes

/// Flipper Zero `.nfc` files for FeliCa (device type `FeliCa`), from the format flipperzero-firmware reads and
/// writes (lib/nfc/protocols/felica/felica.c, data format version 2; version 1 files hold Lite blocks only):
///
/// | Key | Import | Export |
/// |---|---|---|
/// | `UID`, `Manufacture id` (the IDm; both must agree), `Manufacture parameter` (PMm) | ✓ | ✓ |
/// | `Data format version` 1 or 2 | ✓ (1: Lite blocks, whatever the PMm) | 2 |
/// | `IC Type` | ignored: the PMm's IC code (byte 1) decides, `F1` Lite-S, `F0`/`F2` refused, others Standard | the IC's name |
/// | Lite-S: `Blocks total` (28), `Blocks read`, `Block 0`–`Block 27`, each SF1 SF2 and 16 bytes, in the order S_PAD0–13, REG, RC, MAC, ID, D_ID, SER_C, SYS_C, CKV, CK, MC, WCNT, MAC_A, STATE, CRC_CHECK | user blocks, ID bytes 8–15, SER_C, SYS_C, CKV, CK, MC, WCNT; a block with SF1 ≠ 00 (not read) loads as zeros; ID and D_ID must carry the IDm (and D_ID the PMm) | all 28, SF 00 00; RC, MAC, MAC_A, STATE and CRC_CHECK as zeros |
/// | Standard: `Area found`, `Area NNN: \| Code XXXX \| Services #AAA-#BBB \|` | areas; the end code is not in the file: `FFFE` for area `0000`, else the last service's number with attribute `3E` | the services each area spans |
/// | Standard: `Service found`, `Service NNN: \| Code XXXX \| …` | services (the rest of the line, attributes in words, is ignored) | code, attribute, public/private, kind, access |
/// | Standard: `Directory Tree` (the tree drawn over the following lines, without colons) | skipped | written |
/// | Standard: `Public blocks read`, `Block NNNN: \| Service code XXXX \| Block index XX \| Data: … \|` | the blocks of each service, by index (a gap loads as zeros) | every block of every service without key |
///
/// What the format cannot carry, so import and export lose it (exportLoss says so): Flipper stores one system and
/// no system code (import gives the system code `0003`, system 0 of the transit cards Flipper reads, and the file's
/// IDm; export writes the first system only), no key versions (import: 0), and no blocks of services that need a
/// key (import: one zero block each, as a tag file's service has at least one).
extension FlipperNFCFile {
    static let feliCaDevice = "FeliCa"
    /// Where each Lite-S block sits in Flipper's 28-block dump.
    static let liteSOrder: [Int] =
        Array(0...0x0E) + [0x80, 0x81, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x90, 0x91, 0x92, 0xA0]
    /// The system code a Standard file imports with (the format stores none).
    static let feliCaImportSystemCode: UInt16 = 0x0003

    /// Parses a FeliCa `.nfc` file, or returns nil when `text` is not one (another device type).
    static func decodeFeliCaIfFeliCa(_ text: String) throws(TagFileError) -> (any VirtualTag)? {
        guard text.contains("\nDevice type: FeliCa") else { return nil }
        var values: [String: Entry] = [:]
        var inTree = false
        for (number, line) in contentLines(text) {
            let n = number - 1
            guard let colon = line.firstIndex(of: ":") else {
                // The Directory Tree value runs over the lines after its key; Flipper writes it without colons.
                if inTree { continue }
                throw TagFileError("expected 'Key: value'", line: n + 1)
            }
            let key = String(line[..<colon])
            inTree = key == "Directory Tree"
            guard values[key] == nil else { throw TagFileError("appears twice", field: key, line: n + 1) }
            values[key] = (String(line[line.index(after: colon)...].drop { $0 == " " }), n + 1)
        }
        guard values["Device type"]?.value == feliCaDevice else { return nil }
        let filetype = try require(values, "Filetype")
        guard filetype.value == "Flipper NFC device" else {
            throw TagFileError("not a Flipper NFC file", field: "Filetype", line: filetype.line)
        }
        try checkVersion(values)
        guard let idm = try hexValue(values, "Manufacture id", count: 8) else {
            throw TagFileError("missing", field: "Manufacture id")
        }
        if let uid = try hexValue(values, "UID", count: 8), uid != idm {
            throw TagFileError("the UID is not the Manufacture id (IDm)", field: "UID", line: values["UID"]!.line)
        }
        guard let pmm = try hexValue(values, "Manufacture parameter", count: 8) else {
            throw TagFileError("missing", field: "Manufacture parameter")
        }
        let format = try require(values, "Data format version")
        guard format.value == "1" || format.value == "2" else {
            throw TagFileError(
                "data format version '\(format.value)' is not supported (1 and 2 are)", field: "Data format version",
                line: format.line)
        }
        let ic = pmm[1]
        if format.value == "1" || [0xF0, 0xF1, 0xF2].contains(ic) {
            guard ic == 0xF1 else {
                throw TagFileError(
                    "PMm IC code \(Hex.encode([ic])) is not a FeliCa Lite-S (F1), the Lite card this simulator has",
                    field: "Manufacture parameter", line: values["Manufacture parameter"]!.line)
            }
            return try decodeLiteS(values, idm: idm, pmm: pmm)
        }
        return try decodeStandard(values, idm: idm, pmm: pmm)
    }

    static func decodeLiteS(_ values: [String: Entry], idm: [UInt8], pmm: [UInt8]) throws(TagFileError)
        -> FeliCaLiteSTag
    {
        let total = try require(values, "Blocks total")
        guard Int(total.value) == liteSOrder.count else {
            throw TagFileError(
                "a FeliCa Lite-S dump has \(liteSOrder.count) blocks", field: "Blocks total", line: total.line)
        }
        var blocks: [Int: [UInt8]] = [:]
        for (i, number) in liteSOrder.enumerated() {
            let key = "Block \(i)"
            guard let b = try hexValue(values, key, count: 18) else { throw TagFileError("missing", field: key) }
            // SF1 SF2, then the data; a block Flipper could not read (SF1 ≠ 00) holds nothing known.
            blocks[number] = b[0] == 0x00 ? Array(b[2...]) : [UInt8](repeating: 0, count: 16)
        }
        func check(_ number: Int, _ index: Int, _ expected: [UInt8], _ what: String) throws(TagFileError) {
            let b = blocks[number]!
            guard b == [UInt8](repeating: 0, count: 16) || Array(b.prefix(expected.count)) == expected else {
                throw TagFileError(
                    "\(what) does not match Manufacture id/parameter", field: "Block \(index)",
                    line: values["Block \(index)"]!.line)
            }
        }
        try check(0x82, 17, idm, "the ID block's IDm")
        try check(0x83, 18, idm + pmm, "D_ID (IDm and PMm)")
        let wcnt = blocks[0x90]!
        return FeliCaLiteSTag(
            idm: idm, pmm: pmm, user: (0...0x0E).map { blocks[$0]! }, idData: Array(blocks[0x82]![8..<16]),
            serC: blocks[0x84]!, sysC: blocks[0x85]!, ckv: blocks[0x86]!, ck: blocks[0x87]!, mc: blocks[0x88]!,
            writeCount: Int(wcnt[0]) | Int(wcnt[1]) << 8 | Int(wcnt[2]) << 16)
    }

    /// The fields of `| A B | C D | …|` as trimmed strings.
    static func cells(_ value: String) -> [String] {
        value.split(separator: "|").map { cell in
            var c = cell.drop { $0 == " " }
            while c.last == " " { c = c.dropLast() }
            return String(c)
        }.filter { !$0.isEmpty }
    }

    static func hex16(_ text: Substring, _ key: String, _ line: Int) throws(TagFileError) -> UInt16 {
        guard text.count == 4, let v = UInt16(text, radix: 16) else {
            throw TagFileError("expected 4 hex digits, not '\(text)'", field: key, line: line)
        }
        return v
    }

    static func count(_ values: [String: Entry], _ key: String) throws(TagFileError) -> Int {
        let e = try require(values, key)
        guard let n = Int(e.value), (0...0x1_0000).contains(n) else {
            throw TagFileError("expected a whole number", field: key, line: e.line)
        }
        return n
    }

    static func decodeStandard(_ values: [String: Entry], idm: [UInt8], pmm: [UInt8]) throws(TagFileError)
        -> FeliCaStandardTag
    {
        func field(_ cell: String, _ prefix: String, _ key: String, _ line: Int) throws(TagFileError) -> Substring {
            guard cell.hasPrefix(prefix) else {
                throw TagFileError("expected '\(prefix)…', found '\(cell)'", field: key, line: line)
            }
            return cell.dropFirst(prefix.count)
        }
        var codes: [UInt16] = []
        for i in 0..<(try count(values, "Service found")) {
            let key = "Service \(hex3(i))"
            let e = try require(values, key)
            let c = cells(e.value)
            guard let first = c.first else {
                throw TagFileError("expected '| Code XXXX | …'", field: key, line: e.line)
            }
            let code = try hex16(try field(first, "Code ", key, e.line), key, e.line)
            guard !codes.contains(code) else {
                throw TagFileError("service \(hex4(code)) twice", field: key, line: e.line)
            }
            codes.append(code)
        }
        var areas: [FeliCaStandardTag.Area] = []
        for i in 0..<(try count(values, "Area found")) {
            let key = "Area \(hex3(i))"
            let e = try require(values, key)
            let c = cells(e.value)
            guard c.count == 2 else {
                throw TagFileError("expected '| Code XXXX | Services #AAA-#BBB |'", field: key, line: e.line)
            }
            let code = try hex16(try field(c[0], "Code ", key, e.line), key, e.line)
            let range = try field(c[1], "Services #", key, e.line).split(separator: "-")
            guard range.count == 2, range[1].hasPrefix("#"), let last = Int(range[1].dropFirst(), radix: 16),
                Int(range[0], radix: 16) != nil
            else {
                throw TagFileError("expected 'Services #AAA-#BBB'", field: key, line: e.line)
            }
            let end: UInt16 =
                code == 0x0000
                ? 0xFFFE : last < codes.count ? (max(codes[last], code) & 0xFFC0) | 0x003E : code | 0x003E
            areas.append(.init(code: code, end: end))
        }
        var blocks: [UInt16: [Int: [UInt8]]] = [:]
        for i in 0..<(try count(values, "Public blocks read")) {
            let key = "Block \(Hex.encode([UInt8(i >> 8), UInt8(i & 0xFF)]))"
            let e = try require(values, key)
            let c = cells(e.value)
            guard c.count == 3 else {
                throw TagFileError(
                    "expected '| Service code XXXX | Block index XX | Data: … |'", field: key, line: e.line)
            }
            let service = try hex16(try field(c[0], "Service code ", key, e.line), key, e.line)
            guard codes.contains(service) else {
                throw TagFileError("service \(hex4(service)) is not in the service list", field: key, line: e.line)
            }
            guard let index = Int(try field(c[1], "Block index ", key, e.line), radix: 16) else {
                throw TagFileError("expected a hex block index", field: key, line: e.line)
            }
            let data: [UInt8]
            do {
                data = try TagFileFields.hex(String(try field(c[2], "Data: ", key, e.line)), field: key, count: 16)
            } catch {
                throw TagFileError(error.reason, field: key, line: e.line)
            }
            blocks[service, default: [:]][index] = data
        }
        let zero = [UInt8](repeating: 0, count: 16)
        let services = codes.map { code in
            let read = blocks[code] ?? [:]
            let n = (read.keys.max() ?? -1) + 1
            return FeliCaStandardTag.Service(code: code, blocks: n == 0 ? [zero] : (0..<n).map { read[$0] ?? zero })
        }
        guard !services.isEmpty || !areas.isEmpty else {
            throw TagFileError("a FeliCa Standard dump lists its areas and services", field: "Service found")
        }
        return FeliCaStandardTag(
            systems: [.init(code: feliCaImportSystemCode, idm: idm, areas: areas, services: services)], pmm: pmm)
    }

    static func hex3(_ i: Int) -> String { String(Hex.encode([UInt8(i >> 8 & 0x0F), UInt8(i & 0xFF)]).dropFirst()) }
    static func hex4(_ c: UInt16) -> String { Hex.encode([UInt8(c >> 8), UInt8(c & 0xFF)]) }

    // MARK: export

    /// The IC names Flipper writes as `IC Type`, by PMm byte 1.
    static func feliCaICName(_ pmm: [UInt8]) -> String {
        switch pmm[1] {
        case 0xF1: "FeliCa Lite-S RC-S966"
        case 0x01: "FeliCa Standard RC-S915"
        default: "FeliCa Standard"
        }
    }

    static func feliCaHeader(idm: [UInt8], pmm: [UInt8]) -> [String] {
        func hex(_ b: [UInt8]) -> String { Hex.encode(b, separator: " ") }
        return preamble(deviceType: "FeliCa") + [
            "# UID is common for all formats",
            "UID: \(hex(idm))",
            "# FeliCa specific data",
            "Data format version: 2",
            "Manufacture id: \(hex(idm))",
            "Manufacture parameter: \(hex(pmm))",
            "IC Type: \(feliCaICName(pmm))",
            "",
        ]
    }

    /// The `.nfc` text of a FeliCa card, nil for any other tag.
    static func encodeFeliCaIfFeliCa(_ tag: any VirtualTag) -> String? {
        if let t = tag as? FeliCaLiteSTag { return encodeLiteS(t) }
        if let t = tag as? FeliCaStandardTag { return encodeStandard(t) }
        return nil
    }

    static func encodeLiteS(_ t: FeliCaLiteSTag) -> String {
        let zero = [UInt8](repeating: 0, count: 16)
        var lines = feliCaHeader(idm: t.idm, pmm: t.pmm)
        lines += ["# Felica Lite specific data", "Blocks total: 28", "Blocks read: 28"]
        for (i, number) in liteSOrder.enumerated() {
            let data: [UInt8]
            switch number {
            case 0x00...0x0E: data = t.user[number]
            case 0x82: data = t.idm + t.idData
            case 0x83: data = t.idm + t.pmm
            case 0x84: data = t.serC
            case 0x85: data = t.sysC
            case 0x86: data = t.ckv
            case 0x87: data = t.ck
            case 0x88: data = t.mc
            case 0x90:
                data =
                    [UInt8(t.writeCount & 0xFF), UInt8(t.writeCount >> 8 & 0xFF), UInt8(t.writeCount >> 16 & 0xFF)]
                    + [UInt8](repeating: 0, count: 13)
            default: data = zero
            }
            lines.append("Block \(i): \(Hex.encode([0x00, 0x00] + data, separator: " "))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func encodeStandard(_ t: FeliCaStandardTag) -> String {
        let sys = t.systems[0]
        var lines = feliCaHeader(idm: sys.idm, pmm: t.pmm)
        lines.append("# Felica Standard specific data")
        let services = sys.services.sorted { $0.code < $1.code }
        lines.append("Area found: \(sys.areas.count)")
        for (i, a) in sys.areas.enumerated() {
            let inside = services.indices.filter { services[$0].code >= a.code && services[$0].code <= a.end }
            let first = inside.first ?? 0
            let last = inside.last ?? first
            lines.append(
                "Area \(hex3(i)): | Code \(hex4(a.code)) | Services #\(hex3(first))-#\(hex3(last)) |")
        }
        lines.append("")
        lines.append("Service found: \(services.count)")
        for (i, s) in services.enumerated() {
            let attribute = Hex.encode([UInt8(s.code & 0x3F)])
            let kind = s.isPurse ? "Purse " : s.isCyclic ? "Cyclic" : "Random"
            lines.append(
                "Service \(hex3(i)): | Code \(hex4(s.code)) | Attrib. \(attribute) | \(s.needsKey ? "Private" : "Public ") "
                    + "| \(kind) | \(s.isReadOnly ? "Read Only " : "Read/Write") |")
        }
        lines.append("")
        var tree = ["Directory Tree: ", "+++ ... are public services", "||| ... are private services"]
        for s in services { tree.append("\(s.needsKey ? "|" : "+")- serv_\(hex4(s.code))") }
        lines += tree
        let readable = services.filter { !$0.needsKey }
        let count = readable.reduce(0) { $0 + $1.blocks.count }
        lines.append("Public blocks read: \(count)")
        var k = 0
        for s in readable {
            for (b, data) in s.blocks.enumerated() {
                lines.append(
                    "Block \(Hex.encode([UInt8(k >> 8), UInt8(k & 0xFF)])): | Service code \(hex4(s.code)) | "
                        + "Block index \(Hex.encode([UInt8(b & 0xFF)])) | Data: \(Hex.encode(data, separator: " ")) |")
                k += 1
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// What a `.nfc` file of a FeliCa card cannot hold, or nil.
    static func feliCaExportLoss(_ tag: any VirtualTag) -> String? {
        guard let t = tag as? FeliCaStandardTag else { return nil }
        var lost: [String] = []
        if t.systems.count > 1 {
            lost.append(
                "systems \(t.systems.dropFirst().map { hex4($0.code) }.joined(separator: ", ")) (one system only)")
        }
        lost.append("the system code \(hex4(t.systems[0].code)) (it imports as \(hex4(feliCaImportSystemCode)))")
        let keyed = t.systems[0].services.filter(\.needsKey)
        if !keyed.isEmpty {
            lost.append("the blocks of \(keyed.map { hex4($0.code) }.joined(separator: ", ")) (services with a key)")
        }
        if t.systems[0].services.contains(where: { $0.keyVersion != 0 })
            || t.systems[0].areas.contains(where: { $0.keyVersion != 0 })
        {
            lost.append("key versions")
        }
        return "Flipper's FeliCa format does not store " + lost.joined(separator: ", ")
    }
}
