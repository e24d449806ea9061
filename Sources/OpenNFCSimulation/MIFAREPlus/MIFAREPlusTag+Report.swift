internal import OpenNFCBytes
internal import OpenNFCCrypto

/// `opennfc tag show` for a MIFARE Plus: the level and what the reader sees of it (SAK, ATQA, ATS), GetVersion, the
/// signature, the card keys, and per sector its keys (AES; Crypto1 too in SL1) and access conditions.
extension MIFAREPlusTag {
    var report: TagReport {
        let signatureValid =
            (try? ECDSA(.secp224r1).verify(signature, of: uid, publicKey: Self.signaturePublicKey)) ?? false
        var lines = [
            "Product: \(model.displayName), security level \(securityLevel)"
                + (nextLevel != securityLevel ? " (SL\(nextLevel) from the next activation)" : "")
                + ", UID \(Hex.encode(uid)), ATQA \(Hex.encode([UInt8(model.atqa >> 8), UInt8(model.atqa & 0xFF)])), "
                + "SAK \(Hex.encode([model.sak(level: securityLevel)]))"
                + (securityLevel == 1 ? " (MIFARE Classic compatible)" : ", ATS \(Hex.encode(Self.ats))"),
            "GetVersion: \(Hex.encode(versionHardware)) \(Hex.encode(versionHardware)) \(Hex.encode(uid + production))",
            "Signature: \(Hex.encode(signature)) (\(signatureValid ? "valid for the simulator's test key" : "not the simulator's test key"))",
            "Block 0: \(Hex.encode(block(0), separator: " "))",
        ]
        let cardKeys = model.keyAddresses.filter { $0 >= 0x9000 }
        lines.append(
            "Card keys: "
                + cardKeys.map { "\(Self.addressText($0)) \(keyText($0))" }.joined(separator: ", "))
        lines.append(
            "Configuration: "
                + MIFAREPlusModel.configurationAddresses.map {
                    "\(Self.addressText($0)) \(Hex.encode(configuration[$0] ?? []))"
                }.joined(separator: ", "))
        if securityLevel == 0 {
            lines.append(
                "Personalised (WritePerso): "
                    + (personalised.isEmpty
                        ? "nothing yet" : personalised.sorted().map(Self.addressText).joined(separator: " ")))
        }
        var sectors: [JSONValue] = []
        for s in 0..<model.sectorCount {
            let trailer = block(MifareClassicModel.trailerBlock(ofSector: s))
            let a = UInt16(0x4000 + 2 * s)
            var line =
                "Sector \(s): AES key A \(keyText(a)) key B \(keyText(a + 1)) access \(Hex.encode(trailer[6..<9]))"
            if securityLevel == 1 {
                let keyA = classic.isKnown(0x60, sector: s) ? Hex.encode(trailer[0..<6]) : "?"
                let keyB = classic.isKnown(0x61, sector: s) ? Hex.encode(trailer[10..<16]) : "?"
                line += " Crypto1 key A \(keyA) key B \(keyB)"
            } else {
                line += " SL3 access byte \(Hex.encode([trailer[5]]))"
            }
            lines.append(line)
            sectors.append(
                .object([
                    ("sector", .int(s)),
                    ("aesKeyA", unknownKeys.contains(a) ? .null : .string(Hex.encode(keys[a] ?? []))),
                    ("aesKeyB", unknownKeys.contains(a + 1) ? .null : .string(Hex.encode(keys[a + 1] ?? []))),
                    ("access", .string(Hex.encode(trailer[6..<10]))),
                ]))
        }
        // The one memory map, as MIFARE Classic's: SL1 keeps Crypto1 keys in the trailers, SL0/SL3 AES keys apart.
        lines.append("Memory:")
        let classic = self.classic
        lines += MifareClassicMemoryMap.map(
            blocks: (0..<model.blockCount).map { block($0) }, uidLength: model.uidLength,
            keys: securityLevel == 1
                ? .crypto1(unknown: { s, isKeyB in !classic.isKnown(isKeyB ? 0x61 : 0x60, sector: s) }) : .aes
        ).lines(indent: "  ")
        return TagReport(
            lines: lines,
            json: [
                ("product", .string(model.displayName)), ("securityLevel", .int(Int(securityLevel))),
                ("signatureValid", .bool(signatureValid)), ("sectors", .array(sectors)),
            ],
            ndefAccess: "not NDEF formatted (no NFC Forum mapping for MIFARE Plus here)")
    }

    private func keyText(_ address: UInt16) -> String {
        unknownKeys.contains(address) ? "? (unknown)" : Hex.encode(keys[address] ?? [])
    }
}
