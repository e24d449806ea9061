import OpenNFCBytes
import OpenNFCPCSC
import OpenNFCPN532

extension Commands {
    static let readers = Command(
        name: "readers",
        abstract: "List the PC/SC readers and what sits on them (ATR decoded, chip guessed).",
        discussion: """
            Talks to pcscd through libpcsclite. For each card present it reads the UID (FF CA), decodes the ATR \
            (PC/SC Part 3 storage card or ISO 14443-4) and, where the reader passes native frames through, asks the \
            tag for GET_VERSION to tell NTAG21x from MIFARE Ultralight. Cards held exclusively by another \
            application are listed with their ATR only.

            With --probe it also looks for PN532s on serial ports (/dev/ttyUSB*, ttyACM*, ttyAMA*, ttyS*, or the \
            --port given): the HSU wake-up, SAMConfiguration and GetFirmwareVersion with short timeouts. Writing to \
            an unknown serial device is not harmless, so this happens only when asked. Each PN532 found is listed \
            with the device string to use (`--device pn532:/dev/ttyUSB0`, docs/PN532.md).
            """,
        options: [
            .init(name: "json", help: "Print JSON instead of text."),
            .init(name: "probe", help: "Also probe serial ports for PN532s (writes to each port)."),
            .init(name: "port", value: "<path>", help: "With --probe: probe only this serial port or pseudo-terminal."),
        ],
        run: { inv in
            if inv.flag("probe") { return try probeReaders(inv) }
            if inv.value("port") != nil { throw CLIError.usage("--port goes with --probe") }
            let context = try pcscCall { () throws(PCSCError) in try PCSCContext() }
            let names = try pcscCall { () throws(PCSCError) in try context.readers() }
            if names.isEmpty {
                // Says why there is no reader (none plugged in, or the pn533 kernel driver holds an ACR122U).
                do { _ = try context.requireReaders() } catch let e as PCSCError { Console.err("Note: \(e.detail)\n") }
            }
            let states = try pcscCall { () throws(PCSCError) in try context.states(of: names) }
            let reports = states.map { ReaderReport.inspect($0, context: context) }
            if inv.flag("json") {
                Console.out(JSONValue.object([("readers", .array(reports.map(\.json)))]).pretty + "\n")
            } else {
                for r in reports { Console.out(r.text) }
            }
            return 0
        }
    )
}

/// `opennfc readers --probe`: the PN532s on serial ports, then the PC/SC readers when pcscd answers.
func probeReaders(_ inv: Invocation) throws -> Int32 {
    let ports = inv.value("port").map { [$0] } ?? PN532DeviceString.serialPorts()
    let found = PN532DeviceString.probe(ports: ports)
    var reports: [ReaderReport] = []
    do {
        let context = try PCSCContext()
        let names = try context.readers()
        reports = try context.states(of: names).map { ReaderReport.inspect($0, context: context) }
    } catch {
        Console.err("Note: PC/SC: \(error.detail)\n")
    }
    if inv.flag("json") {
        let pn532 = found.map {
            JSONValue.object([("device", .string("pn532:\($0.path)")), ("firmware", .string($0.firmware))])
        }
        Console.out(
            JSONValue.object([("pn532", .array(pn532)), ("readers", .array(reports.map(\.json)))]).pretty + "\n")
        return 0
    }
    if found.isEmpty {
        Console.err("No PN532 answered on \(ports.isEmpty ? "any serial port" : ports.joined(separator: ", "))\n")
    }
    for f in found { Console.out("pn532:\(f.path)  \(f.firmware)\n") }
    for r in reports { Console.out(r.text) }
    return 0
}

/// Runs a PC/SC call, turning its error into `Error: <what to do>` (exit 1).
func pcscCall<T>(_ body: () throws(PCSCError) -> T) throws(CLIError) -> T {
    do { return try body() } catch { throw CLIError.failure(error.detail) }
}

/// What `opennfc readers` found on one reader.
struct ReaderReport {
    var name: String
    var state: PCSCReaderStateFlags
    var atr: [UInt8]?
    var kind: ContactlessCard?
    var uid: [UInt8]?
    var chip: String?
    var profile: String?
    var note: String?

    static func inspect(_ s: PCSCReaderState, context: PCSCContext) -> ReaderReport {
        var r = ReaderReport(name: s.reader, state: s.eventState.subtracting(.changed))
        guard s.hasCard, !s.atr.isEmpty else { return r }
        r.atr = s.atr
        let kind = ContactlessCard(atrBytes: s.atr)
        r.kind = kind
        r.chip = kind.chipGuess
        do {
            let card = try context.connect(reader: s.reader, share: .shared)
            var disposition = PCSCDisposition.leave
            defer { card.disconnect(disposition) }
            if let uid = try? card.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00]), uid.isSuccess {
                // ISO 15693 UIDs are shown MSB first (`E0 …`), whichever order the reader answers in.
                let lsbFirst = kind.technology == .nfcV && uid.data.count == 8 && uid.data.last == 0xE0
                r.uid = lsbFirst ? Array(uid.data.reversed()) : uid.data
            }
            let choice = PCSCProfileSelection.choose(for: kind, card: card)
            r.profile = choice.profile.name
            defer { choice.profile.end(on: card) }  // a transparent session (ISO 15693) is closed again
            if choice.tagWentMute { disposition = .reset }
            if let v = choice.version {
                r.chip = v.chipName
            } else if case .storage(0x03, 0x0003) = kind, choice.profile.capabilities.rawFrames {
                r.chip = "MIFARE Ultralight (no GET_VERSION)"
            }
        } catch {
            r.note = error.detail
        }
        return r
    }

    var text: String {
        var s = "\(name)\n"
        guard let atr else { return s + "  no card (\(state))\n" }
        s += "  ATR: \(Hex.encode(atr, separator: " "))\n"
        if let kind { s += "  card: \(kind.summary)\n" }
        if let uid { s += "  UID: \(Hex.encode(uid, separator: ":"))\n" }
        if let chip { s += "  chip: \(chip)\n" }
        if let profile { s += "  access: \(profile)\n" }
        if let note { s += "  note: \(note)\n" }
        return s
    }

    var json: JSONValue {
        var card: JSONValue = .null
        if let atr {
            var fields: [(String, JSONValue)] = [("atr", .string(atr.hexString))]
            if let a = try? ATR(decoding: atr) {
                fields.append(("historical_bytes", .string(a.historicalBytes.hexString)))
                fields.append(("protocols", .array(a.protocols.map { .int($0) })))
            }
            switch kind {
            case .storage(let ss, let nn):
                fields.append(("type", .string("storage")))
                fields.append(("standard", .string(ContactlessCard.standardName(ss))))
                fields.append(("card_name", .string(ContactlessCard.cardName(nn))))
            case .isoDEP(let hist):
                fields.append(("type", .string("iso14443-4")))
                fields.append(("ats_historical_bytes", .string(hist.hexString)))
            case .other, nil:
                fields.append(("type", .string("other")))
            }
            fields.append(("uid", uid.map { .string($0.hexString) } ?? .null))
            fields.append(("chip", chip.map { .string($0) } ?? .null))
            fields.append(("access", profile.map { .string($0) } ?? .null))
            if let note { fields.append(("note", .string(note))) }
            card = .object(fields)
        }
        return .object([("name", .string(name)), ("state", .string(state.description)), ("card", card)])
    }
}
