/// Reads Apple's binary property-list format `bplist00`: objects, an offset table and a 32-byte trailer
/// (offset-integer size, object-reference size, object count, top object, offset-table offset). Every size, offset
/// and reference is bounds-checked, cycles are refused, and errors name the byte offset.
struct BinaryPropertyListReader {
    private let b: [UInt8]
    private var offsets: [Int] = []
    private var refSize = 1
    private var visiting: Set<Int> = []
    private static let maxDepth = 256

    init(_ bytes: [UInt8]) { self.b = bytes }

    mutating func read() throws(PropertyListError) -> PropertyList {
        guard b.count >= 8 + 32, b.starts(with: Array("bplist0".utf8)) else {
            throw PropertyListError("not a binary property list (too short or no bplist0x header)", offset: 0)
        }
        let t = b.count - 32
        let offsetSize = Int(b[t + 6])
        refSize = Int(b[t + 7])
        let count = try int(at: t + 8, size: 8)
        let top = try int(at: t + 16, size: 8)
        let tableOffset = try int(at: t + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(refSize) else {
            throw PropertyListError("invalid trailer sizes (offset \(offsetSize), reference \(refSize))", offset: t)
        }
        guard count >= 1, top < count, tableOffset >= 8, count <= (t - tableOffset) / offsetSize else {
            throw PropertyListError("trailer object count, top object or offset table out of range", offset: t)
        }
        offsets.reserveCapacity(count)
        for k in 0..<count {
            let o = try int(at: tableOffset + k * offsetSize, size: offsetSize)
            guard o >= 8, o < tableOffset else {
                throw PropertyListError("object \(k) offset \(o) outside the object area", offset: tableOffset)
            }
            offsets.append(o)
        }
        return try object(top, depth: 0)
    }

    private func int(at o: Int, size: Int) throws(PropertyListError) -> Int {
        guard o >= 0, o + size <= b.count else { throw PropertyListError("integer runs past the end", offset: o) }
        var v: UInt64 = 0
        for k in 0..<size { v = v << 8 | UInt64(b[o + k]) }
        guard v <= UInt64(Int.max >> 1) else { throw PropertyListError("integer too large", offset: o) }
        return Int(v)
    }

    private func need(_ o: Int, _ n: Int) throws(PropertyListError) {
        guard n >= 0, o + n <= b.count - 32 else {
            throw PropertyListError("object needs \(n) bytes past the end of the object area", offset: o)
        }
    }

    /// The count of a variable-length object: the low nibble, or an integer object after the marker when it is 0xF.
    private func length(_ o: Int) throws(PropertyListError) -> (count: Int, start: Int) {
        let nibble = Int(b[o] & 0x0F)
        if nibble != 0x0F { return (nibble, o + 1) }
        try need(o + 1, 1)
        let marker = b[o + 1]
        guard marker & 0xF0 == 0x10 else { throw PropertyListError("invalid length marker", offset: o + 1) }
        let size = 1 << Int(marker & 0x0F)
        guard size <= 8 else { throw PropertyListError("invalid length size", offset: o + 1) }
        try need(o + 2, size)
        return (try int(at: o + 2, size: size), o + 2 + size)
    }

    /// The object `index`; `at` is where the reference to it stands (the trailer's top object: nil).
    private mutating func object(_ index: Int, depth: Int, at: Int? = nil) throws(PropertyListError) -> PropertyList {
        guard index < offsets.count else {
            throw PropertyListError(
                "object reference \(index) out of range (\(offsets.count) objects)", offset: at ?? b.count - 16)
        }
        let o = offsets[index]
        guard depth < Self.maxDepth else { throw PropertyListError("nesting too deep", offset: o) }
        guard !visiting.contains(index) else { throw PropertyListError("object \(index) contains itself", offset: o) }
        try need(o, 1)
        let marker = b[o]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            default: throw PropertyListError("unsupported marker 0x\(String(marker, radix: 16))", offset: o)
            }
        case 0x1:
            let size = 1 << Int(marker & 0x0F)
            guard size <= 16 else { throw PropertyListError("invalid integer size", offset: o) }
            try need(o + 1, size)
            // A 16-byte integer holds an unsigned 64-bit value: its upper 8 bytes are zero.
            if size == 16, let k = (0..<8).first(where: { b[o + 1 + $0] != 0 }) {
                throw PropertyListError("a 16-byte integer beyond 64 bits", offset: o + 1 + k)
            }
            var v: UInt64 = 0
            for k in max(0, size - 8)..<size { v = v << 8 | UInt64(b[o + 1 + k]) }
            return .integer(Int64(bitPattern: v))
        case 0x2:
            let size = 1 << Int(marker & 0x0F)
            guard size == 4 || size == 8 else { throw PropertyListError("invalid real size", offset: o) }
            try need(o + 1, size)
            var v: UInt64 = 0
            for k in 0..<size { v = v << 8 | UInt64(b[o + 1 + k]) }
            return .real(size == 4 ? Double(Float(bitPattern: UInt32(v))) : Double(bitPattern: v))
        case 0x3:
            guard marker == 0x33 else { throw PropertyListError("invalid date marker", offset: o) }
            try need(o + 1, 8)
            var v: UInt64 = 0
            for k in 0..<8 { v = v << 8 | UInt64(b[o + 1 + k]) }
            return .date(Double(bitPattern: v))
        case 0x4:
            let (n, s) = try length(o)
            try need(s, n)
            return .data(Array(b[s..<(s + n)]))
        case 0x5:
            let (n, s) = try length(o)
            try need(s, n)
            // Marker 0101: an ASCII string; a byte above 7Fh belongs in a UTF-16 string (marker 0110).
            if let bad = b[s..<(s + n)].firstIndex(where: { $0 > 0x7F }) {
                throw PropertyListError(
                    "byte \(String(b[bad], radix: 16, uppercase: true))h in an ASCII string", offset: bad)
            }
            return .string(String(decoding: b[s..<(s + n)], as: UTF8.self))
        case 0x6:
            let (n, s) = try length(o)
            try need(s, 2 * n)
            var units: [UInt16] = []
            units.reserveCapacity(n)
            for k in 0..<n { units.append(UInt16(b[s + 2 * k]) << 8 | UInt16(b[s + 2 * k + 1])) }
            guard let text = String(validating: units, as: UTF16.self) else {
                throw PropertyListError("a UTF-16 string with an unpaired surrogate", offset: s)
            }
            return .string(text)
        case 0xA:
            let (n, s) = try length(o)
            try need(s, n * refSize)
            visiting.insert(index)
            defer { visiting.remove(index) }
            var items: [PropertyList] = []
            for k in 0..<n {
                let at = s + k * refSize
                items.append(try object(try int(at: at, size: refSize), depth: depth + 1, at: at))
            }
            return .array(items)
        case 0xD:
            let (n, s) = try length(o)
            try need(s, 2 * n * refSize)
            visiting.insert(index)
            defer { visiting.remove(index) }
            var entries: [(key: String, value: PropertyList)] = []
            for k in 0..<n {
                let keyRef = try int(at: s + k * refSize, size: refSize)
                guard case .string(let key) = try object(keyRef, depth: depth + 1, at: s + k * refSize) else {
                    throw PropertyListError("dictionary key is not a string", offset: s + k * refSize)
                }
                // As the XML reader: a key given twice is an error, not a silent choice of one value.
                if entries.contains(where: { $0.key == key }) {
                    throw PropertyListError("duplicate key \"\(key)\" in a dictionary", offset: s + k * refSize)
                }
                let valueRef = try int(at: s + (n + k) * refSize, size: refSize)
                entries.append((key, try object(valueRef, depth: depth + 1, at: s + (n + k) * refSize)))
            }
            return .dictionary(entries)
        default:
            throw PropertyListError("unsupported object marker 0x\(String(marker, radix: 16))", offset: o)
        }
    }
}
