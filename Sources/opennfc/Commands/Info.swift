import OpenNFCBytes
import OpenNFCRF
import OpenNFCTags

extension Commands {
    static let info = Command(
        name: "info",
        abstract: "Identify every tag in the field: technology, identifiers, chip, memory, NDEF, locks, keys.",
        discussion: """
            For each tag, what nfc-list and a Proxmark's "hf search" tell, with only the fields its technology has:
            NFC-A UID, ATQA, SAK and ATS (HR for Topaz); NFC-B PUPI and ATQB; NFC-F IDm, PMm and system code;
            NFC-V UID, DSFID, AFI and IC manufacturer. Then the chip, its memory, the NDEF status, capacity and
            message size, the lock state, password protection (NTAG21x, Ultralight EV1: AUTH0), the NXP
            originality signature (READ_SIG, shown, not verified) and, for MIFARE Classic, which well-known keys
            open which sectors. A blank or non-NDEF tag is described too (NDEF: "not formatted"); nothing is
            written. With sim:a+b, every tag in turn.

            Examples:
              opennfc info --device sim:poster.json
              opennfc info --json --device pcsc
            """,
        options: TagSession.options + [.init(name: "json", help: "Print a JSON array, one object per tag.")],
        run: { inv in
            try TagSession.run(inv) { session in
                var tags: [[TagInfo.Fact]] = []
                repeat {
                    let tag = try session.connectTag()
                    tags.append(TagInfo.facts(tag))
                    try session.release()
                } while (session.device.tagsRemaining ?? 0) > 0
                if inv.flag("json") {
                    let array = tags.map { facts in
                        JSONValue.object(facts.filter { !$0.key.isEmpty }.map { ($0.key, $0.json) })
                    }
                    Console.out(JSONValue.array(array).pretty + "\n")
                } else {
                    var out = ""
                    for (n, facts) in tags.enumerated() {
                        if tags.count > 1 { out += (n > 0 ? "\n" : "") + "Tag \(n + 1) of \(tags.count)\n" }
                        for f in facts {
                            out += (f.label + ":").padding(toLength: 12, withPad: " ", startingAt: 0) + f.text + "\n"
                        }
                    }
                    Console.out(out)
                }
                return 0
            }
        }
    )
}

/// What `opennfc info` learns about one tag, in the order it prints it; reads only.
enum TagInfo {
    struct Fact {
        var label: String
        var text: String
        var key: String
        var json: JSONValue
    }

    static func hex(_ b: [UInt8]) -> String { Hex.encode(b) }

    static func facts(_ tag: ConnectedTag) -> [Fact] {
        var facts = identifiers(tag.target)
        // NFC-V: the AFI from GET SYSTEM INFORMATION when the inventory did not report it.
        if case .type5(let c) = tag.identified.kind, tag.target.nfcV?.afi == nil, let afi = c.systemInfo?.afi,
            let dsfid = facts.firstIndex(where: { $0.key == "dsfid" })
        {
            facts.insert(Fact(label: "AFI", text: hex([afi]), key: "afi", json: .string(hex([afi]))), at: dsfid + 1)
        }
        facts.append(Fact(label: "Chip", text: chipText(tag), key: "chip", json: .string(tag.chip)))
        if let memory = memory(tag) {
            facts.append(Fact(label: "Memory", text: memory.text, key: "memory", json: .int(memory.bytes)))
        }
        facts += ndef(tag)
        facts += family(tag)?.infoFacts?(tag) ?? []
        facts += felicaSystemCodes(tag) + nxpType5Signature(tag)
        return facts
    }

    /// The technology's own identifiers, named as its standard names them.
    static func identifiers(_ t: RFTarget) -> [Fact] { identifiers(activation: t.activation) }

