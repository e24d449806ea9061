internal import OpenNFCSystem

/// XML and binary property lists (`Info.plist`, `.entitlements`) and the app configuration read from them.
///
/// Invariants: a parsed list re-encodes in binary and XML to bytes that parse to an equal list (XML dates to the
/// second; lists holding NaN are only re-parsed, NaN never being equal to itself); an error's line or
/// offset points inside the file; the configuration read from the list as Info.plist and as entitlements, in both
/// device profiles, either loads or fails with a message.
enum PropertyListFuzz {
    static let target = FuzzTarget(
        "plist", "XML and binary property lists, Info.plist and entitlements configuration", seeds: seeds, run: run)

    static func run(_ data: [UInt8]) {
        let list: PropertyList
        do {
            list = try PropertyList(decoding: data)
        } catch {
            if let offset = error.offset { fuzzRequire(offset >= 0 && offset <= data.count, "offset \(offset)") }
            if let line = error.line {
                let lines = data.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
                fuzzRequire(line >= 1 && line <= lines + 1, "line \(line) of \(lines)")
            }
            fuzzRequire(!error.message.isEmpty, "a property-list error without a message")
            return
        }
        let comparable = !containsNaN(list)
        do {
            let back = try PropertyList(decoding: list.binaryEncoded)
            if comparable { fuzzRequire(back == list, "binary re-encoding changes the list") }
        } catch {
            fuzzRequire(false, "binary re-encoding is rejected: \(error)")
        }
        // XML dates are ISO 8601 to the second (`YYYY-MM-DDTHH:MM:SSZ`, as Apple's XML plists write them): the XML
        // form keeps whole seconds, and only dates (years 0000–9999) and strings (XML 1.0 characters) the form can
        // hold are compared.
        if let wholeSeconds = wholeSecondDates(list) {
            do {
                let back = try PropertyList(decoding: list.xmlEncoded)
                if comparable { fuzzRequire(back == wholeSeconds, "XML re-encoding changes the list") }
            } catch {
                fuzzRequire(false, "XML re-encoding is rejected: \(error)")
            }
        }
        for profile in DeviceProfile.allCases {
            do {
                _ = try AppConfiguration(infoPlist: list, entitlements: nil, profile: profile)
            } catch {
                fuzzRequire(!error.message.isEmpty, "a configuration error without a message")
            }
            do {
                _ = try AppConfiguration(infoPlist: nil, entitlements: list, profile: profile)
            } catch {
                fuzzRequire(!error.message.isEmpty, "a configuration error without a message")
            }
        }
    }

    /// `p` with every date rounded down to the second; nil when a date is beyond what the XML writer prints.
    static func wholeSecondDates(_ p: PropertyList) -> PropertyList? {
        switch p {
        case .date(let d):
            guard PropertyList.xmlDateRange.contains(d) else { return nil }
            return .date(d.rounded(.down))
        case .array(let a):
            var out: [PropertyList] = []
            for v in a {
                guard let w = wholeSecondDates(v) else { return nil }
                out.append(w)
            }
            return .array(out)
        case .dictionary(let d):
            var out: [(key: String, value: PropertyList)] = []
            for (k, v) in d {
                guard xmlCanHold(k), let w = wholeSecondDates(v) else { return nil }
                out.append((key: k, value: w))
            }
            return .dictionary(out)
        case .string(let t): return xmlCanHold(t) ? p : nil
        default: return p
        }
    }

    /// XML 1.0 §2.2 `Char`: what an XML property list can hold at all; a binary one holds any string (U+0000 too),
    /// so such a list has no XML form to compare.
    static func xmlCanHold(_ t: String) -> Bool {
        t.unicodeScalars.allSatisfy { c in
            let v = c.value
            return v == 0x9 || v == 0xA || v == 0xD || (0x20...0xD7FF).contains(v) || (0xE000...0xFFFD).contains(v)
                || v >= 0x10000
        }
    }

    static func containsNaN(_ p: PropertyList) -> Bool {
        switch p {
        case .real(let r), .date(let r): return r.isNaN
        case .array(let a): return a.contains(where: containsNaN)
        case .dictionary(let d): return d.contains { containsNaN($0.value) }
        default: return false
        }
    }

    /// An Info.plist and an entitlements file as an app declares them, each in both forms.
    static func seeds() -> [[UInt8]] {
        let info = PropertyList.dictionary([
            (key: "NFCReaderUsageDescription", value: .string("Reads tags & <labels>")),
            (
                key: "com.apple.developer.nfc.readersession.iso7816.select-identifiers",
                value: .array([.string("D2760000850101"), .string("A000000003")])
            ),
            (key: "com.apple.developer.nfc.readersession.felica.systemcodes", value: .array([.string("12FC")])),
            (key: "CFBundleVersion", value: .integer(42)),
            (key: "Ratio", value: .real(1.5)),
            (key: "Built", value: .date(700_000_000)),
            (key: "Blob", value: .data([0, 1, 2, 0xFF])),
            (key: "Flag", value: .bool(true)),
            (key: "Ünicode", value: .string("é✓")),
        ])
        let entitlements = PropertyList.dictionary([
            (
                key: "com.apple.developer.nfc.readersession.formats",
                value: .array([.string("NDEF"), .string("TAG")])
            ),
            (key: "com.apple.developer.associated-domains", value: .array([.string("applinks:example.com")])),
        ])
        return [info.xmlEncoded, info.binaryEncoded, entitlements.xmlEncoded, entitlements.binaryEncoded]
    }
}
