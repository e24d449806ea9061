import Foundation
import OpenNFCBytes
import OpenNFCPN532
import OpenNFCSimulation

/// `opennfc emulate --device pn532:<tty> TAGFILE`: a real (or virtual) PN532 in target mode presents the tag to
/// whatever reader comes (docs/PN532.md, "Target mode"). The chip is an ISO/IEC 14443-4 A card, so only tags that
/// speak ISO-DEP can be presented; each reader's session is served in turn until Ctrl-C or SIGTERM.
enum EmulateTarget {
    /// How long one wait for a reader lasts before a stop request is looked at.
    static let waitSlice = 250

    static func run(_ inv: Invocation, device: String) throws -> Int32 {
        for option in ["vpcd", "slot", "reader", "link"] where inv.value(option) != nil {
            throw CLIError.usage("--\(option) does not go with --device (a PN532 in target mode)")
        }
        if inv.flag("pn532") { throw CLIError.usage("--pn532 serves a virtual PN532; --device uses a PN532 as a card") }
        guard inv.positionals.count == 1 else {
            throw CLIError.usage("a PN532 in target mode presents one tag file, not \(inv.positionals.count)")
        }
        guard device.lowercased().hasPrefix("pn532:") else {
            throw CLIError.usage(
                "emulate --device takes a PN532 (pn532:<tty>[:<baud>], pn532:i2c:<dev>, pn532:spi:<dev>), not '\(device)'"
            )
        }
        let path = inv.positionals[0]
        let tag = try TagCLI.load(path, ndefChip: inv.value("chip") ?? "ntag215")
        guard isPresentable(tag) else {
            throw CLIError.failure(
                "\(path): a \(tag.chip) is not an ISO-DEP card; a PN532 in target mode presents only ISO/IEC 14443-4 A "
                    + "cards (as a new \(Self.either(presentableChips())) is): present this tag with "
                    + "`opennfc emulate` on vpcd or `--pn532` instead")
        }
        let frontend: PN532Frontend
        do { frontend = try PN532DeviceString(parsing: String(device.dropFirst(6))).open() } catch {
            throw CLIError.failure(error.detail)
        }
        defer { frontend.driver.transport.close() }
        let stop = StopFlag()
        let signals = EmulateCommand.stopOnSignals { stop.set() }
        defer { signals.cancel() }
        let uid = tag.activation.uid
        // NFCID1t: the chip sends 08 and these three bytes (a random UID, ISO/IEC 14443-3 §6.5.4).
        let uid3 = uid.count >= 4 ? Array(uid[1..<4]) : [0x12, 0x34, 0x56]
        let ats = tag.activation.ats ?? []
        let historical = ats.count > 1 ? Self.historicalBytes(ats) : []
        let emulation = PN532CardEmulation(
            uid3: uid3, sensRes: tag.activation.sensRes ?? 0x0004, historicalBytes: historical,
            waitMilliseconds: waitSlice)
        Console.err(
            "Presenting \(tag.chip) through \(frontend.firmwareDescription) on \(device) in target mode "
                + "(UID 08\(Hex.encode(uid3))); Ctrl-C to stop\n")
        var failure: String?
        while !stop.isSet {
            do throws(PN532Error) {
                let n = try frontend.emulateCard(
                    emulation, activated: { Console.err("A reader activated the card\n") },
                    keepWaiting: { !stop.isSet }
                ) { apdu in
                    let answer: [UInt8]?
                    if case .data(let d) = tag.receive(apdu, tearAfter: nil) { answer = d } else { answer = nil }
                    if inv.flag("trace") { EmulateCommand.traceLine(apdu, answer) }
                    return answer
                }
                Console.err("The reader left after \(n) APDU\(n == 1 ? "" : "s")\n")
                tag.reset()
            } catch  where error.code == .timeout && stop.isSet {
                break
            } catch {
                failure = error.detail
                break
            }
        }
        if inv.flag("save") {
            try TagCLI.save(tag, to: path)
            Console.err("Saved \(path)\n")
        }
        if let failure { throw CLIError.failure(failure) }
        Console.err("Emulation ended\n")
        return 0
    }

    /// Whether a PN532 in target mode can present `tag`: an ISO/IEC 14443-4 A card (NFC-A with an ATS), the only
    /// kind its TgInitAsTarget emulates (docs/PN532.md, "Target mode").
    static func isPresentable(_ tag: any VirtualTag) -> Bool {
        tag.activation.technology == .nfcA && tag.activation.ats != nil
    }

    /// The registered chips (``TagFile/chips``) whose new tag a PN532 in target mode can present, asked of each
    /// chip's factory rather than listed here, so a family registering a chip needs nothing in this file. A chip
    /// whose mode changes what it is (a MIFARE card switched to its Classic-compatible level) is listed as it ships.
    static func presentableChips() -> [String] {
        TagFile.chips.compactMap { chip in
            let uid = chip.uidPrefix + [UInt8](repeating: 0x01, count: max(0, chip.uidLength - chip.uidPrefix.count))
            guard let tag = try? chip.factory(uid, nil), isPresentable(tag) else { return nil }
            return chip.name
        }
    }

    /// `a, b or c`.
    static func either(_ names: [String]) -> String {
        names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1]
    }

    /// The historical bytes of an ATS (ISO/IEC 14443-4 §5.2): after TL, T0 and the interface bytes T0 announces.
    static func historicalBytes(_ ats: [UInt8]) -> [UInt8] {
        let t0 = ats[1]
        var i = 2
        for bit in [UInt8(0x10), 0x20, 0x40] where t0 & bit != 0 { i += 1 }
        return i < ats.count ? Array(ats[i...]) : []
    }
}

/// A stop request from a signal handler, read by the emulation loop.
final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var stopped = false
    func set() { lock.withLock { stopped = true } }
    var isSet: Bool { lock.withLock { stopped } }
}
