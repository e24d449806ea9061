internal import Foundation

/// An app's NFC configuration, as iOS reads it from the signed entitlements and the Info.plist (Apple's Core NFC documentation; docs/PARITY.md §13).
///
/// Set it in code, or read it from real `.entitlements` / `Info.plist` files (XML or binary) with
/// ``init(infoPlist:entitlements:profile:)``.
public struct AppConfiguration: Sendable, Hashable {
    public static let formatsKey = "com.apple.developer.nfc.readersession.formats"
    public static let usageDescriptionKey = "NFCReaderUsageDescription"
    public static let selectIdentifiersKey = "com.apple.developer.nfc.readersession.iso7816.select-identifiers"
    public static let systemCodesKey = "com.apple.developer.nfc.readersession.felica.systemcodes"
    public static let associatedDomainsKey = "com.apple.developer.associated-domains"
    /// The iOS 11 entitlement of the legacy ISO 15693 calls (docs/DIFFERENCES.md "iOS 11 ISO 15693 calls").
    public static let iso15693TagIdentifiersKey = "com.apple.developer.nfc.readersession.iso15693.tag-identifiers"
    public static let hceKey = "com.apple.developer.nfc.hce"
    public static let hcePrefixesKey = "com.apple.developer.nfc.hce.iso7816.select-identifier-prefixes"
    public static let hceDefaultContactlessAppKey = "com.apple.developer.nfc.hce.default-contactless-app"

    public var profile: DeviceProfile
    /// `com.apple.developer.nfc.readersession.formats`: `NDEF`, `TAG`, `PACE`.
    public var readerSessionFormats: [String]
    /// `NFCReaderUsageDescription`; nil when absent.
    public var usageDescription: String?
    /// `com.apple.developer.nfc.readersession.iso7816.select-identifiers`, as written in the plist.
    public var iso7816SelectIdentifiers: [String]
    /// `com.apple.developer.nfc.readersession.felica.systemcodes`, as written in the plist.
    public var felicaSystemCodes: [String]
    /// `com.apple.developer.associated-domains` from the entitlements (`applinks:example.com`, `webcredentials:…`).
    public var associatedDomains: [String] = []
    /// `com.apple.developer.nfc.readersession.iso15693.tag-identifiers` from the entitlements, as written. Read and
    /// kept, but it changes nothing: a current iOS refuses the iOS 11 calls it enabled on every delivered tag.
    public var iso15693TagIdentifiers: [String] = []
    /// `com.apple.developer.nfc.hce`: the app may create a `CardSession` (host card emulation, iOS 17.4).
    public var hostCardEmulation = false
    /// `com.apple.developer.nfc.hce.iso7816.select-identifier-prefixes`, as written in the entitlements: the AIDs
    /// (or RIDs, or prefixes at least RID-long) whose SELECT reaches the app's `CardSession`.
    public var hceSelectIdentifierPrefixes: [String] = []
    /// `com.apple.developer.nfc.hce.default-contactless-app`: the app may be chosen as the default contactless app.
    public var hceDefaultContactlessApp = false

    /// The domains of the `applinks:` entries: what background tag reading's universal links match.
    public var appLinkDomains: [String] {
        associatedDomains.compactMap { $0.hasPrefix("applinks:") ? String($0.dropFirst("applinks:".count)) : nil }
    }

    public init(
        profile: DeviceProfile = .iphone, readerSessionFormats: [String] = ["NDEF", "TAG"],
        usageDescription: String? = "Reads and writes NFC tags.", iso7816SelectIdentifiers: [String] = [],
        felicaSystemCodes: [String] = []
    ) {
        self.profile = profile
        self.readerSessionFormats = readerSessionFormats
        self.usageDescription = usageDescription
        self.iso7816SelectIdentifiers = iso7816SelectIdentifiers
        self.felicaSystemCodes = felicaSystemCodes
    }

    /// A configuration with nothing declared (what an app without NFC set-up has).
    public static func empty(_ profile: DeviceProfile) -> AppConfiguration {
        AppConfiguration(profile: profile, readerSessionFormats: [], usageDescription: nil)
    }

    /// Reads the configuration from parsed property lists (either may be missing).
    public init(infoPlist: PropertyList?, entitlements: PropertyList?, profile: DeviceProfile)
        throws(ConfigurationError)
    {
        self = .empty(profile)
        if let e = entitlements {
            guard case .dictionary = e else {
                throw ConfigurationError("entitlements: the top level is not a dictionary")
            }
            if let f = e[Self.formatsKey] {
                readerSessionFormats = try Self.strings(f, key: Self.formatsKey, file: "entitlements")
            }
            if let d = e[Self.associatedDomainsKey] {
                associatedDomains = try Self.strings(d, key: Self.associatedDomainsKey, file: "entitlements")
            }
            if let t = e[Self.iso15693TagIdentifiersKey] {
                iso15693TagIdentifiers = try Self.strings(
                    t, key: Self.iso15693TagIdentifiersKey, file: "entitlements")
            }
            hostCardEmulation = try Self.bool(e[Self.hceKey], key: Self.hceKey)
            if let p = e[Self.hcePrefixesKey] {
                hceSelectIdentifierPrefixes = try Self.strings(p, key: Self.hcePrefixesKey, file: "entitlements")
            }
            hceDefaultContactlessApp = try Self.bool(
                e[Self.hceDefaultContactlessAppKey], key: Self.hceDefaultContactlessAppKey)
        }
        if let p = infoPlist {
            guard case .dictionary = p else {
                throw ConfigurationError("Info.plist: the top level is not a dictionary")
            }
            if let u = p[Self.usageDescriptionKey] {
                guard let s = u.stringValue else {
                    throw ConfigurationError("Info.plist: \(Self.usageDescriptionKey) is not a string")
                }
                usageDescription = s
            }
            if let a = p[Self.selectIdentifiersKey] {
                iso7816SelectIdentifiers = try Self.strings(a, key: Self.selectIdentifiersKey, file: "Info.plist")
            }
            if let c = p[Self.systemCodesKey] {
                felicaSystemCodes = try Self.strings(c, key: Self.systemCodesKey, file: "Info.plist")
            }
        }
    }

