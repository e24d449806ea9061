import Dispatch
import Foundation
import OpenNFCBytes
import OpenNFCPN532Emulator
import OpenNFCRF
import OpenNFCSimulation

/// `opennfc emulate --pn532`: a virtual PN532 on a pseudo-terminal with the tag files in its field (docs/PN532.md).
enum EmulatePN532 {
    static func run(_ inv: Invocation) throws -> Int32 {
        for option in ["vpcd", "slot", "reader"] where inv.value(option) != nil {
            throw CLIError.usage("--\(option) is for vpcd; --pn532 serves a pseudo-terminal")
        }
        let paths = inv.positionals
        let chip = inv.value("chip") ?? "ntag215"
        var tags: [any VirtualTag] = []
        for path in paths { tags.append(try TagCLI.load(path, ndefChip: chip)) }
        let field = VirtualField(clock: VirtualClock(), timing: .instant)
        for (i, tag) in tags.enumerated() { field.place(tag, at: i) }
        let pn532 = VirtualPN532(field: field)
        if inv.flag("trace") { pn532.trace = { line in Console.err(line + "\n") } }
        let server: PN532PseudoTerminal
        do { server = try PN532PseudoTerminal(chip: pn532, link: inv.value("link")) } catch {
            throw CLIError.failure(error.detail)
        }
        let sources = EmulateCommand.stopOnSignals { server.stop() }
        defer { sources.cancel() }
        Console.out(server.path + "\n")
        for tag in tags {
            Console.err(
                "In the field: \(tag.chip) \(tag.activation.technology.rawValue) \(Hex.encode(tag.activation.uid))\n")
        }
        let connstring = "pn532_uart:\(server.path)"
        Console.err(
            "Virtual PN532 on \(server.path)\(server.link.map { " (link \($0))" } ?? ""); libnfc: "
                + "LIBNFC_DEFAULT_DEVICE=\(connstring); Ctrl-C to stop\n")
        server.run()
        if inv.flag("save") {
            for (tag, path) in zip(tags, paths) {
                try TagCLI.save(tag, to: path)
                Console.err("Saved \(path)\n")
            }
        }
        Console.err("Emulation ended\n")
        return 0
    }
}