    static func identifiers(activation: RFActivation) -> [Fact] {
        var f: [Fact] = []
        switch activation {
        case .nfcA(let a):
            f.append(
                Fact(
                    label: "Technology", text: "NFC-A (ISO/IEC 14443-3 Type A)", key: "technology",
                    json: .string("nfcA")))
            f.append(Fact(label: "UID", text: hex(a.uid), key: "uid", json: .string(hex(a.uid))))
            if let q = a.sensRes {
                let atqa = hex([UInt8(q >> 8), UInt8(q & 0xFF)])
                f.append(Fact(label: "ATQA", text: atqa, key: "atqa", json: .string(atqa)))
            }
            if let s = a.selRes { f.append(Fact(label: "SAK", text: hex([s]), key: "sak", json: .string(hex([s])))) }
            if let h = a.type1 {
                let hr = hex([h.hr0, h.hr1])
                f.append(Fact(label: "HR", text: hr, key: "hr", json: .string(hr)))
            }
            if let ats = a.ats { f.append(Fact(label: "ATS", text: hex(ats), key: "ats", json: .string(hex(ats)))) }
        case .nfcB(let b):
            f.append(
                Fact(
                    label: "Technology", text: "NFC-B (ISO/IEC 14443-3 Type B)", key: "technology",
                    json: .string("nfcB")))
            f.append(Fact(label: "PUPI", text: hex(b.pupi), key: "pupi", json: .string(hex(b.pupi))))
            f.append(Fact(label: "ATQB", text: hex(b.atqb), key: "atqb", json: .string(hex(b.atqb))))
        case .nfcF(let v):
            f.append(
                Fact(
                    label: "Technology", text: "NFC-F (JIS X 6319-4, FeliCa)", key: "technology", json: .string("nfcF"))
            )
            f.append(Fact(label: "IDm", text: hex(v.idm), key: "idm", json: .string(hex(v.idm))))
            f.append(Fact(label: "PMm", text: hex(v.pmm), key: "pmm", json: .string(hex(v.pmm))))
            if let sc = v.systemCode {
                let code = hex([UInt8(sc >> 8), UInt8(sc & 0xFF)])
                f.append(Fact(label: "System code", text: code, key: "systemCode", json: .string(code)))
            }
        case .nfcV(let v):
            f.append(Fact(label: "Technology", text: "NFC-V (ISO/IEC 15693)", key: "technology", json: .string("nfcV")))
            f.append(Fact(label: "UID", text: hex(v.uid), key: "uid", json: .string(hex(v.uid))))
            f.append(Fact(label: "DSFID", text: hex([v.dsfid]), key: "dsfid", json: .string(hex([v.dsfid]))))
            if let afi = v.afi { f.append(Fact(label: "AFI", text: hex([afi]), key: "afi", json: .string(hex([afi])))) }
            let code = v.uid.count > 1 ? v.uid[1] : 0
            f.append(
                Fact(
                    label: "IC maker", text: "\(hex([code])) (\(manufacturer(code)))", key: "icManufacturer",
                    json: .string(hex([code]))))
        }
        return f
    }

    /// ISO/IEC 7816-6 IC manufacturer codes of the chips opennfc knows.
    static func manufacturer(_ code: UInt8) -> String {
        switch code {
        case 0x02: return "STMicroelectronics"
        case 0x04: return "NXP Semiconductors"
        case 0x07: return "Texas Instruments"
        case 0x16: return "EM Microelectronic"
        default: return "not one opennfc knows"
        }
    }

    /// The tag's ``DumpFamily`` entry (the one `dump` would pick), nil for a tag no entry dumps.
    static func family(_ tag: ConnectedTag) -> DumpFamily? { DumpFamily.all.first(where: { $0.dumps(tag) }) }

    /// The family's own chip and memory lines, from its ``DumpFamily`` entry.
    static func familyInfo(_ tag: ConnectedTag) -> DumpFamily.ChipInfo? { family(tag)?.info?(tag) }

    /// The chip as its family names it; for a tag of no family (unsupported), what identification said.
    static func chipText(_ tag: ConnectedTag) -> String { familyInfo(tag)?.chip ?? tag.chip }

