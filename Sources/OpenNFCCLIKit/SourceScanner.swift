import Foundation
import OpenNFCBytes

/// Reads `.swift`, `.m` and `.mm` files under a directory and collects ``SourceFacts``.
///
/// This is a static reading, not a compiler: it recognises the ways Core NFC code is written in practice (Apple's
/// samples, the common open-source apps) — `NFCTagReaderSession(pollingOption: [.iso14443], …)`,
/// `NFCISO7816APDU(instructionClass: 0, instructionCode: 0xA4, p1Parameter: 4, …, data: Data([...]), …)`, raw APDU
/// byte arrays or hex strings starting `00 A4 04`, `polling(systemCode: Data([0x12, 0xFC]), …)`, and the Objective-C
/// spellings. A byte argument given by name is looked up once in the same file (`let aid = Data([...])`); when it
/// cannot be resolved the SELECT is still reported, with an unknown AID.
package struct SourceScanner {
    package static let extensions: Set<String> = ["swift", "m", "mm", "h"]

    /// Scans every source file below `directory` (sorted, hidden directories and `.build` skipped).
    /// `displayRoot` prefixes the reported paths (the directory as the user typed it).
    package static func scan(directory: String) throws -> SourceFacts {
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDir) else {
            throw CLIError.failure("sources directory '\(directory)' does not exist")
        }
        var facts = SourceFacts()
        guard isDir.boolValue else {
            try scan(file: directory, into: &facts)
            return facts
        }
        let base = URL(fileURLWithPath: directory)
        guard
            let walker = FileManager.default.enumerator(
                at: base, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles])
        else { throw CLIError.failure("cannot list the sources directory '\(directory)'") }
        var files: [String] = []
        for case let url as URL in walker {
            let name = url.lastPathComponent
            if name == ".build" || name == "Pods" || name == "DerivedData" {
                walker.skipDescendants()
                continue
            }
            if extensions.contains(url.pathExtension) {
                let rel = String(url.path.dropFirst(base.path.count).drop { $0 == "/" })
                files.append(directory.hasSuffix("/") ? directory + rel : directory + "/" + rel)
            }
        }
        for f in files.sorted() { try scan(file: f, into: &facts) }
        return facts
    }

    package static func scan(file: String, into facts: inout SourceFacts) throws {
        guard let data = FileManager.default.contents(atPath: file) else {
            throw CLIError.failure("cannot read source file '\(file)'")
        }
        let text = String(decoding: data, as: UTF8.self)
        facts.filesScanned += 1
        SourceScanner(file: file, tokens: SourceTokenizer.tokenize(text)).collect(into: &facts)
    }

    package let file: String
    package let tokens: [SourceToken]

    /// For each opening bracket token, the index of the bracket closing it (any kind: `(`, `[`, `{` nest
    /// together), or the last token when none does; worked out once so that every lookup is constant time and a
    /// scan stays linear in the file however deeply its brackets nest.
    private let closing: [Int: Int]

    package init(file: String, tokens: [SourceToken]) {
        self.file = file
        self.tokens = tokens
        var closing: [Int: Int] = [:]
        var open: [Int] = []
        for (i, t) in tokens.enumerated() where t.kind == .punctuation {
            switch t.text {
            case "(", "[", "{": open.append(i)
            case ")", "]", "}": if let o = open.popLast() { closing[o] = i }
            default: break
            }
        }
        for o in open { closing[o] = tokens.count - 1 }
        self.closing = closing
    }

    private func loc(_ i: Int) -> SourceLocation {
        SourceLocation(file: file, line: tokens[i].line, column: tokens[i].column)
    }

    private static let objcPolling: [String: String] = [
        "NFCPollingISO14443": "iso14443", "NFCPollingISO15693": "iso15693", "NFCPollingISO18092": "iso18092",
        "NFCPollingPACE": "pace",
    ]
    private static let pollingNames: Set<String> = ["iso14443", "iso15693", "iso18092", "pace"]

    package func collect(into facts: inout SourceFacts) {
        var selectsSeen = Set<String>()
        func addSelect(_ aid: [UInt8]?, at i: Int) {
            let key = "\(tokens[i].line):\(aid?.hexString ?? "?")"
            if selectsSeen.insert(key).inserted {
                facts.selects.append(SourceFacts.Select(aid: aid, location: loc(i)))
            }
        }
        // Polling options mentioned anywhere in the file: used when a session's options are passed by name.
        var fileOptions = Set<String>()
        for (i, t) in tokens.enumerated() {
            if t.kind == .identifier, Self.pollingNames.contains(t.text), i > 0, tokens[i - 1].isPunctuation(".") {
                fileOptions.insert(t.text)
            }
            if t.kind == .identifier, let o = Self.objcPolling[t.text] { fileOptions.insert(o) }
        }

        for (i, t) in tokens.enumerated() {
            switch t.kind {
            case .identifier:
                let next = i + 1 < tokens.count ? tokens[i + 1] : nil
                let isCall = next?.isPunctuation("(") == true || next?.isIdentifier("alloc") == true
                if let kind = SourceFacts.SessionKind(rawValue: t.text), isCall,
                    !(i > 0 && tokens[i - 1].isPunctuation("."))
                {
                    var options = Set<String>()
                    if kind == .tag {
                        options = pollingOptions(ofCallAt: i + 1)
                        if options.isEmpty { options = fileOptions }
                    }
                    facts.sessions.append(SourceFacts.Session(kind: kind, location: loc(i), pollingOptions: options))
                }
                if t.text == "NFCISO7816APDU", next?.isPunctuation("(") == true {
                    if let aid = selectAID(ofLabelledAPDUAt: i + 1) { addSelect(aid, at: i) }
                }
                if t.text == "polling", next?.isPunctuation("(") == true,
                    let arg = arguments(ofCallAt: i + 1).first(where: { $0.label == "systemCode" })
                {
                    facts.feliCaPolls.append(SourceFacts.FeliCaPoll(systemCode: bytes(in: arg.range), location: loc(i)))
                }
                if t.text == "sendMiFareCommand", next?.isPunctuation("(") == true,
                    let arg = arguments(ofCallAt: i + 1).first,
                    let first = bytes(in: arg.range)?.first, first == 0x60 || first == 0x61
                {
                    facts.classicExpectations.append(
                        SourceFacts.Mention(
                            what: "a MIFARE Classic AUTHENTICATE command (0x\(Hex.encode([first])))", location: loc(i)))
                }
                if t.text.lowercased().contains("mifareclassic") {
                    facts.classicExpectations.append(SourceFacts.Mention(what: "'\(t.text)'", location: loc(i)))
                }
                if facts.iso7816Use == nil,
                    t.text == "NFCISO7816Tag"
                        || (t.text == "iso7816" && i > 0 && tokens[i - 1].isPunctuation(".")
                            && next?.isPunctuation("(") == true)
                {
                    facts.iso7816Use = loc(i)
                }
                if facts.feliCaUse == nil,
                    t.text == "NFCFeliCaTag"
                        || (t.text == "feliCa" && i > 0 && tokens[i - 1].isPunctuation(".")
                            && next?.isPunctuation("(") == true)
                {
                    facts.feliCaUse = loc(i)
                }
            case .punctuation where t.text == "[":
                if let list = integerList(at: i), let aid = Self.selectAID(inAPDU: list) { addSelect(aid, at: i) }
            case .string:
                if let b = Self.hexBytes(t.text), let aid = Self.selectAID(inAPDU: b) { addSelect(aid, at: i) }
            default:
                break
            }
        }
    }

    // MARK: Calls and arguments

    /// Index of the bracket closing the one at `open`, or the last token.
    package func matchingClose(_ open: Int) -> Int { closing[open] ?? tokens.count - 1 }

    package struct Argument {
        package var label: String?
        package var range: Range<Int>
    }

    /// The arguments of the call whose `(` is at `open`, split at top-level commas, with their labels.
    package func arguments(ofCallAt open: Int) -> [Argument] {
        guard open < tokens.count, tokens[open].isPunctuation("(") else { return [] }
        let close = matchingClose(open)
        var args: [Argument] = []
        var start = open + 1
        var i = open + 1
        while i <= close {
            let t = tokens[i]
            if t.kind == .punctuation && (t.text == "(" || t.text == "[" || t.text == "{") {
                i = matchingClose(i) + 1
                continue
            }
            if i == close || t.isPunctuation(",") {
                if start < i {
                    if i - start >= 2, tokens[start].kind == .identifier, tokens[start + 1].isPunctuation(":") {
                        args.append(Argument(label: tokens[start].text, range: (start + 2)..<i))
                    } else {
                        args.append(Argument(label: nil, range: start..<i))
                    }
                }
                start = i + 1
            }
            i += 1
        }
        return args
    }

    private func pollingOptions(ofCallAt open: Int) -> Set<String> {
        var found = Set<String>()
        for a in arguments(ofCallAt: open) where a.label == "pollingOption" || a.label == nil {
            for j in a.range {
                let t = tokens[j]
                if t.kind == .identifier, Self.pollingNames.contains(t.text), j > 0, tokens[j - 1].isPunctuation(".") {
                    found.insert(t.text)
                }
                if t.kind == .identifier, let o = Self.objcPolling[t.text] { found.insert(o) }
            }
        }
        return found
    }

    /// The AID of `NFCISO7816APDU(instructionClass:instructionCode:p1Parameter:p2Parameter:data:…)` when it is a
    /// SELECT by name (INS A4, P1 04).
    private func selectAID(ofLabelledAPDUAt open: Int) -> [UInt8]?? {
        let args = arguments(ofCallAt: open)
        func int(_ label: String) -> Int? {
            guard let a = args.first(where: { $0.label == label }), a.range.count == 1 else { return nil }
            return tokens[a.range.lowerBound].integerValue
        }
        guard int("instructionCode") == 0xA4, int("p1Parameter") == 0x04 else { return nil }
        guard let data = args.first(where: { $0.label == "data" }) else { return .some(nil) }
        return .some(bytes(in: data.range))
    }

    // MARK: Byte values

    /// The bytes an expression spells: an integer array literal, a hex string literal, or a name bound in this file
    /// to one of those (looked up once).
    package func bytes(in range: Range<Int>, resolving: Bool = true) -> [UInt8]? {
        var i = range.lowerBound
        while i < range.upperBound {
            let t = tokens[i]
            if t.isPunctuation("["), let list = integerList(at: i) { return list }
            if t.kind == .string, let b = Self.hexBytes(t.text) { return b }
            if t.kind == .number, range.count == 1, let v = t.integerValue, (0...255).contains(v) { return [UInt8(v)] }
            i += 1
        }
        if resolving, range.count == 1, tokens[range.lowerBound].kind == .identifier {
            return resolve(tokens[range.lowerBound].text)
        }
        return nil
    }

    /// Finds `let|var name … = <expr>` in this file and evaluates the expression.
    private func resolve(_ name: String) -> [UInt8]? {
        for i in tokens.indices where tokens[i].isIdentifier("let") || tokens[i].isIdentifier("var") {
            guard i + 1 < tokens.count, tokens[i + 1].isIdentifier(name) else { continue }
            var j = i + 2
            while j < tokens.count, !tokens[j].isPunctuation("="), j < i + 12 { j += 1 }
            guard j < tokens.count, tokens[j].isPunctuation("=") else { continue }
            let line = tokens[j].line
            var end = j + 1
            while end < tokens.count, tokens[end].line == line || tokens[end].isPunctuation("]") {
                if tokens[end].isPunctuation("(") || tokens[end].isPunctuation("[") {
                    end = matchingClose(end)
                }
                end += 1
            }
            return bytes(in: (j + 1)..<min(end, tokens.count), resolving: false)
        }
        return nil
    }

    /// `[0x00, 0xA4, …]` at `open`: the bytes when every element is an integer 0…255.
    package func integerList(at open: Int) -> [UInt8]? {
        guard tokens[open].isPunctuation("[") else { return nil }
        let close = matchingClose(open)
        // An unclosed `[` as the file's last token closes at itself: no elements.
        guard close > open else { return nil }
        var out: [UInt8] = []
        var expectValue = true
        for t in tokens[(open + 1)..<close] {
            if expectValue {
                guard let v = t.integerValue, (0...255).contains(v) else { return nil }
                out.append(UInt8(v))
                expectValue = false
            } else {
                guard t.isPunctuation(",") else { return nil }
                expectValue = true
            }
        }
        return out.isEmpty ? nil : out
    }

    /// A string literal made only of hex digits (and spaces), at least one byte.
    package static func hexBytes(_ text: String) -> [UInt8]? {
        guard text.count >= 2, text.allSatisfy({ $0.isHexDigit || $0 == " " }) else { return nil }
        // Spaces alone are no bytes (they were read as an empty AID).
        guard let bytes = try? Hex.decode(text), !bytes.isEmpty else { return nil }
        return bytes
    }

    /// The AID of a SELECT-by-name command APDU (`CLA A4 04 P2 Lc AID…`), nil if `apdu` is not one.
    package static func selectAID(inAPDU apdu: [UInt8]) -> [UInt8]? {
        guard apdu.count >= 6, apdu[0] & 0xF0 == 0x00, apdu[1] == 0xA4, apdu[2] == 0x04 else { return nil }
        let lc = Int(apdu[4])
        guard lc >= 1, apdu.count >= 5 + lc else { return nil }
        return Array(apdu[5..<(5 + lc)])
    }
}
