import OpenNFCBytes
import OpenNFCRF
import OpenNFCTags

/// A ``Type5Link`` whose failures read as the CLI's one-line errors ("the tag did not answer while trying to …",
/// "the tag refused to …: error 12 (…)"). The requests are ``ISO15693Request``'s (`OpenNFCTags/Type5/`).
struct ISO15693Steps {
    let link: Type5Link

    var uid: [UInt8] { link.uid }
    var manufacturer: UInt8 { link.manufacturer }
    var writesNeedOption: Bool { link.writesNeedOption }

    /// The answer after its flags byte.
    func send(_ request: ISO15693Request, option: Bool = false, doing what: String) throws(CLIError) -> [UInt8] {
        try Self.step(what) { () throws(TagError) in try link.send(request, option: option, what: what) }
    }

    /// A write or lock, with the Option flag where the chip needs it.
    func write(_ request: ISO15693Request, doing what: String) throws(CLIError) {
        try Self.step(what) { () throws(TagError) in try link.write(request, what: what) }
    }

    /// Runs `body`, its failure in the CLI's words.
    static func step<T>(_ what: String, _ body: () throws(TagError) -> T) throws(CLIError) -> T {
        do {
            return try body()
        } catch {
            switch (error.code, error.rfError?.code, error.iso15693Error) {
            case (.rf, .timeout?, _): throw CLIError.failure("the tag did not answer while trying to \(what)")
            case (.rf, .linkLost?, _):
                throw CLIError.failure("the tag left the field while trying to \(what); hold it still and try again")
            case (.rf, _, _): throw CLIError.failure("cannot \(what): \(error.rfError.map { "\($0)" } ?? error.reason)")
            case (.commandRejected, _, let e?):
                throw CLIError.failure(
                    "the tag refused to \(what): error \(Hex.encode([e])) (\(Type5Link.describe(e)))")
            default: throw CLIError.failure(TagErrorText.describe(error, doing: what))
            }
        }
    }
}

extension Commands {
    static let iso15693 = Command(
        name: "iso15693",
        abstract: "ISO 15693 (Type 5) tag operations: system information, AFI, DSFID, NXP EAS, privacy and passwords.",
        discussion: """
            Every request is addressed with the tag's UID (ISO/IEC 15693-3 request flags 22); TI chips get the \
            Option flag their writes need. Locks are permanent: lock-afi, lock-dsfid, 'eas lock', 'eas \
            protect-eas|protect-afi', 'password --lock' and 'protect --lock' refuse to run without --yes. The NXP \
            commands (eas, privacy, password, signature, protect) are ICODE SLIX/SLIX2 custom commands \
            (manufacturer 04) and are refused on other tags; passwords are sent XORed with a fresh GET RANDOM \
            NUMBER, as the chip requires. A password presented holds until the tag leaves the field, that is for \
            one opennfc command.

            Examples:
              opennfc iso15693 info --device sim:slix.json
              opennfc iso15693 write-afi 12 --device pcsc
              opennfc iso15693 lock-dsfid --yes --device sim:slix.json
              opennfc iso15693 eas set --device sim:slix.json
              opennfc iso15693 password --id read --password 00000000 --new 12345678 --device sim:slix2.json
              opennfc iso15693 protect --pointer 10 --condition 11 --read-password 0 --write-password 0 \
                --device sim:slix2.json
              opennfc iso15693 signature --device sim:slix2.json
            """,
        subcommands: [
            iso15693Info, iso15693WriteAFI, iso15693LockAFI, iso15693WriteDSFID, iso15693LockDSFID, iso15693EAS,
            iso15693Privacy, iso15693Password, iso15693Signature, iso15693Protect,
        ]
    )

    static let iso15693Options = TagSession.options + [.init(name: "json", help: "Print the result as JSON.")]
    static let yesOption = Command.Option(name: "yes", help: "Confirm a permanent lock.")

