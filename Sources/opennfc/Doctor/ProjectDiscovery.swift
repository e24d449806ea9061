import Foundation
import OpenNFCBytes

/// What `doctor --sources DIR` finds on its own in DIR: the app's Info.plist and `.entitlements` file, and an Xcode
/// project's build settings (`project.pbxproj`) the way new Xcode projects keep them: the usage description as
/// `INFOPLIST_KEY_NFCReaderUsageDescription` (no Info.plist file at all), the files as `INFOPLIST_FILE` and
/// `CODE_SIGN_ENTITLEMENTS` (paths relative to the folder holding the `.xcodeproj`).
struct ProjectDiscovery {
    var infoPlist: String?
    var entitlements: String?
    /// The project file whose settings were read, when there is one.
    var project: String?
    /// `INFOPLIST_KEY_…` settings: Info.plist keys Xcode generates into the built app's Info.plist.
    var generatedKeys: [String: String] = [:]
    /// Where each generated key is set (file, line).
    var generatedLines: [String: Int] = [:]

    /// Folders never searched: build products and dependencies.
    static let skipped: Set<String> = [".build", "build", "DerivedData", "Pods", "Carthage", ".git", "node_modules"]

    static func find(in root: String) throws -> ProjectDiscovery {
        var found = ProjectDiscovery()
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            return found
        }
        var plists: [String] = []
        var entitlements: [String] = []
        var projects: [String] = []
        let walker = FileManager.default.enumerator(atPath: root)
        while let relative = walker?.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if skipped.contains(name) {
                walker?.skipDescendants()
                continue
            }
            let path = (root as NSString).appendingPathComponent(relative)
            if name == "Info.plist" { plists.append(path) }
            if name.hasSuffix(".entitlements") { entitlements.append(path) }
            if name == "project.pbxproj", relative.contains(".xcodeproj/") { projects.append(path) }
        }
        if let project = projects.sorted().first {
            found.project = project
            try found.read(project: project)
        }
        // A setting names the files; otherwise the one file of each kind the folder holds.
        if found.infoPlist == nil, plists.count == 1 { found.infoPlist = plists[0] }
        if found.entitlements == nil, entitlements.count == 1 { found.entitlements = entitlements[0] }
        if found.infoPlist == nil, plists.count > 1 {
            throw CLIError.failure(
                "\(root) holds \(plists.count) Info.plist files (\(plists.sorted().joined(separator: ", "))); "
                    + "name the app's with --info-plist")
        }
        if found.entitlements == nil, entitlements.count > 1 {
            throw CLIError.failure(
                "\(root) holds \(entitlements.count) .entitlements files; name the app's with --entitlements")
        }
        return found
    }

    /// Reads the build settings of `project.pbxproj` (an old-style property list: `KEY = value;` lines).
    mutating func read(project: String) throws {
        let text = try InputFile.text(project, what: "Xcode project")
        // Paths in build settings are relative to the folder holding the .xcodeproj ($(SRCROOT)).
        let srcRoot = ((project as NSString).deletingLastPathComponent as NSString).deletingLastPathComponent
        func path(_ value: String) -> String {
            let v = value.replacingOccurrences(of: "$(SRCROOT)/", with: "").replacingOccurrences(
                of: "${SRCROOT}/", with: "")
            return v.hasPrefix("/") ? v : (srcRoot as NSString).appendingPathComponent(v)
        }
        for (n, raw) in text.textLines().enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard let eq = line.range(of: " = "), line.hasSuffix(";") else { continue }
            let key = String(line[..<eq.lowerBound])
            var value = String(line[eq.upperBound...].dropLast())
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast()).replacingOccurrences(of: "\\\"", with: "\"")
            }
            switch key {
            case "INFOPLIST_FILE" where infoPlist == nil: infoPlist = path(value)
            case "CODE_SIGN_ENTITLEMENTS" where entitlements == nil: entitlements = path(value)
            default:
                if key.hasPrefix("INFOPLIST_KEY_"), generatedKeys[String(key.dropFirst(14))] == nil {
                    generatedKeys[String(key.dropFirst(14))] = value
                    generatedLines[String(key.dropFirst(14))] = n + 1
                }
            }
        }
    }
}
