/// A property-list value, as Apple's `.plist` and `.entitlements` files hold them (XML 1.0 or binary `bplist00`).
///
/// Dictionaries keep their key order so a file reads back as written. Dates are kept as seconds since
/// 2001-01-01 00:00:00 UTC (Apple's reference date), which is all configuration files need.
public enum PropertyList: Hashable, Sendable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case data([UInt8])
    case date(Double)
    case array([PropertyList])
    case dictionary([(key: String, value: PropertyList)])

    /// The value for `key` when this is a dictionary.
    package subscript(key: String) -> PropertyList? {
        guard case .dictionary(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    package var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    package var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    package var arrayValue: [PropertyList]? {
        if case .array(let a) = self { return a }
        return nil
    }

    /// Reads a property list from file bytes, recognising the binary format by its `bplist00` magic.
    package init(decoding bytes: [UInt8]) throws(PropertyListError) {
        if bytes.starts(with: Array("bplist".utf8)) {
            var reader = BinaryPropertyListReader(bytes)
            self = try reader.read()
        } else {
            var reader = XMLPropertyListReader(bytes)
            self = try reader.read()
        }
    }

    public static func == (a: PropertyList, b: PropertyList) -> Bool {
        switch (a, b) {
        case (.string(let x), .string(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        case (.real(let x), .real(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.data(let x), .data(let y)): return x == y
        case (.date(let x), .date(let y)): return x == y
        case (.array(let x), .array(let y)): return x == y
        case (.dictionary(let x), .dictionary(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: return false
        }
    }

    public func hash(into h: inout Hasher) {
        switch self {
        case .string(let s): h.combine(0); h.combine(s)
        case .integer(let i): h.combine(1); h.combine(i)
        case .real(let r): h.combine(2); h.combine(r)
        case .bool(let b): h.combine(3); h.combine(b)
        case .data(let d): h.combine(4); h.combine(d)
        case .date(let d): h.combine(5); h.combine(d)
        case .array(let a): h.combine(6); h.combine(a)
        case .dictionary(let d):
            h.combine(7)
            for (k, v) in d {
                h.combine(k)
                h.combine(v)
            }
        }
    }
}

/// Why a property list could not be read, with where (a line for XML, a byte offset for binary).
package struct PropertyListError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    /// 1-based line of an XML file, when known.
    package var line: Int?
    /// Byte offset into a binary file, when known.
    package var offset: Int?

    package init(_ message: String, line: Int? = nil, offset: Int? = nil) {
        self.message = message
        self.line = line
        self.offset = offset
    }

    package var description: String {
        if let line { return "line \(line): \(message)" }
        if let offset { return "byte \(offset): \(message)" }
        return message
    }
}