    /// Connects to the ISO 15693 tag in the field, runs `body`, prints its one-line result.
    static func onISO15693Tag(
        _ inv: Invocation, nxp: Bool = false, _ body: (ISO15693Steps) throws -> (text: String, json: JSONValue)
    ) throws -> Int32 {
        try TagSession.run(inv) { session in
            let target = try session.connect()
            guard target.nfcV != nil else {
                throw CLIError.failure(
                    "the tag (UID \(target.identifier.hexString)) is not an ISO 15693 tag (it is \(target.technology))")
            }
            let link = ISO15693Steps(link: Type5Link(frontend: session.frontend, uid: target.identifier))
            if nxp && link.manufacturer != 0x04 {
                throw CLIError.failure(
                    "this is an NXP ICODE command; the tag (UID \(link.uid.hexString)) is of manufacturer "
                        + "\(Hex.encode([link.manufacturer])), not NXP (04)")
            }
            let result = try body(link)
            try session.release()
            if inv.flag("json") {
                Console.out(
                    JSONValue.object([("uid", .string(link.uid.hexString)), ("result", result.json)]).pretty + "\n")
            } else {
                Console.out("\(result.text)\n")
            }
            return 0
        }
    }

    static func byteArgument(_ inv: Invocation, _ what: String) throws -> UInt8 {
        guard let text = inv.positionals.first else { throw CLIError.usage("missing expected argument '<\(what)>'") }
        guard let b = try? Hex.decode(text), b.count == 1 else {
            throw CLIError.usage("<\(what)> takes one byte as 2 hex digits, not '\(text)'")
        }
        return b[0]
    }

    static func requireYes(_ inv: Invocation, _ what: String) throws {
        guard inv.flag("yes") else {
            throw CLIError.usage("\(what) is permanent: it can never be undone on the tag; add --yes to do it")
        }
    }

    static let iso15693Info = Command(
        name: "info", abstract: "Print the tag's system information and locked blocks.",
        options: iso15693Options,
        run: { inv in
            try onISO15693Tag(inv) { link in
                let info = try ISO15693Steps.step("get the system information") { () throws(TagError) in
                    try Type5MemoryReader.systemInfo(link.link)
                }
                var parts = ["UID \(link.uid.hexString)"]
                var json: [(String, JSONValue)] = []
                if let d = info.dsfid {
                    parts.append("DSFID \(Hex.encode([d]))")
                    json.append(("dsfid", .string(Hex.encode([d]))))
                }
                if let a = info.afi {
                    parts.append("AFI \(Hex.encode([a]))")
                    json.append(("afi", .string(Hex.encode([a]))))
                }
                if let n = info.blockCount, let s = info.blockSize {
                    parts.append("\(n) blocks of \(s) bytes")
                    json += [("blocks", .int(n)), ("blockSize", .int(s))]
                    let locked = try ISO15693Steps.step("read the security status of blocks") { () throws(TagError) in
                        try Type5MemoryReader.lockedBlocks(link.link, count: n, run: 64).sorted()
                    }
                    parts.append(locked.isEmpty ? "no block locked" : "locked blocks \(ranges(locked))")
                    json.append(("lockedBlocks", .array(locked.map { .int($0) })))
                }
                if let ic = info.icReference {
                    parts.append("IC reference \(Hex.encode([ic]))")
                    json.append(("icReference", .string(Hex.encode([ic]))))
                }
                var text = parts.joined(separator: ", ")
                if let nxp = try nxpSystemInfo(link) {
                    text += "\n" + nxp.text
                    json.append(("nxp", nxp.json))
                }
                if let st = try st25Configuration(link) {
                    text += "\n" + st.text
                    json.append(("st25dv", st.json))
                }
                return (text, .object(json))
            }
        })

