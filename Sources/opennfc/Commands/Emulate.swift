import Dispatch
import Foundation
import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCVPCD

extension Commands {
    static let emulate = Command(
        name: "emulate",
        abstract:
            "Present tag files to PC/SC applications (vsmartcard's vpcd), or to libnfc and nfcpy as a virtual PN532.",
        discussion: """
            Connects to the vpcd driver inside pcscd and serves the tag as the card a contactless reader would \
            report: the PC/SC Part 3 storage-card ATR and pseudo-APDUs (FF CA, FF B0, FF D6) for Type 2 chips, the \
            ATS-based ATR and raw APDUs for Type 4 and DESFire, the ISO 15693 ATR with FF B0/FF D6 by block and the \
            PC/SC 2.02 transparent session (FF C2) for Type 5 and Type 2 chips, and ACR122U-style pass-through of \
            native frames (FF 00 00 00 Lc D4 42 …). --reader pcsc leaves the ACS forms out, as a PC/SC 2.02 reader \
            of another maker (OMNIKEY, Identiv): Type 2 frames then travel only in the transparent session. pcsc_scan, pyscard, opensc-tool and `opennfc --device pcsc` then see it. \
            Stops on Ctrl-C, SIGTERM, or when pcscd closes the connection; --save writes the tag back (atomically) \
            then.

            Examples:
              scripts/pcscd up && opennfc emulate poster.json
              opennfc emulate --slot 1 --save card.json        (the second virtual reader, port 35964)
              opennfc emulate --reader pcsc ticket.json        (no ACS pass-through: FF C2 only)

            With --pn532, no pcscd is needed: a pseudo-terminal answers as a PN532 (firmware 1.6) on a serial line, \
            with every TAGFILE in its field, and its path is printed on stdout. libnfc's tools \
            (LIBNFC_DEFAULT_DEVICE=pn532_uart:/dev/pts/N), mfoc, libfreefare, nfcpy (tty: with --link /dev/ttyNAME) \
            and `opennfc --device pn532:/dev/pts/N` talk to it (docs/PN532.md).
              opennfc emulate --pn532 --link /tmp/pn532 ntag.json classic.json

            With --device pn532:<tty>, a PN532 (real, or the virtual one of --pn532) becomes the card: in target mode \
            it presents TAGFILE, an ISO-DEP tag (Type 4, DESFire), to any reader held to it, one reader after \
            another until Ctrl-C; --save writes what the readers changed back. An app's CardSession goes through a \
            PN532 the same way with OPENCORENFC_DEVICE=pn532:<tty> (docs/PN532.md, "Target mode").
              opennfc emulate --device pn532:/dev/ttyUSB0 --save type4.json
            """,
        arguments: [
            .init(
                name: "tagfile", help: "Tag file(s) (.json, .nfc or .ndef); several only with --pn532.", variadic: true)
        ],
        options: [
            .init(
                name: "vpcd", value: "<host:port>",
                help: "Where the vpcd driver listens (default 127.0.0.1:35963; slot 1 is 35964)."),
            .init(name: "slot", value: "<n>", help: "Virtual reader slot 0 or 1 on 127.0.0.1 (instead of --vpcd)."),
            .init(name: "save", help: "Write the tag file back when the emulation ends (atomically)."),
            .init(name: "pn532", help: "Serve a virtual PN532 on a pseudo-terminal instead of a vpcd card."),
            .init(
                name: "device", value: "<pn532:tty>",
                help: "Present the tag through a PN532 in target mode (an ISO-DEP tag: Type 4, DESFire) to any reader."),
            .init(
                name: "link", value: "<path>",
                help: "With --pn532: a symlink to the pseudo-terminal (replaced if a symlink)."),
            .init(name: "chip", value: "<chip>", help: "Chip a .ndef file is loaded into (default ntag215)."),
            .init(name: "trace", help: "Print every APDU and response on stderr."),
            .init(
                name: "reader", value: "<acs|pcsc>",
                help: "The emulated reader's vendor forms: acs (ACR122U/ACR1252U pass-through, default) or pcsc (none)."
            ),
        ],
        run: { inv in try EmulateCommand.run(inv) }
    )
}

