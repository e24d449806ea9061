/// Everything a virtual eMRTD chip holds after personalisation: its files, its access secrets, its PACE
/// configuration, its private keys (all TEST keys) and the faults a tester asked for. Tag files keep exactly this
/// (docs/TAG-FILES.md, `emrtd`); ``EMRTDIssuer`` makes one from holder data.
package struct EMRTDDocument: Sendable {
    /// A passport booklet (TD3) or an ID card (TD1).
    package enum Kind: String, Sendable, Hashable {
        case passport
        case idCard = "id-card"
    }

    package var kind: Kind
    /// Every file by name; the MF files (EF.CardAccess, EF.ATR/INFO) included.
    package var files: [LDSFile: [UInt8]]
    /// The card access number printed on the document (ICAO Doc 9303 Part 11 §9.7.3), digits; nil when none.
    package var can: String?
    /// A PACE-only chip refuses BAC (EXTERNAL AUTHENTICATE answers `6A 88`), as recent German passports do.
    package var paceOnly: Bool
    /// The PACE protocols EF.CardAccess lists, in its order; empty for a BAC-only chip (no EF.CardAccess).
    package var pace: [PACEProtocol]
    /// The Active Authentication private key the chip signs with (PKCS #8 DER; TEST key). With the `cloned` fault it
    /// is not the key of DG15.
    package var activeAuthenticationKey: [UInt8]?
    /// The Chip Authentication private key (PKCS #8 DER, EC; TEST key) whose public half DG14 holds.
    package var chipAuthenticationKey: [UInt8]?
    /// The cipher Chip Authentication switches secure messaging to (the ChipAuthenticationInfo OID of DG14).
    package var chipAuthenticationCipher: SMCipherName
    /// The test PKI that signed EF.SOD.
    package var pki: EMRTDTestPKI
    package var faults: Set<EMRTDFault>

    package init(
        kind: Kind, files: [LDSFile: [UInt8]], can: String?, paceOnly: Bool, pace: [PACEProtocol],
        activeAuthenticationKey: [UInt8]?, chipAuthenticationKey: [UInt8]?,
        chipAuthenticationCipher: SMCipherName = .aes128, pki: EMRTDTestPKI, faults: Set<EMRTDFault> = []
    ) {
        self.kind = kind
        self.files = files
        self.can = can
        self.paceOnly = paceOnly
        self.pace = pace
        self.activeAuthenticationKey = activeAuthenticationKey
        self.chipAuthenticationKey = chipAuthenticationKey
        self.chipAuthenticationCipher = chipAuthenticationCipher
        self.pki = pki
        self.faults = faults
    }

    /// The MRZ of DG1 (`61 { 5F1F <MRZ> }`), which BAC and PACE with the MRZ derive their keys from.
    package var mrz: MRZ? {
        guard let dg1 = files[.dataGroup(1)], let outer = LDSTLV.element(dg1, at: 0), outer.tag == 0x61,
            let inner = LDSTLV.element(dg1, at: outer.value.lowerBound), inner.tag == 0x5F1F
        else { return nil }
        let text = String(decoding: dg1[inner.value], as: UTF8.self)
        return try? MRZ(parsing: text)
    }
}

/// The faults a tester can build into a document (`tag new --fault`), each visible to a careful reader.
package enum EMRTDFault: String, Sendable, Hashable, CaseIterable, Comparable {
    /// DG1 was changed after EF.SOD was signed: its hash no longer matches (passive authentication fails).
    case tamperedDG = "tampered-dg"
    /// EF.SOD's signature does not verify under the Document Signer's key.
    case badSODSignature = "bad-sod-signature"
    /// The CSCA certificate's validity ended before the document was issued.
    case expiredCSCA = "expired-csca"
    /// The Document Signer was signed by a CSCA that is not the one shipped with the document's PKI.
    case unknownCSCA = "unknown-csca"
    /// The chip's Active Authentication key is not the one in DG15 (a copied chip): AA fails.
    case cloned

    package static func < (a: EMRTDFault, b: EMRTDFault) -> Bool { a.rawValue < b.rawValue }

    /// One line for help and `tag show`.
    package var summary: String {
        switch self {
        case .tamperedDG: "DG1 changed after signing: its hash does not match EF.SOD"
        case .badSODSignature: "EF.SOD's signature does not verify under the Document Signer"
        case .expiredCSCA: "the CSCA certificate expired before the document was issued"
        case .unknownCSCA: "the Document Signer chains to a CSCA other than the PKI's"
        case .cloned: "the Active Authentication key does not match DG15 (cloned chip)"
        }
    }
}

/// A secure messaging cipher by the name tag files use.
package enum SMCipherName: String, Sendable, Hashable, CaseIterable {
    case tdes = "3DES"
    case aes128 = "AES-128"
    case aes192 = "AES-192"
    case aes256 = "AES-256"

    /// The last arc of the id-PACE and id-CA OIDs (BSI TR-03110-3 §A.1.1: 1 3DES-CBC-CBC, 2–4 AES-CBC-CMAC).
    var oidArc: UInt8 {
        switch self {
        case .tdes: 1
        case .aes128: 2
        case .aes192: 3
        case .aes256: 4
        }
    }

    init?(oidArc: UInt8) {
        guard let c = Self.allCases.first(where: { $0.oidArc == oidArc }) else { return nil }
        self = c
    }
}

/// One PACE protocol of EF.CardAccess: ECDH with Generic Mapping on a standardized curve (ICAO Doc 9303 Part 11
/// §9.2.1, §9.5.1; BSI TR-03110-3 table 4). Integrated Mapping and DH are not emulated.
package struct PACEProtocol: Sendable, Hashable {
    package enum Mapping: String, Sendable, Hashable {
        /// id-PACE-ECDH-GM, arc 2.
        case generic = "GM"

        var arc: UInt8 { 2 }
    }

    package var mapping: Mapping
    package var cipher: SMCipherName
    /// The standardized domain parameter identifier: 8–18 (the ECDH curves).
    package var parameterID: Int

    package init(mapping: Mapping = .generic, cipher: SMCipherName = .aes128, parameterID: Int = 13) {
        self.mapping = mapping
        self.cipher = cipher
        self.parameterID = parameterID
    }

    /// The protocol OID's content octets: id-PACE `0.4.0.127.0.7.2.2.4`, the mapping arc, the cipher arc.
    package var oid: [UInt8] { [0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04, mapping.arc, cipher.oidArc] }

    /// The curves of the standardized domain parameters 8–18 (TR-03110-3 table 4), by OpenSSL short name.
    package static let curveNames: [Int: String] = [
        8: "prime192v1", 9: "brainpoolP192r1", 10: "secp224r1", 11: "brainpoolP224r1", 12: "prime256v1",
        13: "brainpoolP256r1", 14: "brainpoolP320r1", 15: "secp384r1", 16: "brainpoolP384r1", 17: "brainpoolP512r1",
        18: "secp521r1",
    ]

    /// `GM-AES-128-13` style name for tag files and reports.
    package var name: String { "\(mapping.rawValue)-\(cipher.rawValue)-\(parameterID)" }

    /// Parses ``name``.
    package init?(name: String) {
        let parts = name.split(separator: "-")
        guard parts.count >= 3, let mapping = Mapping(rawValue: String(parts[0])),
            let cipher = SMCipherName(rawValue: parts.dropFirst().dropLast().joined(separator: "-")),
            let id = Int(parts[parts.count - 1]), Self.curveNames[id] != nil
        else { return nil }
        self.init(mapping: mapping, cipher: cipher, parameterID: id)
    }
}
