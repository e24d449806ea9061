import Foundation
import OpenNFCBytes
import OpenNFCSystem

/// A property-list value as `doctor` needs it.
enum ConfigValue: Sendable, Equatable {
    case string(String)
    case array([ConfigValue])
    case bool(Bool)
    /// Numbers, dates, data, dictionaries: present, but never what an NFC key wants.
    case other(String)

    var typeName: String {
        switch self {
        case .string: return "a string"
        case .array: return "an array"
        case .bool: return "a Boolean"
        case .other(let t): return t
        }
    }
}

/// An Info.plist or .entitlements file: its top-level keys, and where they sit in the text (XML plists), so every
/// finding can point at a line.
struct ConfigFile: Sendable {
    var path: String
    var values: [String: ConfigValue]
    /// The file's lines when it is an XML plist; nil for a binary plist.
    private var lines: [Substring]?

    /// Loads and parses a plist (XML or binary). Errors name the file and say what is wrong.
    init(path: String, role: String) throws {
        self.path = path
        let data = Data(try InputFile.bytes(path, what: role))
        let root: [String: ConfigValue]
        do {
            root = try PlistReader.topLevelDictionary(data)
        } catch {
            throw CLIError.failure("the \(role) '\(path)' is not a valid property list: \(error.reason)")
        }
        values = root
        if data.starts(with: Array("bplist".utf8)) {
            lines = nil
        } else {
            lines = String(decoding: data, as: UTF8.self).textLines()
        }
    }

    /// The Info.plist keys an Xcode project's `INFOPLIST_KEY_…` build settings generate (no file of its own): findings
    /// point at the setting's line in `project.pbxproj`.
    init(generated keys: [String: String], lines keyLines: [String: Int], project: String) {
        path = project
        values = keys.mapValues { .string($0) }
        lines = nil
        generatedLines = keyLines
    }

    /// For keys from build settings: the line of each in the project file.
    private var generatedLines: [String: Int] = [:]

    /// The line of `<key>name</key>` (1-based), when the file is XML.
    func line(ofKey name: String) -> Int? {
        if let n = generatedLines[name] { return n }
        guard let lines else { return nil }
        let needle = "<key>\(name)</key>"
        return lines.firstIndex { $0.contains(needle) }.map { $0 + 1 }
    }

    /// The line of the string `value` inside the array of `key`, when the file is XML.
    func line(ofValue value: String, inKey key: String) -> Int? {
        guard let lines, let start = line(ofKey: key) else { return nil }
        let needle = "<string>\(value)</string>"
        for i in start..<lines.count {
            if lines[i].contains(needle) { return i + 1 }
            if lines[i].contains("</array>") { break }
        }
        return nil
    }

    /// Where a missing top-level key would be added: the line of the last `</dict>`.
    var insertionLine: Int? {
        guard let lines else { return nil }
        return lines.lastIndex { $0.contains("</dict>") }.map { $0 + 1 }
    }

    func location(ofKey name: String) -> SourceLocation {
        SourceLocation(file: path, line: line(ofKey: name) ?? insertionLine)
    }

    /// The strings of an array-of-strings key: nil when absent; throws a description when it has the wrong type.
    func strings(_ key: String) -> Result<[String], WrongType>? {
        guard let v = values[key] else { return nil }
        guard case .array(let items) = v else { return .failure(WrongType(found: v.typeName)) }
        var out: [String] = []
        for item in items {
            guard case .string(let s) = item else {
                return .failure(WrongType(found: "an array holding \(item.typeName)"))
            }
            out.append(s)
        }
        return .success(out)
    }

    struct WrongType: Error {
        var found: String
    }
}

/// Reads a property list's top level into ``ConfigValue``s through OpenNFCSystem's reader (XML and binary), the same
/// one the simulated iPhone uses to gate sessions.
enum PlistReader {
    struct Failure: Error {
        var reason: String
    }

    static func topLevelDictionary(_ data: Data) throws(Failure) -> [String: ConfigValue] {
        let plist: PropertyList
        do {
            plist = try PropertyList(decoding: [UInt8](data))
        } catch {
            throw Failure(reason: error.description)
        }
        guard case .dictionary(let entries) = plist else {
            throw Failure(reason: "the top level is not a dictionary")
        }
        var out: [String: ConfigValue] = [:]
        for (k, v) in entries { out[k] = convert(v) }
        return out
    }

    private static func convert(_ v: PropertyList) -> ConfigValue {
        switch v {
        case .string(let s): return .string(s)
        case .array(let a): return .array(a.map(convert))
        case .bool(let b): return .bool(b)
        case .dictionary: return .other("a dictionary")
        case .data: return .other("data")
        case .date: return .other("a date")
        case .integer, .real: return .other("a number")
        }
    }
}
