import Foundation
import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCRF
import OpenNFCTags

extension Commands {
    static let passportRead = Command(
        name: "read",
        abstract: "Read an ePassport or eID card (ICAO 9303) with BAC or PACE and verify it.",
        discussion: """
            Opens the document with PACE when its EF.CardAccess offers ECDH Generic Mapping, else with BAC; reads
            EF.COM, every data group it lists (DG3/DG4 need Terminal Authentication and are skipped) and EF.SOD
            under secure messaging; runs Chip Authentication (DG14) and Active Authentication (DG15); checks each
            data group's hash and the SOD's signature (passive authentication) and, with --csca, the Document
            Signer's certificate against the CSCAs. Prints what the document says and each check's result with the
            reason when it fails; the exit status is 1 when any check failed.

            --mrz takes the whole MRZ (2×44, 2×36 or 3×30 characters; newlines optional) or the document number,
            date of birth and date of expiry as NUMBER,YYMMDD,YYMMDD. --can takes the card access number (PACE only).

            Examples:
              opennfc passport read --mrz 'L898902C3,740812,120415' --device sim:passport.json
              opennfc passport read --can 123456 --csca test-csca/ --photo face.jpg --device pcsc
            """,
        options: TagSession.options + [
            .init(name: "mrz", value: "<mrz>", help: "The MRZ, or NUMBER,YYMMDD,YYMMDD (birth, expiry)."),
            .init(name: "can", value: "<digits>", help: "The card access number (PACE)."),
            .init(
                name: "csca", value: "<dir|file>",
                help:
                    "CSCA certificates: a folder of .cer/.crt/.der/.pem/.ml files, one such file, or an ICAO master list."
            ),
            .init(name: "photo", value: "<file>", help: "Write DG2's face image (JPEG or JPEG 2000) here."),
            .init(name: "date", value: "<YYYY-MM-DD>", help: "Judge certificate validity at this date (default: now)."),
            .init(name: "no-pace", help: "Use BAC even when the document offers PACE."),
            .init(name: "json", help: "Print the result as JSON."),
        ],
        run: { inv in
            let password = try passportPassword(inv)
            let cscas = try inv.value("csca").map(loadCSCAs)
            let now = try passportDate(inv)
            return try TagSession.run(inv) { session in
                let target = try session.connect()
                guard target.isISODEP else {
                    throw CLIError.failure("the tag is not an ISO-DEP (ISO 14443-4) card, so it is no eMRTD")
                }
                var options = PassportReadOptions(
                    password: password, cscas: cscas, now: now, random: SystemRandomSource())
                options.usePACE = !inv.flag("no-pace")
                let result: PassportReadResult
                do {
                    result = try PassportReader.read(
                        transport: FrontendTransport(frontend: session.frontend), options: options)
                } catch {
                    throw CLIError.failure("cannot read the document: \(error)")
                }
                try session.release()
                if let path = inv.value("photo") {
                    guard let face = result.face else {
                        throw CLIError.failure("the document has no face image in DG2")
                    }
                    try InputFile.write(face.data, to: path)
                }
                Console.out(inv.flag("json") ? passportJSON(result).pretty + "\n" : passportText(result))
                return result.passed ? 0 : 1
            }
        }
    )

    static func passportPassword(_ inv: Invocation) throws -> PACEPassword {
        switch (inv.value("mrz"), inv.value("can")) {
        case (nil, nil): throw CLIError.usage("give --mrz or --can")
        case (.some, .some): throw CLIError.usage("give --mrz or --can, not both")
        case (nil, .some(let can)):
            guard !can.isEmpty, can.allSatisfy(\.isNumber) else {
                throw CLIError.usage("--can takes digits, not '\(can)'")
            }
            return .can(can)
        case (.some(let text), nil):
            do throws(PassportError) {
                let parts = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                if parts.count == 3 {
                    return .mrz(
                        keyInformation: try MRZ.keyInformation(
                            documentNumber: parts[0], dateOfBirth: parts[1], dateOfExpiry: parts[2]))
                }
                return .mrz(keyInformation: try MRZ(text).keyInformation)
            } catch {
                throw CLIError.usage("--mrz: \(error.reason)")
            }
        }
    }

    static func passportDate(_ inv: Invocation) throws -> Int {
        guard let text = inv.value("date") else { return Int(Date().timeIntervalSince1970) }
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, (1...12).contains(parts[1]), (1...31).contains(parts[2]) else {
            throw CLIError.usage("--date takes YYYY-MM-DD, not '\(text)'")
        }
        return DERTime(year: parts[0], month: parts[1], day: parts[2], hour: 12).secondsSince1970
    }

