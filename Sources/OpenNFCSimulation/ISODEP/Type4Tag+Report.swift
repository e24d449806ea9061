internal import OpenNFCBytes

/// The decoded view of a Type 4 card for `opennfc tag show`: ISO-DEP parameters, CC file, NDEF file, access.
extension Type4Tag {
    var report: TagReport {
        typealias F = ISODEPReportFormatting
        let c = configuration
        var lines: [String] = []
        var json: [(String, JSONValue)] = []
        let mapping = "\(c.mappingVersion >> 4).\(c.mappingVersion & 0x0F)"
        lines.append(
            "Product: NFC Forum Type 4 Tag (ISO-DEP), NDEF mapping \(mapping), MLe \(c.mle), MLc \(c.mlc), "
                + (c.extendedLength ? "extended length APDUs" : "short APDUs only"))
        json += [
            ("product", .string("NFC Forum Type 4 Tag")), ("mappingVersion", .string(mapping)), ("mle", .int(c.mle)),
            ("mlc", .int(c.mlc)), ("extendedLength", .bool(c.extendedLength)),
        ]
        if let ats = activation.ats { lines.append("ATS: \(F.ats(ats))") }
        let applets = volume.entries.compactMap { entry -> [UInt8]? in
            if case .applet(let a) = entry { return a.aid }
            return nil
        }
        if !applets.isEmpty {
            lines.append("Applets (not stored in tag files): " + applets.map { Hex.encode($0) }.joined(separator: ", "))
        }
        guard c.hostsNDEFApplication else {
            lines.append("NDEF application: none (applet-only card)")
            json.append(("ndefApplication", .null))
            return TagReport(lines: lines, json: json, ndefAccess: "no NDEF application")
        }
        var names = [Hex.encode(c.ndefApplicationName, separator: " ")]
        if c.answersBothNDEFNames {
            names.append(
                Hex.encode(
                    c.mappingVersion >> 4 == 1
                        ? Type4Configuration.ndefApplicationNameV2 : Type4Configuration.ndefApplicationNameV1,
                    separator: " "))
        }
        lines.append("NDEF application: DF name " + names.joined(separator: " and "))
        json.append(("ndefApplication", .array(names.map { .string($0.replacingSpaces) })))

        let cc = capabilityContainerFile
        lines.append(
            "CC file E103 (the file's own write access \(F.t4tAccess(c.ccWriteAccess))): \(Hex.encode(cc, separator: " "))"
        )
        var ccJSON: [(String, JSONValue)] = [
            ("bytes", .string(Hex.encode(cc))), ("fileWriteAccess", .string(Hex.encode([c.ccWriteAccess]))),
        ]
        if cc.count >= 15, cc[7] == 0x04, cc[8] >= 0x06 {
            let be = { (i: Int) in Int(cc[i]) << 8 | Int(cc[i + 1]) }
            lines.append(
                "  CCLEN \(be(0)), mapping \(cc[2] >> 4).\(cc[2] & 0x0F), MLe \(be(3)), MLc \(be(5)); "
                    + "NDEF File Control TLV: file \(Hex.encode(cc[9..<11])), maximum size \(be(11)), "
                    + "read access \(F.t4tAccess(cc[13])), write access \(F.t4tAccess(cc[14]))")
            ccJSON += [
                ("cclen", .int(be(0))), ("version", .string("\(cc[2] >> 4).\(cc[2] & 0x0F)")), ("mle", .int(be(3))),
                ("mlc", .int(be(5))), ("ndefFileID", .string(Hex.encode(cc[9..<11]))), ("maxNDEFSize", .int(be(11))),
                ("readAccess", .string(Hex.encode([cc[13]]))), ("writeAccess", .string(Hex.encode([cc[14]]))),
            ]
        } else if cc.count >= 17, cc[7] == 0x06, cc[8] == 0x08 {
            let be = { (i: Int) in Int(cc[i]) << 8 | Int(cc[i + 1]) }
            let size = be(11) << 16 | be(13)
            lines.append(
                "  CCLEN \(be(0)), mapping \(cc[2] >> 4).\(cc[2] & 0x0F), MLe \(be(3)), MLc \(be(5)); "
                    + "ENDEF File Control TLV: file \(Hex.encode(cc[9..<11])), maximum size \(size), "
                    + "read access \(F.t4tAccess(cc[15])), write access \(F.t4tAccess(cc[16]))")
            ccJSON += [
                ("cclen", .int(be(0))), ("version", .string("\(cc[2] >> 4).\(cc[2] & 0x0F)")), ("mle", .int(be(3))),
                ("mlc", .int(be(5))), ("ndefFileID", .string(Hex.encode(cc[9..<11]))), ("maxNDEFSize", .int(size)),
                ("readAccess", .string(Hex.encode([cc[15]]))), ("writeAccess", .string(Hex.encode([cc[16]]))),
            ]
        } else {
            lines.append("  (no NDEF File Control TLV at offset 7)")
        }
        json.append(("cc", .object(ccJSON)))

        let file = ndefFile
        let access = ndefAccess
        let nlen = ndefLength
        let lengthName = c.usesExtendedNDEFFile ? "ENLEN" : "NLEN"
        let capacity = file.count - c.lengthFieldSize
        let fid = Hex.encode([UInt8(c.ndefFileID >> 8), UInt8(c.ndefFileID & 0xFF)])
        lines.append(
            "NDEF file \(fid): \(file.count) bytes, \(lengthName) \(nlen) (capacity \(capacity)), "
                + "read access \(F.t4tAccess(access.read)), write access \(F.t4tAccess(access.write))")
        if nlen > capacity { lines.append("  \(lengthName) exceeds the file: the message is cut at the file end") }
        json.append(
            (
                "ndefFile",
                .object([
                    ("id", .string(fid)), ("size", .int(file.count)),
                    (c.usesExtendedNDEFFile ? "enlen" : "nlen", .int(nlen)),
                    ("readAccess", .string(Hex.encode([access.read]))),
                    ("writeAccess", .string(Hex.encode([access.write]))),
                ])
            ))
        lines.append("NDEF file contents:")
        lines += MemoryMap(
            bytes: file, width: 16, minimumDigits: 4, numbering: { $0 * 16 },
            note: { $0 == 0 ? "\(lengthName) (\(c.lengthFieldSize) bytes), then the message" : "" }
        ).lines(indent: "  ")
        let plain: String
        if access.read != 0x00 {
            plain = "no read access"
        } else {
            plain = access.write == 0x00 ? "read/write" : "read-only"
        }
        return TagReport(lines: lines, json: json, ndefAccess: plain)
    }
}

extension String {
    fileprivate var replacingSpaces: String { filter { $0 != " " } }
}
