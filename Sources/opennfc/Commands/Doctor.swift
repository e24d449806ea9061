import OpenNFCBytes

extension Commands {
    static let doctor = Command(
        name: "doctor",
        abstract: "Check an iOS app's NFC configuration the way Core NFC enforces it.",
        discussion: """
            Reads the app's Info.plist, its entitlements and its sources, and reports every rule Core NFC
            would enforce at run time: the usage description, the reader-session formats entitlement against
            the sessions the sources create, every AID the sources SELECT against the declared ISO 7816
            identifiers (and their order), the FeliCa system codes, and MIFARE Classic expectations.
            Each finding names the file and line and how to fix it. Exit status 1 when there is a problem,
            0 when the configuration is sound; advice does not change the exit status.

            Examples:
              opennfc doctor --info-plist App/Info.plist --entitlements App/App.entitlements --sources App
              opennfc doctor --sources App --json
            With --sources DIR alone, the Info.plist and .entitlements file inside DIR are found and checked, and
            an Xcode project there is read for INFOPLIST_KEY_NFCReaderUsageDescription, INFOPLIST_FILE and
            CODE_SIGN_ENTITLEMENTS (the way new Xcode projects keep them).
            """,
        options: [
            .init(name: "info-plist", value: "<file>", help: "The app's Info.plist (XML or binary)."),
            .init(name: "entitlements", value: "<file>", help: "The app's .entitlements file."),
            .init(name: "sources", value: "<dir>", help: "A directory of .swift / .m sources (or one file)."),
            .init(name: "json", help: "Print the findings as JSON."),
        ],
        run: runDoctor
    )

    @Sendable static func runDoctor(_ inv: Invocation) throws -> Int32 {
        var infoPath = inv.value("info-plist")
        var entPath = inv.value("entitlements")
        let srcPath = inv.value("sources")
        if infoPath == nil && entPath == nil && srcPath == nil {
            throw CLIError.usage("give at least one of --info-plist, --entitlements and --sources")
        }
        var checks = DoctorChecks()
        var found: [String] = []
        var generated: ConfigFile? = nil
        if let srcPath {
            // What the folder holds and was not named: the app's Info.plist, entitlements, Xcode build settings.
            let discovered = try ProjectDiscovery.find(in: srcPath)
            if infoPath == nil, let p = discovered.infoPlist {
                infoPath = p
                found.append(p)
            }
            if entPath == nil, let p = discovered.entitlements {
                entPath = p
                found.append(p)
            }
            if let project = discovered.project, !discovered.generatedKeys.isEmpty {
                generated = ConfigFile(
                    generated: discovered.generatedKeys, lines: discovered.generatedLines, project: project)
                found.append("build settings of \(project)")
            }
        }
        if !found.isEmpty, !inv.flag("json") {
            Console.err("Found in \(srcPath ?? "."): \(found.joined(separator: ", ")).\n")
        }
        checks.info = try infoPath.map { try ConfigFile(path: $0, role: "Info.plist") }
        if let generated {
            // Build settings join what an Info.plist file says (a file's own keys win, as in Xcode's merge).
            if var info = checks.info {
                for (k, v) in generated.values where info.values[k] == nil { info.values[k] = v }
                checks.info = info
            } else {
                checks.info = generated
            }
        }
        checks.entitlements = try entPath.map { try ConfigFile(path: $0, role: "entitlements file") }
        checks.sources = try srcPath.map { try SourceScanner.scan(directory: $0) }
        checks.sourcesPath = srcPath
        let findings = checks.run()
        let errors = findings.filter { $0.severity == .error }.count
        let advice = findings.count - errors

        var checked: [String] = []
        if let infoPath { checked.append(infoPath) }
        if let generated { checked.append("the INFOPLIST_KEY_ settings of \(generated.path)") }
        if let entPath { checked.append(entPath) }
        if let s = checks.sources, let srcPath { checked.append("\(s.filesScanned) source file(s) in \(srcPath)") }

        if inv.flag("json") {
            let doc = JSONValue.object([
                ("sound", .bool(errors == 0)),
                ("problems", .int(errors)),
                ("advice", .int(advice)),
                ("checked", .array(checked.map { .string($0) })),
                ("findings", .array(findings.map(\.json))),
            ])
            Console.out(doc.pretty + "\n")
        } else {
            for f in findings { Console.out(f.rendered) }
            let summary: String
            if findings.isEmpty {
                summary = "No problems found"
            } else {
                summary = "\(count(errors, "problem")), \(advice) advice"
            }
            Console.out("\(summary) (checked \(checked.joined(separator: ", "))).\n")
        }
        return errors == 0 ? 0 : 1
    }

    static func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
}
