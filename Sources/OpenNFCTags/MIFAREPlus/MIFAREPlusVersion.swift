internal import OpenNFCBytes
internal import OpenNFCRF

/// A MIFARE Plus EV1/EV2 as its GetVersion answer names it (vendor `04`, type `02`; major `11` EV1, `22` EV2;
/// storage `16` 2 KB, `18` 4 KB — NXP's GetVersion coding shared with MIFARE DESFire, AN10833 §4).
package struct MIFAREPlusVersion: Sendable, Hashable, CustomStringConvertible {
    /// Hardware part: vendor, type, subtype, major, minor, storage size, protocol.
    package var hardware: [UInt8]
    /// Software part, same layout.
    package var software: [UInt8]
    /// Production part: UID (7 or 4 bytes), batch number (5), production week, year.
    package var production: [UInt8]

    package init?(hardware: [UInt8], software: [UInt8], production: [UInt8]) {
        guard hardware.count == 7, software.count == 7, (11...14).contains(production.count) else { return nil }
        self.hardware = hardware
        self.software = software
        self.production = production
    }

    /// Whether a GetVersion hardware part names a MIFARE Plus (vendor NXP, type `02`, or `82` for some variants).
    static func isPlus(hardware: [UInt8]) -> Bool {
        hardware.count == 7 && hardware[0] == 0x04 && hardware[1] & 0x7F == 0x02
    }

    /// `ev1`, `ev2`, or the major version in hex.
    package var generation: String {
        switch hardware[3] {
        case 0x11: return "ev1"
        case 0x22: return "ev2"
        default: return "major-\(Hex.encode([hardware[3]]).lowercased())"
        }
    }

    /// 4 KB (storage byte `18`) or 2 KB.
    package var is4K: Bool { hardware[5] == 0x18 }
    /// 32 or 40 sectors.
    package var sectorCount: Int { is4K ? 40 : 32 }
    /// The UID length GetVersion reports (7, or 4 for a NUID).
    package var uidLength: Int { production.count >= 14 ? 7 : 4 }

    /// The chip name as tag files and the CLI write it (`mifare-plus-ev1-2k`, `-4b` for a 4-byte NUID).
    package var description: String {
        "mifare-plus-\(generation)-\(is4K ? "4k" : "2k")\(uidLength == 4 ? "-4b" : "")"
    }

    /// Continues DESFire-style GetVersion after a hardware part that names a MIFARE Plus (the software and
    /// production parts, `90 AF 00 00 00` each; the card ends with `91 90`).
    static func identify(target: RFTarget, frontend: any RFFrontend, hardware: [UInt8]) throws(TagError)
        -> IdentifiedTag
    {
        let link = MIFAREPlusLink(frontend: frontend)
        let (s1, software) = try link.send(MIFAREPlusLink.additionalFrame, name: "MIFARE Plus GetVersion (software)")
        guard s1 == MIFAREPlusLink.Status.additionalFrame, software.count == 7 else {
            throw TagError(
                .invalidResponse,
                "MIFARE Plus GetVersion software part: \(software.count) bytes, status \(Hex.encode([s1]))")
        }
        let (s2, production) = try link.send(
            MIFAREPlusLink.additionalFrame, name: "MIFARE Plus GetVersion (production)")
        guard s2 == MIFAREPlusLink.Status.ok,
            let version = MIFAREPlusVersion(hardware: hardware, software: software, production: production)
        else {
            throw TagError(
                .invalidResponse,
                "MIFARE Plus GetVersion production part: \(production.count) bytes, status \(Hex.encode([s2]))")
        }
        return IdentifiedTag(
            target: target, kind: .mifarePlus(version), versionData: hardware + software + production)
    }
}

extension GetVersionProduct {
    /// A MIFARE Plus EV1/EV2 in SL0 or SL3: hardware type `02` (``TagFamilies/getVersionProducts``).
    static let mifarePlus = GetVersionProduct(
        claims: MIFAREPlusVersion.isPlus(hardware:),
        identify: { (target, frontend, hardware) throws(TagError) in
            try MIFAREPlusVersion.identify(target: target, frontend: frontend, hardware: hardware)
        })
}