/// `opennfc emulate`: serves a tag file on a vpcd slot until stopped.
enum EmulateCommand {
    /// SIGINT and SIGTERM stop the server (run() returns, then --save runs), instead of killing the process
    /// (``StopSignals``).
    static func stopOnSignals(_ stop: @escaping @Sendable () -> Void) -> StopSignals {
        StopSignals(name: "opennfc emulate signals") { _ in stop() }
    }

    static func traceLine(_ command: [UInt8], _ response: [UInt8]?) {
        let answer = response.map { Hex.encode($0, separator: " ") } ?? "(no answer: the card left)"
        Console.err("> \(Hex.encode(command, separator: " "))\n< \(answer)\n")
    }

    static func run(_ inv: Invocation) throws -> Int32 {
        guard !inv.positionals.isEmpty else { throw CLIError.usage("missing expected argument '<tagfile>'") }
        if let device = inv.value("device") { return try EmulateTarget.run(inv, device: device) }
        if inv.flag("pn532") { return try EmulatePN532.run(inv) }
        if inv.value("link") != nil { throw CLIError.usage("--link goes with --pn532") }
        guard inv.positionals.count == 1 else {
            throw CLIError.usage("emulate serves one tag file on vpcd (several only with --pn532)")
        }
        let path = inv.positionals[0]
        var host = "127.0.0.1"
        var port: UInt16 = 35963
        if let v = inv.value("vpcd") {
            guard inv.value("slot") == nil else { throw CLIError.usage("give --vpcd or --slot, not both") }
            guard let a = VPCDServer.parseAddress(v) else {
                throw CLIError.usage("--vpcd takes <host:port>, e.g. 127.0.0.1:35963, not '\(v)'")
            }
            (host, port) = a
        } else if inv.value("slot") != nil {
            port = 35963 + UInt16(try inv.int("slot", default: 0, range: 0...1))
        }
        let tag = try TagCLI.load(path, ndefChip: inv.value("chip") ?? "ntag215")
        var trace: (@Sendable ([UInt8], [UInt8]?) -> Void)? = nil
        if inv.flag("trace") { trace = { command, response in traceLine(command, response) } }
        let forms: VPCDCard.ReaderForms
        switch inv.value("reader") ?? "acs" {
        case "acs": forms = .acs
        case "pcsc": forms = .pcsc
        case let other: throw CLIError.usage("--reader takes acs or pcsc, not '\(other)'")
        }
        let server = VPCDServer(card: VPCDCard(tag: tag, forms: forms), host: host, port: port, trace: trace)
        do { try server.connect() } catch { throw CLIError.failure(error.message) }

        // SIGINT and SIGTERM end the emulation cleanly (the tag is saved with --save).
        let signals = stopOnSignals { server.stop() }
        defer { signals.cancel() }
        let address = "\(host):\(port)"
        DispatchQueue.global().asyncAfter(deadline: .now() + 2) {
            if !server.isInserted {
                Console.err(
                    "Warning: vpcd at \(address) has not taken the card after 2 s; another card may "
                        + "already sit in this slot (try --slot 1)\n")
            }
        }
        let a = tag.activation
        Console.err("Emulating \(tag.chip) UID \(Hex.encode(a.uid)) on vpcd \(host):\(port); Ctrl-C to stop\n")
        var failure: String?
        do { try server.run() } catch { failure = error.message }
        if inv.flag("save") {
            // run() has returned: nothing else touches the tag any more.
            try TagCLI.save(tag, to: path)
            Console.err("Saved \(path)\n")
        }
        if let failure { throw CLIError.failure(failure) }
        Console.err("Emulation ended\n")
        return 0

    }
}
