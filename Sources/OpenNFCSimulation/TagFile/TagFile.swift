internal import Foundation
internal import OpenNFCBytes

/// Tag files: a virtual tag's complete non-volatile state in a documented JSON format (docs/TAG-FILES.md), plus
/// import and export of Flipper Zero `.nfc` dumps and raw `.ndef` messages. The format follows the file extension.
///
/// JSON root: `format` (`"opennfc-tag"`), `version` (1), `chip`, `uid`, then the chip family's section (`type2`,
/// …). Without the section the file means "a factory-fresh chip", holding the message in the optional `ndef` member.
public enum TagFile {
    /// The `format` member of every JSON tag file.
    package static let formatName = "opennfc-tag"
    /// The `version` this build reads and writes.
    package static let formatVersion = 1

    /// File formats, chosen by extension.
    package enum Format: String, Sendable, CaseIterable {
        /// `.json`: the OpenCoreNFC tag file.
        case json
        /// `.nfc`: a Flipper Zero dump.
        case flipper = "nfc"
        /// `.ndef`: a raw NDEF message.
        case ndef
        /// `.eml`: a Proxmark3 MIFARE Classic dump, one block a line (``ProxmarkDumpFile``).
        case eml
        /// `.bin`: the raw blocks of a MIFARE Classic (Proxmark3; ``ProxmarkDumpFile``).
        case bin
        /// `.mfd`: the raw blocks of a MIFARE Classic (libnfc's name for `.bin`).
        case mfd

        /// The format of `path` by its extension, nil for an unknown one.
        package init?(path: String) {
            guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
            self.init(rawValue: path[path.index(after: dot)...].lowercased())
        }
    }

    // MARK: JSON

    /// Builds the tag a JSON tag file describes.
    public static func decodeJSON(_ text: String) throws(TagFileError) -> any VirtualTag {
        let json: JSONValue
        do {
            json = try JSONValue(parsing: text)
        } catch {
            throw TagFileError("\(error.reason) at column \(error.column)", line: error.line)
        }
        let root = try TagFileFields(json, path: "")
        let format = try root.string("format")
        guard format == formatName else {
            throw TagFileError("expected \"\(formatName)\", found \"\(format)\"", field: "format")
        }
        let version = try root.int("version", in: 0...Int.max)
        guard version == formatVersion else {
            throw TagFileError(
                "version \(version) is not supported (this build reads \(formatVersion))", field: "version")
        }
        let name = try root.string("chip")
        let chip = try registered(name, field: "chip")
        let uid = try root.hex("uid")
        guard uid.count == chip.uidLength else {
            throw TagFileError("\(chip.name) has a \(chip.uidLength)-byte UID, found \(uid.count) bytes", field: "uid")
        }
        for (key, _) in root.members
        where !["format", "version", "chip", "uid", "ndef", chip.section].contains(key) {
            throw TagFileError("unknown field for chip \(chip.name)", field: key)
        }
        guard root.contains(chip.section) else {
            return try chip.factory(uid, try root.optionalHex("ndef"))
        }
        if root.contains("ndef") {
            throw TagFileError("give either a '\(chip.section)' section or an 'ndef' message, not both", field: "ndef")
        }
        return try chip.decode(root, try root.object(chip.section), uid)
    }

    /// The JSON tag file of `tag` (indented, ending with a newline).
    public static func encodeJSON(_ tag: any VirtualTag) throws(TagFileError) -> String {
        guard let chip = chip(for: tag), let section = chip.encode(tag) else {
            throw TagFileError("chip '\(tag.chip)' cannot be saved to a tag file")
        }
        let root = JSONValue.object([
            ("format", .string(formatName)),
            ("version", .int(formatVersion)),
            ("chip", .string(chip.name)),
            // A DESFire with random ID shows a random UID; its file keeps the real one.
            ("uid", .string(Hex.encode((tag as? DESFireEV1Tag)?.realActivation.uid ?? tag.activation.uid))),
            (chip.section, section),
        ])
        return root.pretty + "\n"
    }

    /// The registered chip `name`, or an error saying which chips exist.
    /// A text tag file's text: strict UTF-8, naming the byte offset and line of the first byte that is not.
    /// A leading byte order mark is skipped (RFC 8259 §8.1 lets a parser ignore it).
    static func utf8(_ data: Data) throws(TagFileError) -> String {
        do throws(UTF8Text.Invalid) {
            var text = try UTF8Text.decode([UInt8](data))
            if text.unicodeScalars.first == "\u{FEFF}" { text.unicodeScalars.removeFirst() }
            return text
        } catch {
            throw TagFileError("\(error)")
        }
    }

