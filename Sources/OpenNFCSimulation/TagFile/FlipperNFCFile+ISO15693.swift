internal import OpenNFCBytes

/// Flipper Zero `.nfc` files for ISO/IEC 15693 tags, from the format description in flipperzero-firmware
/// documentation/file_formats/NfcFileFormats.md (device types `ISO15693-3` and `SLIX`):
///
/// | Key | Import | Export |
/// |---|---|---|
/// | `UID` (MSB first, `E0 …`), `DSFID`, `AFI`, `IC Reference`, `Lock DSFID`, `Lock AFI` | ✓ | ✓ |
/// | `Block Count` (decimal, 1–256), `Block Size` (hex), `Data Content`, `Security Status` (`01` = locked per block) | ✓ | ✓ |
/// | `SLIX`: `Password Read`, `Password Write`, `Password Privacy`, `Password Destroy`, `Password EAS` (4 bytes, least significant first, as Flipper saves its 32-bit value) | ✓ the chip's passwords (SLIX: EAS only; keys for passwords the chip lacks are skipped, as Flipper skips them) | ✓ the chip's |
/// | `SLIX`: `Signature` (32 bytes), `Privacy Mode`, `Protection Pointer`, `Protection Condition`, `Lock PPL` | ✓ on the SLIX2; on the SLIX only the "off" state (signature skipped), else refused by line | ✓ |
/// | `SLIX`: `Lock EAS` | ✓ | ✓ |
/// | `SLIX`: `Capabilities` | `Default` only: `AcceptAllPasswords` (a Flipper emulation mode) is refused by line | not written |
///
/// Flipper keeps no EAS state, EAS ID, EAS/AFI password protection, password locks, destroy or 64-bit mode: those
/// travel only in the tag-file form (they are lost on export and factory state on import).
///
/// The chip is chosen from the UID's manufacturer and the block count: `E0 04` with 28 blocks → `icode-slix`,
/// 80 → `icode-slix2`; `E0 02` with 128 → `st25dv04k`; `E0 07` with 64 → `tagit-hfi-plus`. The ST25DV64K's 2048
/// blocks do not fit Flipper's block count (at most 256): it cannot be exported.
extension FlipperNFCFile {
    static let iso15693DeviceTypes: Set<String> = ["ISO15693-3", "SLIX"]

    static func decodeISO15693(_ values: [String: Entry]) throws(TagFileError) -> ISO15693Tag {
        try checkVersion(values)
        let device = try require(values, "Device type")
        guard let uid = try hexValue(values, "UID", count: 8) else { throw TagFileError("missing", field: "UID") }
        let countEntry = try require(values, "Block Count")
        guard let count = Int(countEntry.value), (1...256).contains(count) else {
            throw TagFileError("expected a whole number from 1 to 256", field: "Block Count", line: countEntry.line)
        }
        let size = Int(try hexValue(values, "Block Size", count: 1)?[0] ?? 0)
        guard
            let profile = ISO15693ChipProfile.all.first(where: {
                $0.uidPrefix.prefix(2) == uid.prefix(2) && $0.blockCount == count
            })
        else {
            throw TagFileError(
                "no simulated ISO 15693 chip has UID \(Hex.encode(Array(uid.prefix(2)))) … and \(count) blocks "
                    + "(icode-slix E0 04/28, icode-slix2 E0 04/80, st25dv04k E0 02/128, tagit-hfi-plus E0 07/64)",
                field: "Block Count", line: countEntry.line)
        }
        guard size == profile.blockSize else {
            throw TagFileError(
                "\(profile.displayName) blocks are \(profile.blockSize) bytes, not \(size)", field: "Block Size",
                line: values["Block Size"]?.line ?? countEntry.line)
        }
        let data = try require(values, "Data Content")
        guard let memory = try hexValue(values, "Data Content", count: count * size) else {
            throw TagFileError("missing", field: "Data Content", line: data.line)
        }
        let tag: ISO15693Tag
        do throws(ISO15693TagError) {
            tag = try ISO15693Tag(profile: profile, uid: uid, memory: memory)
        } catch {
            throw TagFileError(error.reason, field: "UID", line: values["UID"]?.line ?? data.line)
        }
        if let status = try hexValue(values, "Security Status", count: count) {
            for (b, s) in status.enumerated() where s & 0x01 != 0 { tag.lockedBlocks.insert(b) }
        }
        if let d = try hexValue(values, "DSFID", count: 1) { tag.dsfid = d[0] }
        if let a = try hexValue(values, "AFI", count: 1) { tag.afi = a[0] }
        if let l = try bool(values, "Lock DSFID") { tag.dsfidLocked = l }
        if let l = try bool(values, "Lock AFI") { tag.afiLocked = l }
        if let ic = try hexValue(values, "IC Reference", count: 1), let mine = profile.icReference, ic[0] != mine {
            throw TagFileError(
                "\(profile.displayName) reports IC reference \(Hex.encode([mine])), not \(Hex.encode(ic))",
                field: "IC Reference", line: values["IC Reference"]!.line)
        }
        if device.value == "SLIX" { try decodeSLIX(values, into: tag) }
        return tag
    }

