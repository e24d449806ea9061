package import OpenNFCBytes

/// Reads the members of one JSON object of a tag file, naming the field path in every error. Chip codecs use it to
/// decode their section (see ``TagFileChip``).
package struct TagFileFields: Sendable {
    /// The object's members in file order.
    package let members: [(String, JSONValue)]
    /// Path of this object (`""` for the root, `type2` for a section).
    package let path: String

    package init(_ value: JSONValue, path: String) throws(TagFileError) {
        guard let o = value.objectValue else {
            throw TagFileError("expected an object", field: path.isEmpty ? "(root)" : path)
        }
        self.members = o
        self.path = path
    }

    /// The full path of member `key`.
    package func field(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    /// Whether member `key` is present.
    package func contains(_ key: String) -> Bool { members.contains { $0.0 == key } }

    /// Member `key`, if present.
    package func value(_ key: String) -> JSONValue? { members.first { $0.0 == key }?.1 }

    /// Member `key`, or a `missing` error naming it.
    package func require(_ key: String) throws(TagFileError) -> JSONValue {
        guard let v = value(key) else { throw TagFileError("missing", field: field(key)) }
        return v
    }

    /// A string member.
    package func string(_ key: String) throws(TagFileError) -> String {
        guard let s = try require(key).stringValue else { throw TagFileError("expected a string", field: field(key)) }
        return s
    }

    /// A string member, nil when absent.
    package func optionalString(_ key: String) throws(TagFileError) -> String? {
        contains(key) ? try string(key) : nil
    }

    /// A whole-number member within `range`.
    package func int(_ key: String, in range: ClosedRange<Int>) throws(TagFileError) -> Int {
        guard let i = try require(key).intValue, range.contains(i) else {
            throw TagFileError(
                "expected a whole number from \(range.lowerBound) to \(range.upperBound)", field: field(key))
        }
        return i
    }

    /// A boolean member.
    package func bool(_ key: String) throws(TagFileError) -> Bool {
        guard let b = try require(key).boolValue else {
            throw TagFileError("expected true or false", field: field(key))
        }
        return b
    }

    /// Hex bytes (spaces allowed), optionally of an exact length.
    package func hex(_ key: String, count: Int? = nil) throws(TagFileError) -> [UInt8] {
        try Self.hex(try string(key), field: field(key), count: count)
    }

    /// A hex member, nil when absent.
    package func optionalHex(_ key: String, count: Int? = nil) throws(TagFileError) -> [UInt8]? {
        contains(key) ? try hex(key, count: count) : nil
    }

    /// An object member, as fields with its path.
    package func object(_ key: String) throws(TagFileError) -> TagFileFields {
        try TagFileFields(try require(key), path: field(key))
    }

    /// An array member.
    package func array(_ key: String) throws(TagFileError) -> [JSONValue] {
        guard let a = try require(key).arrayValue else { throw TagFileError("expected an array", field: field(key)) }
        return a
    }

    /// Decodes hex text, naming `field` on error.
    /// A memory image written as a list of hex strings (Type 2 `pages`, MIFARE Classic `blocks`): exactly `count`
    /// strings of `size` bytes each, concatenated. `special` decodes a string the family writes in its own way (a
    /// Classic trailer with unknown keys) and returns nil for plain hex. Errors name the entry (`type2.pages[7]`) and,
    /// for a wrong count, say what `owner` has.
    package func hexList(
        _ key: String, count: Int, size: Int, owner: String,
        special: (_ text: String, _ index: Int, _ field: String) throws(TagFileError) -> [UInt8]? = { _, _, _ in nil }
    ) throws(TagFileError) -> [UInt8] {
        let list = try array(key)
        guard list.count == count else {
            throw TagFileError("\(owner) has \(count) \(key), found \(list.count)", field: field(key))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count * size)
        for (i, entry) in list.enumerated() {
            let f = "\(field(key))[\(i)]"
            guard let text = entry.stringValue else { throw TagFileError("expected a hex string", field: f) }
            if let b = try special(text, i, f) {
                bytes += b
            } else {
                bytes += try Self.hex(text, field: f, count: size)
            }
        }
        return bytes
    }

    package static func hex(_ text: String, field: String, count: Int? = nil) throws(TagFileError) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try Hex.decode(text)
        } catch {
            throw TagFileError("not hex: \(error)", field: field)
        }
        if let count, bytes.count != count {
            throw TagFileError("expected \(count) bytes, found \(bytes.count)", field: field)
        }
        return bytes
    }
}
