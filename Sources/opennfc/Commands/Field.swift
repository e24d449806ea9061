import Dispatch
import Foundation
import OpenNFCBytes
import OpenNFCFieldServer
import OpenNFCHTTP
import OpenNFCRemote

extension Commands {
    static let field = Command(
        name: "field",
        abstract: "Serve a virtual field on loopback that apps reach with OPENCORENFC_DEVICE=remote:, and drive it.",
        discussion: """
            'field serve' holds tag files on a shelf and answers one app at a time (any program using OpenCoreNFC \
            with OPENCORENFC_DEVICE=remote:[<port>], or opennfc --device remote:[<port>]). Open \
            http://127.0.0.1:<port>/ to see the phone's sheet, put tags on the phone, tap Cancel, watch the frames \
            and each tag's memory. The other subcommands drive a running field through its HTTP API \
            (docs/FIELD.md).
            """,
        subcommands: [fieldServe, fieldState, fieldPut, fieldRemove, fieldMove, fieldCancel, fieldSave]
    )

    static let fieldPortOption = Command.Option(
        name: "port", value: "<port>", help: "The field's port on 127.0.0.1 (default \(FieldProtocol.defaultPort)).")

    static let fieldServe = Command(
        name: "serve",
        abstract: "Serve the virtual field and its web page until interrupted.",
        discussion: """
            A tag an app changed is written back to its file when it is taken off the phone and when the server
            stops (Ctrl-C or SIGTERM): the files hold what the apps wrote. The exit status is 1 only when such a
            save failed (each failure named on stderr). With --no-save, tags are written only on 'field save', and
            stopping lists the tags whose changes were not saved. A file is one tag, whatever path names it: a
            second put of the same file (or of a link to it) puts the same tag.
            """,
        arguments: [
            .init(
                name: "tagfile", help: "Tag files for the shelf (.json, .nfc, .ndef).", optional: true, variadic: true)
        ],
        options: [
            .init(
                name: "port", value: "<port>",
                help: "Port on 127.0.0.1 (default \(FieldProtocol.defaultPort); 0: any free port)."),
            .init(
                name: "host", value: "<address>",
                help: "Only 127.0.0.1 or localhost: the field never listens elsewhere."),
            .init(
                name: "put", value: "<tagfile>", help: "Start with this tag on the phone (repeatable).",
                repeatable: true),
            .init(
                name: "no-save",
                help: "Write tags back only on 'field save' (not when taken away or when the server stops)."),
        ],
        run: { inv in
            if let host = inv.value("host") {
                do throws(SocketError) {
                    _ = try LoopbackAddress(host: host, port: 1)
                } catch {
                    throw CLIError.usage("--host: \(error.message)")
                }
            }
            let port = try inv.int("port", default: Int(FieldProtocol.defaultPort), range: 0...65_535)
            let describer = FieldServer.Describer(
                command: { FrameDecoder.describe(command: $0, mode: $1) },
                answer: { FrameDecoder.describe(response: $0, to: $1, mode: $2) })
            let server: FieldServer
            do throws(FieldServerError) {
                server = try FieldServer(
                    port: UInt16(port), shelf: inv.positionals, onPhone: inv.values("put"), describer: describer,
                    autosave: !inv.flag("no-save"))
            } catch {
                throw CLIError.failure(error.message)
            }
            // The handlers first: a signal that comes as soon as the URL is out finds them in place.
            let autosave = !inv.flag("no-save")
            let signals = StopSignals(name: "opennfc field signals") { _ in
                server.stop()
                exit(FieldCLI.finish(server, autosave: autosave))
            }
            server.start()
            Console.out("http://\(server.address)/\n")
            Console.err(
                "Serving the virtual field on http://\(server.address)/ — apps connect with "
                    + "OPENCORENFC_DEVICE=remote:\(server.address). Ctrl-C stops.\n")
            withExtendedLifetime(signals) { dispatchMain() }
        }
    )

    static let fieldState = Command(
        name: "state",
        abstract: "Print the field's state as JSON: the app, the sheet, the shelf and what is on the phone.",
        options: [fieldPortOption],
        run: { inv in try FieldCLI.call(inv, "GET", "/api/state") }
    )

    static let fieldPut = Command(
        name: "put",
        abstract: "Put a tag on the phone: a shelf tag by id or name, or a tag file (added to the shelf).",
        arguments: [.init(name: "tag", help: "Shelf id, name, or tag file path.")],
        options: [fieldPortOption, .init(name: "position", value: "<n>", help: "Position in the field (poll order).")],
        run: { inv in
            var body: [(String, JSONValue)] = [("tag", .string(FieldCLI.reference(inv.positionals[0])))]
            if inv.value("position") != nil {
                body.append(("position", .int(try inv.int("position", default: 0, range: 0...99))))
            }
            return try FieldCLI.call(inv, "POST", "/api/put", body)
        }
    )

