internal import OpenNFCBytes

/// What `opennfc tag show` prints about a virtual eMRTD: the holder as DG1 says, the access protocols, the files
/// with their sizes and SHA-256-free summaries, the TEST keys (labelled as such) and the faults.
extension EMRTDTag {
    var report: TagReport {
        let d = document
        var lines: [String] = []
        var json: [(String, JSONValue)] = []
        let product = d.kind == .passport ? "ICAO 9303 eMRTD passport (TD3)" : "ICAO 9303 eMRTD ID card (TD1)"
        lines.append("Product: \(product), LDS 1.7, \(activation.technology == .nfcB ? "NFC-B" : "NFC-A")")
        json.append(("product", .string(product)))
        if let mrz = d.mrz {
            lines.append(
                "Holder: \(mrz.displayName), \(mrz.nationality), born \(mrz.dateOfBirth) (YYMMDD), sex \(mrz.sex)")
            lines.append(
                "Document: \(mrz.documentCode.replacingFiller) \(mrz.documentNumber) issued by \(mrz.issuingState), "
                    + "expires \(mrz.dateOfExpiry) (YYMMDD)")
            lines.append("MRZ:")
            lines += mrz.lines.map { "  \($0)" }
            lines.append("BAC/PACE MRZ information: \(mrz.keyInformation)")
            json += [
                ("mrz", .array(mrz.lines.map { .string($0) })), ("documentNumber", .string(mrz.documentNumber)),
                ("surname", .string(mrz.surname)), ("givenNames", .string(mrz.givenNames)),
                ("nationality", .string(mrz.nationality)), ("dateOfBirth", .string(mrz.dateOfBirth)),
                ("dateOfExpiry", .string(mrz.dateOfExpiry)), ("sex", .string(mrz.sex)),
            ]
        }
        var access = d.paceOnly ? ["PACE only (BAC refused with 6A 88)"] : ["BAC"]
        if !d.pace.isEmpty { access.append("PACE " + d.pace.map(\.name).joined(separator: ", ")) }
        lines.append("Access: " + access.joined(separator: "; ") + (d.can.map { "; CAN \($0)" } ?? ""))
        json += [
            ("paceOnly", .bool(d.paceOnly)), ("pace", .array(d.pace.map { .string($0.name) })),
            ("can", d.can.map { .string($0) } ?? .null),
        ]
        lines.append("Files:")
        for file in d.files.keys.sorted() {
            let bytes = d.files[file] ?? []
            let place = file.inMasterFile ? "MF" : "eMRTD application"
            lines.append("  \(file) (\(Hex.encode(file.fileID.bigEndianBytes)), \(place)): \(bytes.count) bytes")
        }
        json.append(
            ("files", .object(d.files.keys.sorted().map { ($0.description, .int(d.files[$0]?.count ?? 0)) })))
        lines.append("Keys (TEST keys generated for this virtual document, never a real issuer's):")
        if d.chipAuthenticationKey != nil {
            lines.append("  Chip Authentication: TEST EC key (brainpoolP256r1), \(d.chipAuthenticationCipher.rawValue)")
        }
        if d.activeAuthenticationKey != nil {
            lines.append(
                "  Active Authentication: TEST key"
                    + (d.faults.contains(.cloned) ? " that does NOT match DG15 (fault cloned)" : " matching DG15"))
        }
        lines.append("  Document Signer and CSCA: TEST ECDSA P-256 certificates and private keys (subjects say TEST)")
        json.append(("testKeys", .string(Self.testKeysNote)))
        if d.faults.isEmpty {
            lines.append("Faults: none")
        } else {
            lines.append("Faults:")
            lines += d.faults.sorted().map { "  \($0.rawValue): \($0.summary)" }
        }
        json.append(("faults", .array(d.faults.sorted().map { .string($0.rawValue) })))
        return TagReport(lines: lines, json: json, ndefAccess: "not NDEF formatted (eMRTD)")
    }
}

extension UInt16 {
    fileprivate var bigEndianBytes: [UInt8] { [UInt8(self >> 8), UInt8(self & 0xFF)] }
}

extension String {
    fileprivate var replacingFiller: String { String(map { $0 == "<" ? " " : $0 }).trimmingSpaces }
    fileprivate var trimmingSpaces: String { String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed()) }
}
