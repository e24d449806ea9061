import OpenNFCBytes
import OpenNFCNDEF

/// The record flags of `opennfc ndef encode`, reusable verbatim by any command that builds an NDEF message
/// (`opennfc write`): declare ``options`` on the command and call ``message(from:)``.
///
/// Records are built in the order the flags were given. Modifiers attach to the record before them:
/// `--lang` to the last `--text` or `--title`, `--data-hex` to the last `--mime` or `--external`, `--title` to the
/// last `--smart-poster`.
enum NDEFRecordFlags {
    static let options: [Command.Option] = [
        .init(name: "text", value: "<text>", help: "Add a Text record (UTF-8).", repeatable: true),
        .init(
            name: "lang", value: "<code>", help: "Language of the preceding --text or --title (default en).",
            repeatable: true),
        .init(
            name: "uri", value: "<uri>", help: "Add a URI record (longest matching prefix abbreviated).",
            repeatable: true),
        .init(name: "mime", value: "<type>", help: "Add a MIME record of this type/subtype.", repeatable: true),
        .init(
            name: "external", value: "<domain:type>", help: "Add an NFC Forum external type record.",
            repeatable: true),
        .init(
            name: "data-hex", value: "<hex>", help: "Payload of the preceding --mime or --external record.",
            repeatable: true),
        .init(
            name: "absolute-uri", value: "<uri>", help: "Add an absolute-URI record (TNF 3, empty payload).",
            repeatable: true),
        .init(name: "smart-poster", value: "<uri>", help: "Add a Smart Poster for this URI.", repeatable: true),
        .init(name: "title", value: "<text>", help: "Title of the preceding --smart-poster.", repeatable: true),
        .init(
            name: "raw", value: "<tnf>:<type-hex>:<id-hex>:<payload-hex>",
            help: "Add a record field by field (TNF 0-5; hex may be empty).", repeatable: true),
        .init(
            name: "chunk-size", value: "<n>",
            help: "Payload bytes per chunk; records with longer payloads are chunked (default: no chunking)."),
    ]

    /// Names of the options that start a record.
    static let recordStarters: Set<String> = ["text", "uri", "mime", "external", "absolute-uri", "smart-poster", "raw"]

    /// True when the invocation names at least one record.
    static func hasRecords(_ inv: Invocation) -> Bool {
        inv.occurrences.contains { recordStarters.contains($0.name) }
    }

    /// A record being assembled from its flag and modifiers.
    private enum Draft {
        case text(String, lang: String?)
        case uri(String)
        case mime(String, data: [UInt8]?)
        case external(String, data: [UInt8]?)
        case absoluteURI(String)
        case smartPoster(String, titles: [(text: String, lang: String?)])
        case raw(NDEFRecord)
    }

    /// The message the flags describe, encoded with `--chunk-size`. Usage errors (exit 64) name the flag at fault.
    static func message(from inv: Invocation) throws -> [UInt8] {
        let records = try records(from: inv)
        guard !records.isEmpty else {
            throw CLIError.usage(
                "give at least one record: --text, --uri, --mime, --external, --absolute-uri, --smart-poster or --raw")
        }
        let chunk = try inv.int("chunk-size", default: 0, range: 1...Int(UInt32.max))
        return NDEFMessage(records: records).encoded(chunkSize: chunk)
    }