    static let slixPasswordKeys: [(id: UInt8, key: String)] = [
        (0x01, "Password Read"), (0x02, "Password Write"), (0x04, "Password Privacy"), (0x08, "Password Destroy"),
        (0x10, "Password EAS"),
    ]

    /// The SLIX keys (flipperzero-firmware lib/nfc/protocols/slix: the same keys, each for the chips with that
    /// feature).
    static func decodeSLIX(_ values: [String: Entry], into tag: ISO15693Tag) throws(TagFileError) {
        guard tag.profile.custom == .icodeSLIX || tag.profile.custom == .icodeSLIX2 else { return }
        let slix2 = tag.profile.custom == .icodeSLIX2
        if let c = values["Capabilities"], c.value != "Default" {
            throw TagFileError(
                "'\(c.value)' is a Flipper emulation mode; the virtual chip checks its passwords (only Default loads)",
                field: "Capabilities", line: c.line)
        }
        for (id, key) in slixPasswordKeys where tag.nxp.passwords[id] != nil {
            if let v = try hexValue(values, key, count: 4) { tag.nxp.passwords[id] = Array(v.reversed()) }
        }
        if let l = try bool(values, "Lock EAS") { tag.nxp.easLocked = l }
        guard slix2 else {
            // The SLIX has no privacy mode or page protection: only the "off" state loads.
            for key in ["Privacy Mode", "Lock PPL"] where try bool(values, key) == true {
                throw TagFileError(
                    "\(tag.profile.displayName) has no such feature (only false loads)", field: key,
                    line: values[key]!.line)
            }
            for key in ["Protection Pointer", "Protection Condition"] {
                if let v = try hexValue(values, key, count: 1), v[0] != 0 {
                    throw TagFileError(
                        "\(tag.profile.displayName) has no page protection (only 00 loads)", field: key,
                        line: values[key]!.line)
                }
            }
            return
        }
        if let v = try hexValue(values, "Signature", count: 32) { tag.nxp.signature = v }
        if let v = try bool(values, "Privacy Mode") { tag.nxp.privacy = v }
        if let v = try bool(values, "Lock PPL") { tag.nxp.protectionLocked = v }
        if let v = try hexValue(values, "Protection Pointer", count: 1) {
            guard Int(v[0]) < tag.profile.blockCount - tag.profile.reservedTailBlocks else {
                throw TagFileError(
                    "the protection pointer must be a user block (00-\(Hex.encode([UInt8(tag.profile.blockCount - 2)])))",
                    field: "Protection Pointer", line: values["Protection Pointer"]!.line)
            }
            tag.nxp.protectionPointer = v[0]
        }
        if let v = try hexValue(values, "Protection Condition", count: 1) { tag.nxp.protectionCondition = v[0] & 0x33 }
    }

    static func encodeISO15693(_ t: ISO15693Tag) throws(TagFileError) -> String {
        guard t.profile.blockCount <= 256 else {
            throw TagFileError(
                "\(t.profile.displayName) has \(t.profile.blockCount) blocks; Flipper's ISO15693-3 format holds at "
                    + "most 256")
        }
        func hex(_ b: some Collection<UInt8>) -> String { Hex.encode(b, separator: " ") }
        let slix = t.uid[1] == 0x04
        var lines =
            preamble(deviceType: slix ? "SLIX" : "ISO15693-3") + [
                "# UID is common for all formats",
                "UID: \(hex(t.uid))",
                "# ISO15693-3 specific data",
                "DSFID: \(hex([t.dsfid]))",
                "AFI: \(hex([t.afi]))",
                "IC Reference: \(hex([t.profile.icReference ?? 0]))",
                "Lock DSFID: \(t.dsfidLocked)",
                "Lock AFI: \(t.afiLocked)",
                "Block Count: \(t.profile.blockCount)",
                "Block Size: \(hex([UInt8(t.profile.blockSize)]))",
                "Data Content: \(hex(t.memory))",
                "Security Status: \(hex((0..<t.profile.blockCount).map { t.lockedBlocks.contains($0) ? 0x01 : 0x00 }))",
            ]
        if slix {
            let slix2 = t.profile.custom == .icodeSLIX2
            lines.append("# SLIX specific data")
            lines.append("# Passwords are optional. If a password is omitted, a default value will be used")
            for (id, key) in slixPasswordKeys {
                if let pw = t.nxp.passwords[id] { lines.append("\(key): \(hex(pw.reversed()))") }
            }
            if slix2 { lines.append("Signature: \(hex(t.nxp.signature))") }
            lines += [
                "Privacy Mode: \(slix2 && t.nxp.privacy)",
                "# Protection pointer configuration",
                "Protection Pointer: \(hex([t.nxp.protectionPointer]))",
                "Protection Condition: \(hex([t.nxp.protectionCondition]))",
                "# SLIX Lock Bits",
                "Lock EAS: \(t.nxp.easLocked)",
                "Lock PPL: \(t.nxp.protectionLocked)",
            ]
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