    static func registered(_ name: String, field: String? = nil) throws(TagFileError) -> TagFileChip {
        if let chip = chip(named: name) { return chip }
        if let reason = plannedChips[name] { throw TagFileError("chip '\(name)': \(reason)", field: field) }
        throw TagFileError(
            "unknown chip '\(name)' (known: \(chips.map(\.name).joined(separator: ", ")))", field: field)
    }

    // MARK: NDEF

    /// The NDEF message the tag holds, nil when it holds none (not formatted, empty TLV, unknown chip).
    public static func ndefMessage(of tag: any VirtualTag) -> [UInt8]? {
        chip(for: tag)?.ndefMessage(tag)
    }

    /// A factory-fresh chip `chipName` holding the raw NDEF message `message`.
    public static func factory(chip chipName: String, uid: [UInt8], holding message: [UInt8]?) throws(TagFileError)
        -> any VirtualTag
    {
        let chip = try registered(chipName)
        if let problem = chip.newUIDProblem(uid) { throw TagFileError(problem) }
        return try chip.factory(uid, message)
    }

    // MARK: Files

    /// Reads a tag file in the format its extension names. A `.ndef` file becomes a factory `ndefChip` (UID `uid`,
    /// default a fixed NXP UID) holding the message.
    public static func read(
        path: String, ndefChip: String = "ntag215", uid: [UInt8]? = nil
    ) throws(TagFileError) -> any VirtualTag {
        guard let format = Format(path: path) else {
            throw TagFileError("unknown extension: use .json, .nfc, .ndef, .eml, .bin or .mfd", file: path)
        }
        let data: Data
        do {
            data = Data(try FileAccess.contents(of: path))
        } catch {
            throw TagFileError("cannot read: \(error.reason)", file: path)
        }
        do throws(TagFileError) {
            switch format {
            case .json:
                let text = try utf8(data)
                if let json = try? JSONValue(parsing: text), ProxmarkDumpFile.isProxmarkJSON(json) {
                    return try ProxmarkDumpFile.decodeJSON(json)
                }
                return try decodeJSON(text)
            case .flipper:
                let text = try utf8(data)
                return try FlipperNFCFile.decodeAnyChip(text)
            case .ndef:
                let chip = try registered(ndefChip)
                let id = uid ?? chip.uidPrefix + [UInt8](repeating: 0x00, count: chip.uidLength - chip.uidPrefix.count)
                return try factory(chip: ndefChip, uid: id, holding: [UInt8](data))
            case .eml:
                let text = try utf8(data)
                return try ProxmarkDumpFile.decodeEML(text)
            case .bin, .mfd: return try ProxmarkDumpFile.decodeBinary([UInt8](data))
            }
        } catch {
            throw error.inFile(path)
        }
    }

    /// The bytes of `tag` in `format`.
    package static func encode(_ tag: any VirtualTag, as format: Format) throws(TagFileError) -> [UInt8] {
        switch format {
        case .json: return Array(try encodeJSON(tag).utf8)
        case .flipper: return Array(try FlipperNFCFile.encode(tag).utf8)
        case .ndef:
            guard let message = ndefMessage(of: tag) else {
                throw TagFileError("the tag holds no NDEF message to save as .ndef")
            }
            return message
        case .eml: return Array(try ProxmarkDumpFile.encodeEML(tag).utf8)
        case .bin, .mfd: return try ProxmarkDumpFile.encodeBinary(tag)
        }
    }

    /// Writes `tag` in the format the extension names, atomically (a temporary file in the same directory, then a
    /// rename), so a reader never sees half a file.
    public static func write(_ tag: any VirtualTag, path: String) throws(TagFileError) {
        guard let format = Format(path: path) else {
            throw TagFileError("unknown extension: use .json, .nfc, .ndef, .eml, .bin or .mfd", file: path)
        }
        let bytes: [UInt8]
        do {
            bytes = try encode(tag, as: format)
        } catch {
            throw error.inFile(path)
        }
        try writeAtomically(bytes, to: path)
    }

    /// Writes `bytes` to `path` through a temporary file in the same directory and `rename(2)`.
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(TagFileError) {
        do {
            try FileAccess.writeAtomically(bytes, to: path)
        } catch {
            throw TagFileError("cannot write: \(error.reason)", file: path)
        }
    }
}