    /// GET NXP SYSTEM INFORMATION on NXP tags that have it (the SLIX does not: nil): protection pointer and
    /// condition, lock bits, feature flags.
    static func nxpSystemInfo(_ link: ISO15693Steps) throws -> (text: String, json: JSONValue)? {
        guard let info = link.link.nxpSystemInfo() else { return nil }
        let text =
            "NXP: protection pointer \(info.protectionPointer) (block), condition "
            + "\(Hex.encode([info.protectionCondition])), locked: "
            + (info.locked.isEmpty ? "nothing" : info.locked.joined(separator: ", ")) + "; features: "
            + info.features.joined(separator: ", ")
        return (
            text,
            .object([
                ("protectionPointer", .int(Int(info.protectionPointer))),
                ("protectionCondition", .string(Hex.encode([info.protectionCondition]))),
                ("lockBits", .string(Hex.encode([info.lockBits]))),
                ("featureFlags", .string(Hex.encode(info.featureFlags))),
            ])
        )
    }

    /// The ST25DV area registers (ENDA1–3, RFA1SS–RFA4SS) by READ CONFIGURATION.
    static func st25Configuration(_ link: ISO15693Steps) throws -> (text: String, json: JSONValue)? {
        guard
            let regs = try ISO15693Steps.step(
                "read the configuration registers",
                { () throws(TagError) in
                    try link.link.st25AreaConfiguration()
                })
        else { return nil }
        return (
            "ST25DV: " + regs.map { "\($0.name) \(Hex.encode([$0.value]))" }.joined(separator: ", "),
            .object(regs.map { ($0.name, .string(Hex.encode([$0.value]))) })
        )
    }

    /// `0-3, 7, 9-10`.
    static func ranges(_ sorted: [Int]) -> String {
        var out: [String] = []
        var i = 0
        while i < sorted.count {
            var j = i
            while j + 1 < sorted.count && sorted[j + 1] == sorted[j] + 1 { j += 1 }
            out.append(i == j ? "\(sorted[i])" : "\(sorted[i])-\(sorted[j])")
            i = j + 1
        }
        return out.joined(separator: ", ")
    }

    static let iso15693WriteAFI = Command(
        name: "write-afi", abstract: "Write the application family identifier (WRITE AFI).",
        arguments: [.init(name: "afi", help: "One byte in hex (00 = no family).")], options: iso15693Options,
        run: { inv in
            let afi = try byteArgument(inv, "afi")
            return try onISO15693Tag(inv) { link in
                try link.write(.writeAFI(afi), doing: "write the AFI")
                return ("AFI \(Hex.encode([afi])) written to \(link.uid.hexString).", .string(Hex.encode([afi])))
            }
        })

    static let iso15693LockAFI = Command(
        name: "lock-afi", abstract: "Lock the AFI for good (LOCK AFI); needs --yes.",
        options: iso15693Options + [yesOption],
        run: { inv in
            try requireYes(inv, "locking the AFI")
            return try onISO15693Tag(inv) { link in
                try link.write(.lockAFI, doing: "lock the AFI")
                return ("AFI of \(link.uid.hexString) locked.", .string("locked"))
            }
        })

    static let iso15693WriteDSFID = Command(
        name: "write-dsfid", abstract: "Write the data storage format identifier (WRITE DSFID).",
        arguments: [.init(name: "dsfid", help: "One byte in hex.")], options: iso15693Options,
        run: { inv in
            let dsfid = try byteArgument(inv, "dsfid")
            return try onISO15693Tag(inv) { link in
                try link.write(.writeDSFID(dsfid), doing: "write the DSFID")
                return ("DSFID \(Hex.encode([dsfid])) written to \(link.uid.hexString).", .string(Hex.encode([dsfid])))
            }
        })

    static let iso15693LockDSFID = Command(
        name: "lock-dsfid", abstract: "Lock the DSFID for good (LOCK DSFID); needs --yes.",
        options: iso15693Options + [yesOption],
        run: { inv in
            try requireYes(inv, "locking the DSFID")
            return try onISO15693Tag(inv) { link in
                try link.write(.lockDSFID, doing: "lock the DSFID")
                return ("DSFID of \(link.uid.hexString) locked.", .string("locked"))
            }
        })
}