    /// The records the flags describe, in order.
    static func records(from inv: Invocation) throws -> [NDEFRecord] {
        var drafts: [Draft] = []
        for (name, value) in inv.occurrences {
            let v = value ?? ""
            switch name {
            case "text": drafts.append(.text(v, lang: nil))
            case "uri": drafts.append(.uri(v))
            case "mime": drafts.append(.mime(v, data: nil))
            case "external": drafts.append(.external(v, data: nil))
            case "absolute-uri": drafts.append(.absoluteURI(v))
            case "smart-poster": drafts.append(.smartPoster(v, titles: []))
            case "raw": drafts.append(.raw(try raw(v)))
            case "lang":
                switch drafts.last {
                case .text(let t, nil)?: drafts[drafts.count - 1] = .text(t, lang: v)
                case .smartPoster(let u, var titles)? where titles.last.map({ $0.lang == nil }) == true:
                    titles[titles.count - 1].lang = v
                    drafts[drafts.count - 1] = .smartPoster(u, titles: titles)
                default: throw CLIError.usage("--lang '\(v)' must follow a --text or --title")
                }
            case "title":
                guard case .smartPoster(let u, var titles)? = drafts.last else {
                    throw CLIError.usage("--title '\(v)' must follow a --smart-poster")
                }
                titles.append((v, nil))
                drafts[drafts.count - 1] = .smartPoster(u, titles: titles)
            case "data-hex":
                let data = try hexValue(v, option: "data-hex")
                switch drafts.last {
                case .mime(let t, nil)?: drafts[drafts.count - 1] = .mime(t, data: data)
                case .external(let t, nil)?: drafts[drafts.count - 1] = .external(t, data: data)
                default: throw CLIError.usage("--data-hex must follow a --mime or --external (once per record)")
                }
            default: continue
            }
        }
        return try drafts.map(build)
    }

    private static func build(_ d: Draft) throws -> NDEFRecord {
        func usage(_ flag: String, _ value: String, _ e: NDEFError) -> CLIError {
            CLIError.usage("--\(flag) '\(value)': \(e.code.rawValue)")
        }
        switch d {
        case .text(let t, let lang):
            do { return try NDEFTextRecord(text: t, language: lang ?? "en").record() } catch {
                throw CLIError.usage("--lang '\(lang ?? "")': a language code is 1-63 ASCII characters")
            }
        case .uri(let u):
            if let problem = URIRule.problem(u) { throw CLIError.usage("--uri '\(u)': \(problem)") }
            return try NDEFURIRecord(uri: u).record()
        case .mime(let t, let data):
            do { return try NDEFMIMERecord(mediaType: t, data: data ?? []).record() } catch {
                throw usage("mime", t, error)
            }
        case .external(let t, let data):
            guard let (domain, name) = NDEFExternalRecord.parse(Array(t.utf8)) else {
                throw CLIError.usage("--external '\(t)': not domain:type")
            }
            do { return try NDEFExternalRecord(domain: domain, name: name, data: data ?? []).record() } catch {
                throw usage("external", t, error)
            }
        case .absoluteURI(let u):
            do { return try NDEFAbsoluteURIRecord(uri: u).record() } catch { throw usage("absolute-uri", u, error) }
        case .smartPoster(let u, let titles):
            if let problem = URIRule.problem(u) { throw CLIError.usage("--smart-poster '\(u)': \(problem)") }
            var sp = NDEFSmartPosterRecord(uri: u)
            sp.titles = titles.map { NDEFTextRecord(text: $0.text, language: $0.lang ?? "en") }
            do { return try sp.record() } catch {
                throw CLIError.usage("--smart-poster '\(u)': \(error.code.rawValue) (check each --title's --lang)")
            }
        case .raw(let r): return r
        }
    }

    /// `<tnf>:<type-hex>:<id-hex>:<payload-hex>`.
    private static func raw(_ v: String) throws -> NDEFRecord {
        let parts = v.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4, let tnfValue = UInt8(parts[0]), let tnf = NDEFRecord.TypeNameFormat(rawValue: tnfValue)
        else { throw CLIError.usage("--raw '\(v)': expected <tnf 0-7>:<type-hex>:<id-hex>:<payload-hex>") }
        let type = try hexValue(parts[1], option: "raw")
        let id = try hexValue(parts[2], option: "raw")
        let payload = try hexValue(parts[3], option: "raw")
        do { return try NDEFRecord(tnf: tnf, type: type, id: id, payload: payload) } catch {
            throw CLIError.usage("--raw '\(v)': \(error.code.rawValue)")
        }
    }

    static func hexValue(_ v: String, option: String) throws -> [UInt8] {
        do { return try Hex.decode(v) } catch { throw CLIError.usage("--\(option): \(error)") }
    }
}