    static let fieldRemove = Command(
        name: "remove",
        abstract: "Take a tag away from the phone (or every tag with --all).",
        arguments: [.init(name: "tag", help: "Shelf id or name.", optional: true)],
        options: [fieldPortOption, .init(name: "all", help: "Take every tag away.")],
        run: { inv in
            if inv.flag("all") { return try FieldCLI.call(inv, "POST", "/api/remove", [("all", .bool(true))]) }
            guard let tag = inv.positionals.first else { throw CLIError.usage("name the tag to take away, or --all") }
            return try FieldCLI.call(inv, "POST", "/api/remove", [("tag", .string(tag))])
        }
    )

    static let fieldMove = Command(
        name: "move",
        abstract: "Move a tag on the phone to another position (poll order).",
        arguments: [.init(name: "tag", help: "Shelf id or name."), .init(name: "position", help: "0…99.")],
        options: [fieldPortOption],
        run: { inv in
            guard let p = Int(inv.positionals[1]), (0...99).contains(p) else {
                throw CLIError.usage("position must be a number 0…99, not '\(inv.positionals[1])'")
            }
            return try FieldCLI.call(
                inv, "POST", "/api/move", [("tag", .string(inv.positionals[0])), ("position", .int(p))])
        }
    )

    static let fieldCancel = Command(
        name: "cancel",
        abstract: "Tap Cancel on the app's sheet (the app's session ends with 200).",
        options: [fieldPortOption],
        run: { inv in try FieldCLI.call(inv, "POST", "/api/cancel") }
    )

    static let fieldSave = Command(
        name: "save",
        abstract: "Write a tag back to its file (atomically).",
        arguments: [.init(name: "tag", help: "Shelf id or name.")],
        options: [fieldPortOption],
        run: { inv in try FieldCLI.call(inv, "POST", "/api/save", [("tag", .string(inv.positionals[0]))]) }
    )
}

/// The HTTP calls of the `field` subcommands.
enum FieldCLI {
    /// What the server does as it stops: saves the tags apps changed (or, without autosave, names them); 1 only when
    /// a save failed.
    static func finish(_ server: FieldServer, autosave: Bool) -> Int32 {
        guard autosave else {
            let unsaved = server.unsavedTags
            if !unsaved.isEmpty {
                Console.err("Not saved (--no-save): \(unsaved.joined(separator: ", ")) changed since last saved.\n")
            }
            return 0
        }
        let (saved, failed) = server.saveAll()
        if !saved.isEmpty { Console.err("Saved \(saved.joined(separator: ", ")).\n") }
        for f in failed { Console.err("Error: could not save \(f.name): \(f.reason)\n") }
        return failed.isEmpty ? 0 : 1
    }

    /// A tag file path is sent absolute (the field may run in another directory); ids and names as given.
    static func reference(_ text: String) -> String {
        if text.contains("/") || TagFileExtension.matches(text), FileManager.default.fileExists(atPath: text) {
            return URL(fileURLWithPath: text).standardizedFileURL.path
        }
        return text
    }

    static func call(_ inv: Invocation, _ method: String, _ path: String, _ body: [(String, JSONValue)] = []) throws
        -> Int32
    {
        let port = try inv.int("port", default: Int(FieldProtocol.defaultPort), range: 1...65_535)
        let address: LoopbackAddress
        do throws(SocketError) {
            address = try LoopbackAddress(host: "127.0.0.1", port: UInt16(port))
        } catch {
            throw CLIError.failure(error.message)
        }
        let (status, text) = try request(method, path, to: address, body)
        guard status == 200 else {
            let message = (try? JSONValue(parsing: text))?["error"]?.stringValue ?? text
            throw CLIError.failure("the field refused: \(message)")
        }
        Console.out(text.hasSuffix("\n") ? text : text + "\n")
        return 0
    }

    /// One request to the HTTP API of a field (`opennfc field serve`, docs/FIELD.md): its status and body text. A
    /// field that cannot be reached is an error that says which server to start.
    static func request(
        _ method: String, _ path: String, to address: LoopbackAddress, _ body: [(String, JSONValue)] = [],
        timeoutMilliseconds: Int = 10_000
    ) throws -> (status: Int, text: String) {
        let response: HTTPResponse
        do throws(HTTPClient.Failure) {
            response = try HTTPClient.request(
                method, path, to: address, headers: [("Content-Type", "application/json")],
                body: method == "POST" ? Array(JSONValue.object(body).compact.utf8) : [],
                timeoutMilliseconds: timeoutMilliseconds)
        } catch {
            throw CLIError.failure("\(error.message); is 'opennfc field serve --port \(address.port)' running?")
        }
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }
}

enum TagFileExtension {
    static func matches(_ name: String) -> Bool {
        [".json", ".nfc", ".ndef"].contains { name.lowercased().hasSuffix($0) }
    }
}