    static func memory(_ tag: ConnectedTag) -> (text: String, bytes: Int)? { familyInfo(tag)?.memory }

    /// NDEF status, capacity, message size and the lock state, or why there is none; never an error.
    static func ndef(_ tag: ConnectedTag) -> [Fact] {
        guard let procedure = try? tag.ndef() else {
            return [Fact(label: "NDEF", text: "no NDEF mapping opennfc reads", key: "ndef", json: .null)]
        }
        let detection: NDEFDetection
        do {
            detection = try procedure.detect()
        } catch {
            let why = TagErrorText.describe(error, doing: "detect NDEF", naks: tag.nakMeaning)
            return [Fact(label: "NDEF", text: "could not be read: \(why)", key: "ndef", json: .null)]
        }
        if detection.status == .notSupported {
            let why = detection.reason ?? "no NDEF data"
            return [
                Fact(
                    label: "NDEF", text: "not formatted: \(why)", key: "ndef",
                    json: .object([("status", .string("notSupported")), ("reason", .string(why))]))
            ]
        }
        var message = "none"
        var messageJSON: JSONValue = .int(0)
        if let bytes = try? procedure.readMessage() {
            if !bytes.isEmpty {
                message = "\(bytes.count) bytes"
                messageJSON = .int(bytes.count)
            }
        } else {
            message = "unreadable (torn?)"
            messageJSON = .null
        }
        let status = detection.status == .readOnly ? "read-only" : "read/write"
        return [
            Fact(
                label: "NDEF", text: "\(status), capacity \(detection.capacity) bytes, message: \(message)",
                key: "ndef",
                json: .object([
                    ("status", .string(detection.status.rawValue)), ("capacity", .int(detection.capacity)),
                    ("messageLength", messageJSON),
                ])),
            Fact(
                label: "Lock", text: detection.status == .readOnly ? "locked (read-only for good)" : "not locked",
                key: "locked", json: .bool(detection.status == .readOnly)),
        ]
    }

    /// NFC-F without a system code in its activation: every system the card has, by Request System Code (`0C`,
    /// JIS X 6319-4; FeliCa Users' Manual §4.4.10), sent by OpenNFCTags' Type 3 link.
    static func felicaSystemCodes(_ tag: ConnectedTag) -> [Fact] {
        guard case .nfcF(let v) = tag.target.activation, v.systemCode == nil else { return [] }
        let link = Type3Link(frontend: tag.frontend, idm: tag.target.identifier)
        guard let codes = try? link.systemCodes(), !codes.isEmpty else { return [] }
        let text = codes.map { hex([UInt8($0 >> 8), UInt8($0 & 0xFF)]) }
        return [
            Fact(
                label: "System codes", text: text.joined(separator: ", "), key: "systemCodes",
                json: .array(text.map { .string($0) }))
        ]
    }

    /// NFC-V by NXP (IC manufacturer 04) whose GET NXP SYSTEM INFORMATION announces an originality signature (the
    /// ICODE SLIX2, SL2S2602 §9.5.14 Table 50): the 32 bytes of READ SIGNATURE (`BD`, §9.5.15), shown, not verified.
    static func nxpType5Signature(_ tag: ConnectedTag) -> [Fact] {
        guard case .nfcV = tag.target.activation else { return [] }
        let link = Type5Link(frontend: tag.frontend, uid: tag.target.identifier)
        guard link.nxpSystemInfo()?.features.contains("originality signature") ?? false,
            let sig = try? link.nxpSignature()
        else { return [] }
        let all0 = sig.allSatisfy { $0 == 0 }
        return [
            Fact(
                label: "Signature",
                text: all0 ? "all zeros (not personalised)" : "\(hex(sig)) (NXP originality, not verified)",
                key: "signature", json: .string(hex(sig)))
        ]
    }
}
