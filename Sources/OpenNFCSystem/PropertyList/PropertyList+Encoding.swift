internal import OpenNFCBytes

/// Writers for both property-list formats, so tests and tools can produce `.plist` / `.entitlements` files.
extension PropertyList {
    /// The dates the XML form can hold (ISO 8601 `YYYY-MM-DDTHH:MM:SSZ`, years 0000–9999), in seconds since
    /// 2001-01-01T00:00:00Z. A binary list can hold any date; ``xmlEncoded`` writes one outside this range in a form
    /// no XML reader takes (a year of more than four digits, or a minus).
    package static var xmlDateRange: Range<Double> { ISODate.writableRange }

    /// The XML form, as Xcode writes it.
    package var xmlEncoded: [UInt8] {
        var s = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        xml(into: &s, indent: "")
        s += "</plist>\n"
        return Array(s.utf8)
    }

    private func xml(into s: inout String, indent: String) {
        // By Unicode scalar, not Character: "<" followed by a combining mark is one Character that is not "<", and
        // would go out unescaped.
        func escaped(_ t: String) -> String {
            var o = ""
            for u in t.unicodeScalars {
                switch u {
                case "<": o += "&lt;"
                case ">": o += "&gt;"
                case "&": o += "&amp;"
                default: o.unicodeScalars.append(u)
                }
            }
            return o
        }
        switch self {
        case .string(let v): s += "\(indent)<string>\(escaped(v))</string>\n"
        case .integer(let v): s += "\(indent)<integer>\(v)</integer>\n"
        // A NaN is written `nan` whatever its sign and payload (Swift spells those `-snan(0x…)`, which no reader
        // takes back); every other value as Swift prints it, which `Double(_:)` reads back exactly.
        case .real(let v): s += "\(indent)<real>\(v.isNaN ? "nan" : "\(v)")</real>\n"
        case .bool(let v): s += "\(indent)<\(v)/>\n"
        case .data(let v): s += "\(indent)<data>\(Base64.encode(v))</data>\n"
        case .date(let v): s += "\(indent)<date>\(ISODate.string(secondsSinceReferenceDate: v))</date>\n"
        case .array(let items):
            s += "\(indent)<array>\n"
            for item in items { item.xml(into: &s, indent: indent + "\t") }
            s += "\(indent)</array>\n"
        case .dictionary(let entries):
            s += "\(indent)<dict>\n"
            for (k, v) in entries {
                s += "\(indent)\t<key>\(escaped(k))</key>\n"
                v.xml(into: &s, indent: indent + "\t")
            }
            s += "\(indent)</dict>\n"
        }
    }

    /// The binary `bplist00` form (no object sharing; one-byte or two-byte object references as needed).
    package var binaryEncoded: [UInt8] {
        var objects: [[UInt8]] = []
        func count(_ v: PropertyList) -> Int {
            switch v {
            case .array(let a): return 1 + a.reduce(0) { $0 + count($1) }
            case .dictionary(let d): return 1 + d.reduce(0) { $0 + 1 + count($1.value) }
            default: return 1
            }
        }
        let total = count(self)
        let refSize = total < 256 ? 1 : (total < 65536 ? 2 : 4)
        func be(_ v: UInt64, _ size: Int) -> [UInt8] {
            (0..<size).map { UInt8((v >> UInt64(8 * (size - 1 - $0))) & 0xFF) }
        }
        func header(_ kind: UInt8, _ n: Int) -> [UInt8] {
            if n < 15 { return [kind << 4 | UInt8(n)] }
            if n < 256 { return [kind << 4 | 0x0F, 0x10, UInt8(n)] }
            if n < 65536 { return [kind << 4 | 0x0F, 0x11] + be(UInt64(n), 2) }
            return [kind << 4 | 0x0F, 0x12] + be(UInt64(n), 4)
        }
        @discardableResult
        func add(_ v: PropertyList) -> Int {
            let index = objects.count
            objects.append([])
            var o: [UInt8]
            switch v {
            case .bool(let x): o = [x ? 0x09 : 0x08]
            case .integer(let x): o = [0x13] + be(UInt64(bitPattern: x), 8)
            case .real(let x): o = [0x23] + be(x.bitPattern, 8)
            case .date(let x): o = [0x33] + be(x.bitPattern, 8)
            case .data(let x): o = header(0x4, x.count) + x
            case .string(let x):
                if x.utf8.allSatisfy({ $0 < 0x80 }) {
                    o = header(0x5, x.utf8.count) + Array(x.utf8)
                } else {
                    let units = Array(x.utf16)
                    o = header(0x6, units.count) + units.flatMap { be(UInt64($0), 2) }
                }
            case .array(let items):
                let refs = items.map { add($0) }
                o = header(0xA, items.count) + refs.flatMap { be(UInt64($0), refSize) }
            case .dictionary(let entries):
                let keys = entries.map { add(.string($0.key)) }
                let values = entries.map { add($0.value) }
                o = header(0xD, entries.count) + (keys + values).flatMap { be(UInt64($0), refSize) }
            }
            objects[index] = o
            return index
        }
        add(self)
        var out = Array("bplist00".utf8)
        var offsets: [Int] = []
        for o in objects {
            offsets.append(out.count)
            out += o
        }
        let tableOffset = out.count
        let offsetSize = tableOffset < 256 ? 1 : (tableOffset < 65536 ? 2 : 4)
        for off in offsets { out += be(UInt64(off), offsetSize) }
        // Trailer: 5 unused bytes, sort version, offset-integer size, object-reference size, then three UInt64.
        out += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(refSize)]
        out += be(UInt64(objects.count), 8) + be(0, 8) + be(UInt64(tableOffset), 8)
        return out
    }
}
