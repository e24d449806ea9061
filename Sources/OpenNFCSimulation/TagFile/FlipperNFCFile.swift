internal import OpenNFCBytes
internal import OpenNFCRF

/// Flipper Zero `.nfc` files (FlipperFormat text, `Filetype: Flipper NFC device`) for the NTAG/Ultralight chips (the ISO-DEP chips: `FlipperNFCFile+ISODEP.swift`),
/// written from the format description in flipperzero-firmware documentation/file_formats/NfcFileFormats.md
/// (summarised in landscape.md §4.1).
///
/// | Feature | Import | Export |
/// |---|---|---|
/// | Version 4, `Device type: NTAG/Ultralight`, data format 2 | ✓ | ✓ (always this form) |
/// | Versions 2–3 (`Device type: NTAG215` …; v2 ATQA LSB first) | ✓ | — |
/// | Signature, Mifare version, Counter/Tearing 0–2, failed attempts | ✓ | ✓ |
/// | `Pages read` < `Pages total` (read-protected pages) | missing pages are zero | all pages |
/// | `??` unknown bytes | read as 00 | — |
/// | `Mifare DESFire`, `ISO14443-4A` | ``decodeAnyChip(_:)`` (`FlipperNFCFile+ISODEP.swift`) | ✓ |
/// | `ISO15693-3`, `SLIX` | ``decodeAnyChip(_:)`` (`FlipperNFCFile+ISO15693.swift`) | ✓ |
/// | `FeliCa` (Lite-S, Standard) | ``decodeAnyChip(_:)`` (`FlipperNFCFile+FeliCa.swift`) | ✓ |
/// | `Mifare Classic` (MINI, 1K, 4K) | ``decodeAnyChip(_:)`` (`FlipperNFCFile+MifareClassic.swift`) | ✓ |
/// | Other device types | error naming the line | — |
///
/// PWD and PACK read back as zeros on a real tag, so dumps usually hold zeros there; export writes the stored
/// values, so a Flipper emulating the file answers PWD_AUTH as the virtual tag does.
package enum FlipperNFCFile {
    /// Flipper's names for the simulated chips (`NTAG/Ultralight type:`).
    static let typeNames: [(flipper: String, chip: String)] = [
        ("NTAG213", "ntag213"), ("NTAG215", "ntag215"), ("NTAG216", "ntag216"),
        ("Mifare Ultralight", "ultralight"), ("Mifare Ultralight 11", "ultralight-ev1-48"),
        ("Mifare Ultralight 21", "ultralight-ev1-128"), ("Ultralight", "ultralight"),
        ("Ultralight 11", "ultralight-ev1-48"), ("Ultralight 21", "ultralight-ev1-128"),
        ("Mifare Ultralight C", "ultralight-c"),
    ]

    /// The first lines of every `.nfc` file Flipper writes (format version 4): the file type, the version, Flipper's
    /// comment listing its device types (as its files carry it) and this file's device type.
    static func preamble(deviceType: String) -> [String] {
        [
            "Filetype: Flipper NFC device",
            "Version: 4",
            "# Device type can be ISO14443-3A, ISO14443-3B, ISO14443-4A, ISO14443-4B, ISO15693-3, FeliCa, "
                + "NTAG/Ultralight, Mifare Classic, Mifare Plus, Mifare DESFire, SLIX, ST25TB, EMV",
            "Device type: \(deviceType)",
        ]
    }

    /// Parses a `.nfc` dump of an NTAG/Ultralight chip into a virtual tag.
    package static func decode(_ text: String) throws(TagFileError) -> Type2Tag {
        var values: [String: (value: String, line: Int)] = [:]
        var pageLines: [Int: (value: String, line: Int)] = [:]
        for (n, line) in text.textLines().enumerated() {
            let trimmed = line.drop { $0 == " " }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw TagFileError("expected 'Key: value'", line: n + 1)
            }
            let key = String(line[..<colon])
            let value = String(line[line.index(after: colon)...].drop { $0 == " " })
            if key.hasPrefix("Page "), let p = Int(key.dropFirst(5)), p >= 0 {
                pageLines[p] = (value, n + 1)
            } else {
                values[key] = (value, n + 1)
            }
        }
        func require(_ key: String) throws(TagFileError) -> (value: String, line: Int) {
            guard let v = values[key] else { throw TagFileError("missing", field: key) }
            return v
        }
        func bytes(_ key: String, _ v: (value: String, line: Int), count: Int?) throws(TagFileError) -> [UInt8] {
            let text = v.value.replacingQuestionMarks()
            do {
                return try TagFileFields.hex(text, field: key, count: count)
            } catch {
                throw TagFileError(error.reason, field: key, line: v.line)
            }
        }
        func int(_ key: String, _ range: ClosedRange<Int>) throws(TagFileError) -> Int? {
            guard let v = values[key] else { return nil }
            guard let i = Int(v.value), range.contains(i) else {
                throw TagFileError(
                    "expected a whole number from \(range.lowerBound) to \(range.upperBound)",
                    field: key, line: v.line)
            }
            return i
        }

        let filetype = try require("Filetype")
        guard filetype.value == "Flipper NFC device" else {
            throw TagFileError("not a Flipper NFC file", field: "Filetype", line: filetype.line)
        }
        let version = try require("Version")
        guard let v = Int(version.value), (2...4).contains(v) else {
            throw TagFileError(
                "version '\(version.value)' is not supported (2 to 4 are)", field: "Version",
                line: version.line)
        }
        let device = try require("Device type")
        let typeName: (value: String, line: Int)
        if device.value == "NTAG/Ultralight" {
            typeName = try require("NTAG/Ultralight type")
        } else if typeNames.contains(where: { $0.flipper == device.value }) {
            typeName = device
        } else {
            throw TagFileError(
                "device type '\(device.value)' is not an NTAG/Ultralight chip this simulator has", field: "Device type",
                line: device.line)
        }
        guard let chipName = typeNames.first(where: { $0.flipper == typeName.value })?.chip,
            let profile = Type2ChipProfile.named(chipName)
        else {
            throw TagFileError("chip type '\(typeName.value)' is not simulated", line: typeName.line)
        }
        let uidLine = try require("UID")
        let uid = try bytes("UID", uidLine, count: 7)
        if let atqa = values["ATQA"] {
            let a = try bytes("ATQA", atqa, count: 2)
            let value = v == 2 ? UInt16(a[1]) << 8 | UInt16(a[0]) : UInt16(a[0]) << 8 | UInt16(a[1])
            guard value == 0x0044 else {
                throw TagFileError(
                    "ATQA \(Hex.encode(a, separator: " ")) is not an NTAG/Ultralight ATQA (00 44)",
                    field: "ATQA", line: atqa.line)
            }
        }
        if let total = try int("Pages total", 0...255), total != profile.pageCount {
            throw TagFileError(
                "\(profile.displayName) has \(profile.pageCount) pages", field: "Pages total",
                line: values["Pages total"]!.line)
        }
        var memory = [UInt8](repeating: 0, count: profile.pageCount * 4)
        for (p, entry) in pageLines {
            guard p < profile.pageCount else {
                throw TagFileError(
                    "page beyond the last page (\(profile.pageCount - 1))", field: "Page \(p)",
                    line: entry.line)
            }
            let b = try bytes("Page \(p)", entry, count: 4)
            for i in 0..<4 { memory[p * 4 + i] = b[i] }
        }
        guard pageLines[0] != nil, pageLines[1] != nil else {
            throw TagFileError("pages 0 and 1 (the UID) are missing")
        }
        guard Array(memory[0..<3]) + Array(memory[4..<8]) == uid else {
            throw TagFileError("UID does not match pages 0-1", field: "UID", line: uidLine.line)
        }
        let tag = Type2Tag(unchecked: profile, memory: memory)
        if let sig = values["Signature"] { tag.signature = try bytes("Signature", sig, count: 32) }
        for i in 0..<3 {
            if let c = try int("Counter \(i)", 0...0xFF_FFFF) { tag.counters[i] = UInt32(c) }
            if let t = values["Tearing \(i)"] { tag.tearingFlags[i] = try bytes("Tearing \(i)", t, count: 1)[0] }
        }
        if let f = try int("Failed authentication attempts", 0...255) { tag.failedAuthentications = min(f, 7) }
        return tag
    }

    /// The `.nfc` text (version 4) of a Type 2 tag.
    package static func encode(_ tag: any VirtualTag) throws(TagFileError) -> String {
        if let felica = encodeFeliCaIfFeliCa(tag) { return felica }
        if let d = tag as? DESFireEV1Tag { return encodeDESFire(d) }
        if let c = tag as? MifareClassicTag { return encodeMifareClassic(c) }
        if let v = tag as? ISO15693Tag { return try encodeISO15693(v) }
        if let t = tag as? Type4Tag {
            guard t.activation.technology == .nfcA else {
                throw TagFileError("a Type B (NFC-B) card cannot be saved as a Flipper ISO14443-4A file")
            }
            return encodeISO14443_4A(t)
        }
        guard let t = tag as? Type2Tag,
            let name = typeNames.first(where: { $0.chip == t.profile.name })?.flipper
        else {
            throw TagFileError(
                "only NTAG/Ultralight, MIFARE Classic, DESFire EV1, Type 4 (NFC-A), FeliCa and ISO 15693 chips can be saved as Flipper .nfc files, not '\(tag.chip)'"
            )
        }
        func hex(_ b: some Collection<UInt8>) -> String { Hex.encode(b, separator: " ") }
        var lines =
            preamble(deviceType: "NTAG/Ultralight") + [
                "# UID is common for all formats",
                "UID: \(hex(t.uid))",
                "# ISO14443-3A specific data",
                "ATQA: 00 44",
                "SAK: 00",
                "# NTAG/Ultralight specific data",
                "Data format version: 2",
                "NTAG/Ultralight type: \(name)",
                "Signature: \(hex(t.signature))",
                "Mifare version: \(hex(t.profile.version ?? [UInt8](repeating: 0, count: 8)))",
            ]
        for i in 0..<3 {
            lines.append("Counter \(i): \(t.counters[i])")
            lines.append("Tearing \(i): \(hex([t.tearingFlags[i]]))")
        }
        lines.append("Pages total: \(t.profile.pageCount)")
        lines.append("Pages read: \(t.profile.pageCount)")
        for p in 0..<t.profile.pageCount { lines.append("Page \(p): \(hex(t.memory[p * 4..<p * 4 + 4]))") }
        lines.append("Failed authentication attempts: \(t.failedAuthentications)")
        return lines.joined(separator: "\n") + "\n"
    }
}

extension String {
    /// Flipper writes unknown bytes as `??`; they are read as 00.
    fileprivate func replacingQuestionMarks() -> String {
        String(map { $0 == "?" ? "0" : $0 })
    }
}