    static func loadCSCAs(_ path: String) throws -> CSCAList {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError.failure("--csca '\(path)' does not exist")
        }
        var files = [path]
        if isDirectory.boolValue {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            // Certificates and master lists by their usual extensions; keys and notes beside them are skipped.
            let kinds = ["cer", "crt", "der", "pem", "ml", "mls"]
            files = names.sorted().filter { n in
                !n.hasPrefix(".") && kinds.contains(String(n.split(separator: ".").last ?? "").lowercased())
            }.map { "\(path)/\($0)" }.filter {
                var d: ObjCBool = false
                return FileManager.default.fileExists(atPath: $0, isDirectory: &d) && !d.boolValue
            }
        }
        var certificates: [Certificate] = []
        for file in files {
            let bytes = try InputFile.bytes(file, what: "CSCA file")
            do { certificates += try CSCAList.certificates(inFile: bytes, name: file) } catch {
                throw CLIError.failure("--csca: \(error.reason)")
            }
        }
        guard !certificates.isEmpty else { throw CLIError.failure("--csca '\(path)' holds no certificate") }
        return CSCAList(certificates: certificates)
    }

    static func passportText(_ r: PassportReadResult) -> String {
        var out = ""
        func line(_ label: String, _ value: String) {
            out += label.padding(toLength: 18, withPad: " ", startingAt: 0) + value + "\n"
        }
        if let m = r.mrz {
            line(
                "Document",
                "\(m.documentCode.replacingOccurrences(of: "<", with: "")) \(m.issuingState) \(m.documentNumber.replacingOccurrences(of: "<", with: "")) (\(m.format.rawValue.uppercased()))"
            )
            line("Holder", "\(m.primaryIdentifier), \(m.secondaryIdentifier)")
            line("Nationality", m.nationality)
            line("Date of birth", m.dateOfBirth)
            line("Sex", m.sex)
            line("Date of expiry", m.dateOfExpiry)
            if !m.optionalData.isEmpty { line("Optional data", m.optionalData) }
        }
        for (name, value) in r.details { line(name, value) }
        if let f = r.face { line("Face image", "\(f.mimeType) \(f.width)×\(f.height), \(f.data.count) bytes") }
        line("Access control", r.accessControl)
        line("Data groups", r.dataGroups.keys.sorted().map { "DG\($0)" }.joined(separator: " "))
        for (n, why) in r.skipped.sorted(by: { $0.key < $1.key }) { line("Skipped DG\(n)", why) }
        out += "Verification\n"
        func check(_ label: String, _ c: PassportReadResult.Check, _ extra: String? = nil) {
            var text = c.word
            if let reason = c.reason { text += ": \(reason)" } else if let extra { text += " (\(extra))" }
            line("  " + label, text)
        }
        if let p = r.passive {
            for (n, c) in p.dataGroups.sorted(by: { $0.key < $1.key }) { check("DG\(n) hash", c) }
            check("SOD signature", p.sodSignature, p.documentSignerSubject.map { "Document Signer \($0)" })
            check("Chain", p.documentSigner, p.cscaSubject.map { "CSCA \($0)" })
        } else {
            line("  Passive", "not checked: the document has no EF.SOD")
        }
        check("Chip auth", r.chipAuthentication)
        check("Active auth", r.activeAuthentication)
        line("Result", r.passed ? "verified" : "NOT VERIFIED")
        line("APDUs", String(r.apduCount))
        return out
    }

    static func passportJSON(_ r: PassportReadResult) -> JSONValue {
        func check(_ c: PassportReadResult.Check) -> JSONValue {
            var o: [(String, JSONValue)] = [("result", .string(c.word))]
            if let reason = c.reason { o.append(("reason", .string(reason))) }
            return .object(o)
        }
        var o: [(String, JSONValue)] = [("accessControl", .string(r.accessControl))]
        if let m = r.mrz {
            o.append(
                (
                    "mrz",
                    .object([
                        ("format", .string(m.format.rawValue)), ("documentCode", .string(m.documentCode)),
                        ("issuingState", .string(m.issuingState)), ("documentNumber", .string(m.documentNumber)),
                        ("primaryIdentifier", .string(m.primaryIdentifier)),
                        ("secondaryIdentifier", .string(m.secondaryIdentifier)),
                        ("nationality", .string(m.nationality)), ("dateOfBirth", .string(m.dateOfBirth)),
                        ("sex", .string(m.sex)), ("dateOfExpiry", .string(m.dateOfExpiry)),
                        ("optionalData", .string(m.optionalData)), ("text", .string(m.text)),
                    ])
                ))
        }
        if !r.details.isEmpty { o.append(("details", .object(r.details.map { ($0.0, JSONValue.string($0.1)) }))) }
        if let f = r.face {
            o.append(
                (
                    "face",
                    .object([
                        ("mimeType", .string(f.mimeType)), ("width", .int(f.width)), ("height", .int(f.height)),
                        ("bytes", .int(f.data.count)),
                    ])
                ))
        }
        o.append(("dataGroups", .array(r.dataGroups.keys.sorted().map { .int($0) })))
        var checks: [(String, JSONValue)] = []
        if let p = r.passive {
            checks.append(
                (
                    "dataGroupHashes",
                    .object(p.dataGroups.sorted { $0.key < $1.key }.map { ("DG\($0.key)", check($0.value)) })
                ))
            checks.append(("sodSignature", check(p.sodSignature)))
            checks.append(("chain", check(p.documentSigner)))
            if let s = p.documentSignerSubject { checks.append(("documentSigner", .string(s))) }
            if let s = p.cscaSubject { checks.append(("csca", .string(s))) }
        }
        checks.append(("chipAuthentication", check(r.chipAuthentication)))
        checks.append(("activeAuthentication", check(r.activeAuthentication)))
        o.append(("verification", .object(checks)))
        o.append(("verified", .bool(r.passed)))
        o.append(("apdus", .int(r.apduCount)))
        return .object(o)
    }
}
