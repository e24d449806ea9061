internal import OpenCoreNFCTesting
internal import OpenNFCBytes
internal import OpenNFCDemo
internal import OpenNFCNDEF

/// Namespace for the subcommand definitions.
enum Commands {}

extension Commands {
    static let demo = Command(
        name: "demo",
        abstract: "Walk through the seed flows on the simulated default device, step by step.",
        discussion: """
            Part 1 builds the NDEF messages the seed flows use (a URI record, a Text record, a Smart Poster), prints
            their bytes and decodes them again. Part 2 runs the flows on the simulated iPhone: what the user sees
            on the system sheet and what the app receives. Each flow is a small app written against the Core NFC
            API in \(SeedFlows.sourceFile); --list names them, and 'opennfc demo NAME' runs one.
            """,
        arguments: [.init(name: "flow", help: "Run only this flow (see --list).", optional: true)],
        options: [.init(name: "list", help: "List the flows and where their code lives.")],
        run: { inv in
            let names = SeedFlows.catalogue.map(\.name)
            if inv.flag("list") {
                for f in SeedFlows.catalogue {
                    Console.out(
                        "\(f.name.padding(toLength: 20, withPad: " ", startingAt: 0))\(SeedFlows.sourceFile), SeedFlows.\(f.function)\n"
                    )
                }
                return 0
            }
            if let name = inv.positionals.first {
                guard let flow = SeedFlows.catalogue.first(where: { $0.name == name.lowercased() }) else {
                    throw CLIError.usage(
                        "unknown flow '\(name)'\(Suggestion.hint(for: name, among: names)) (flows: "
                            + names.joined(separator: ", ") + ")")
                }
                try DemoSessions.show(flow.run(), number: nil, function: flow.function)
                return 0
            }
            try DemoNDEF.run()
            try DemoSessions.run()
            return 0
        }
    )
}

/// Part 1 of the demo: the NDEF layer, message by message.
enum DemoNDEF {
    static func run() throws {
        Console.out("== Part 1: the NDEF messages of the seed flows\n\n")
        let messages: [(String, [NDEFRecord])] = [
            ("a URI record (the inventory tag)", [try NDEFURIRecord(uri: "https://example.com/item/42").record()]),
            ("a Text record", [try NDEFTextRecord(text: "Shelf B, bin 7", language: "en").record()]),
            (
                "a Smart Poster (URI + titles + action)",
                [
                    try NDEFSmartPosterRecord(
                        uri: "https://example.com/museum/room-3",
                        titles: [
                            NDEFTextRecord(text: "Room 3: Impressionists", language: "en"),
                            NDEFTextRecord(text: "Salle 3 : impressionnistes", language: "fr"),
                        ],
                        action: .doAction
                    ).record()
                ]
            ),
        ]
        for (n, (title, records)) in messages.enumerated() {
            Console.out("Step \(n + 1): build \(title)\n")
            let message = NDEFMessage(records: records)
            let bytes = message.encoded()
            Console.out("  encoded, \(bytes.count) bytes: \(Hex.encode(bytes, separator: " "))\n")
            let header = bytes[0]
            Console.out(
                "  header 0x\(Hex.encode([header])): MB=\(header >> 7 & 1) ME=\(header >> 6 & 1) CF=\(header >> 5 & 1) "
                    + "SR=\(header >> 4 & 1) IL=\(header >> 3 & 1) TNF=\(header & 7)\n")
            let decoded = try NDEFMessage(decoding: bytes)
            Console.out("  decoded again (strict):\n")
            for line in decoded.listing() { Console.out("    \(line)\n") }
            Console.out("  round trip equal: \(decoded == message ? "yes" : "NO")\n\n")
        }
    }
}

/// Part 2 of the demo: the seed flows played on the simulated iPhone by apps written against the public Core NFC
/// API (see `SeedFlows` in OpenCoreNFCTesting), printing the system sheet, the user's actions and what the app
/// receives, in order.
enum DemoSessions {
    static func run() throws {
        Console.out("== Part 2: the seed flows on the simulated iPhone\n")
        Console.out("   (sheet: what the user sees; user: what the user does; app: what the app receives)\n\n")
        for (n, flow) in SeedFlows.catalogue.enumerated() {
            try show(flow.run(), number: n + 1, function: flow.function)
        }
    }

    static func show(_ outcome: SeedFlows.Outcome, number: Int?, function: String) throws {
        Console.out("Flow \(number.map { "\($0): " } ?? "")\(outcome.title)\n")
        Console.out("  (code: \(SeedFlows.sourceFile), SeedFlows.\(function))\n")
        for line in outcome.lines { Console.out("  \(line)\n") }
        Console.out("\n")
    }
}