    /// Reads `Info.plist` and `.entitlements` files (XML or binary); nil paths are treated as absent files.
    public init(infoPlistPath: String?, entitlementsPath: String?, profile: DeviceProfile) throws(ConfigurationError) {
        func load(_ path: String?) throws(ConfigurationError) -> PropertyList? {
            guard let path else { return nil }
            guard let data = FileManager.default.contents(atPath: path) else {
                throw ConfigurationError("\(path): cannot read the file")
            }
            do {
                return try PropertyList(decoding: [UInt8](data))
            } catch {
                throw ConfigurationError("\(path): \(error)")
            }
        }
        try self.init(infoPlist: load(infoPlistPath), entitlements: load(entitlementsPath), profile: profile)
    }

    private static func bool(_ v: PropertyList?, key: String) throws(ConfigurationError) -> Bool {
        guard let v else { return false }
        guard let b = v.boolValue else { throw ConfigurationError("entitlements: \(key) is not a Boolean") }
        return b
    }

    private static func strings(_ v: PropertyList, key: String, file: String) throws(ConfigurationError) -> [String] {
        guard let items = v.arrayValue else { throw ConfigurationError("\(file): \(key) is not an array") }
        var out: [String] = []
        for (k, item) in items.enumerated() {
            guard let s = item.stringValue else { throw ConfigurationError("\(file): \(key)[\(k)] is not a string") }
            out.append(s)
        }
        return out
    }

    // MARK: derived rules

    /// The AIDs iOS accepts from the list, in order: hex strings of 5…16 bytes (ISO/IEC 7816-4 §8.2.1.2);
    /// other entries are skipped as iOS skips invalid entries. Each keeps the spelling of the plist entry.
    public var validSelectIdentifiers: [(text: String, aid: [UInt8])] {
        iso7816SelectIdentifiers.compactMap { s in
            guard let b = Self.hexBytes(s), (5...16).contains(b.count) else { return nil }
            return (s, b)
        }
    }

    /// The FeliCa system codes iOS accepts: 2 bytes, no 0xFF wildcard in either byte.
    public var validSystemCodes: [(text: String, code: [UInt8])] {
        felicaSystemCodes.compactMap { s in
            guard let b = Self.hexBytes(s), b.count == 2, b[0] != 0xFF, b[1] != 0xFF else { return nil }
            return (s, b)
        }
    }

    static func hexBytes(_ s: String) -> [UInt8]? {
        let u = Array(s.utf8)
        guard !u.isEmpty, u.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var k = 0
        while k < u.count {
            guard let h = UInt8(String(decoding: u[k..<(k + 2)], as: UTF8.self), radix: 16) else { return nil }
            out.append(h)
            k += 2
        }
        return out
    }

    /// Whether the process may start a reader session at all; a string explains a missing usage description, which
    /// iOS punishes by terminating the app.
    public var usageDescriptionProblem: String? {
        guard profile == .iphone else { return nil }
        if let u = usageDescription, !u.isEmpty { return nil }
        return "This app has crashed because it attempted to access privacy-sensitive data without a usage "
            + "description. The app's Info.plist must contain an NFCReaderUsageDescription key with a string value "
            + "explaining to the user how the app uses this data (set OPENCORENFC_INFO_PLIST, or use "
            + "OPENCORENFC_PROFILE=desktop)."
    }

    /// The verdict on beginning an NDEF reader session: nil, or why it is refused (docs/PARITY.md §13: `NDEF`, or `TAG`
    /// which covers NDEF sessions too).
    public var ndefSessionRefusal: InvalidationReason? {
        guard profile == .iphone else { return nil }
        // A few entries at most: searched in place rather than hashed into a set at every begin().
        let f = readerSessionFormats
        if f.contains("NDEF") || f.contains("TAG") { return nil }
        return .securityViolation("missing entitlement \(Self.formatsKey) with NDEF or TAG")
    }

    /// The verdict on beginning a VAS reader session: the formats entitlement must be present (its header names no
    /// value; any entry counts, docs/DIFFERENCES.md), else 2.
    public var vasSessionRefusal: InvalidationReason? {
        guard profile == .iphone else { return nil }
        if !readerSessionFormats.isEmpty { return nil }
        return .securityViolation("missing entitlement \(Self.formatsKey)")
    }

    /// The verdict on beginning a tag reader session; `pace` says whether the PACE polling option was requested.
    public func tagSessionRefusal(pace: Bool) -> InvalidationReason? {
        guard profile == .iphone else { return nil }
        let f = readerSessionFormats
        if !f.contains("TAG") { return .securityViolation("missing entitlement \(Self.formatsKey) with TAG") }
        if pace && !f.contains("PACE") {
            return .securityViolation("missing entitlement \(Self.formatsKey) with PACE")
        }
        return nil
    }
}

/// A configuration file or value that cannot be used, with the file and what is wrong.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
