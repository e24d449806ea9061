/// The contents of the LDS files a virtual eMRTD is personalised with (ICAO Doc 9303 Part 10 §4.6–§4.7), built
/// from the holder's data. The security files (DG14, DG15, EF.SOD, EF.CardAccess) are the issuer's
/// (``EMRTDIssuer``).
package enum LDSContents {
    /// EF.COM (Part 10 §4.6.1): `60 { 5F01 "0107", 5F36 "040000", 5C <tags of the present data groups> }` — LDS
    /// version 1.7, Unicode 4.0.0.
    package static func com(dataGroups: [Int]) -> [UInt8] {
        let tags = dataGroups.sorted().compactMap { LDSFile.dataGroupTags[$0] }
        return LDSTLV.encode(
            0x60,
            LDSTLV.encode(0x5F01, Array("0107".utf8)) + LDSTLV.encode(0x5F36, Array("040000".utf8))
                + LDSTLV.encode(0x5C, tags))
    }

    /// DG1 (Part 10 §4.7.1): `61 { 5F1F <the MRZ, lines concatenated> }`.
    package static func dataGroup1(_ mrz: MRZ) -> [UInt8] {
        LDSTLV.encode(0x61, LDSTLV.encode(0x5F1F, Array(mrz.lines.joined().utf8)))
    }

    /// DG11, additional personal details (Part 10 §4.7.11): a tag list `5C`, then full name `5F0E` (`SURNAME<<GIVEN<NAMES`),
    /// full date of birth `5F2B` (CCYYMMDD), place of birth `5F11`, each when known.
    package static func dataGroup11(fullName: String, fullDateOfBirth: String?, placeOfBirth: String?) -> [UInt8] {
        var fields: [(UInt16, String)] = [(0x5F0E, fullName)]
        if let fullDateOfBirth { fields.append((0x5F2B, fullDateOfBirth)) }
        if let placeOfBirth { fields.append((0x5F11, placeOfBirth)) }
        return tagged(0x6B, fields)
    }

    /// DG12, additional document details (Part 10 §4.7.12): issuing authority `5F19`, date of issue `5F26`
    /// (CCYYMMDD), each when known.
    package static func dataGroup12(issuingAuthority: String?, dateOfIssue: String?) -> [UInt8] {
        var fields: [(UInt16, String)] = []
        if let issuingAuthority { fields.append((0x5F19, issuingAuthority)) }
        if let dateOfIssue { fields.append((0x5F26, dateOfIssue)) }
        return tagged(0x6C, fields)
    }

    private static func tagged(_ tag: UInt16, _ fields: [(UInt16, String)]) -> [UInt8] {
        let list = fields.flatMap { [UInt8($0.0 >> 8), UInt8($0.0 & 0xFF)] }
        return LDSTLV.encode(
            tag, LDSTLV.encode(0x5C, list) + fields.flatMap { LDSTLV.encode($0.0, Array($0.1.utf8)) })
    }

    /// EF.ATR/INFO (ISO/IEC 7816-4 §8.2.1.1, Part 10 §3.11.1): the extended length information `7F66 { 02 <max
    /// command data>, 02 <max response data> }` — both ``EMRTDTag/bufferSize``.
    package static func atrInfo() -> [UInt8] {
        let n = EMRTDTag.bufferSize
        let size: [UInt8] = [0x02, 0x02, UInt8(n >> 8), UInt8(n & 0xFF)]
        return LDSTLV.encode(0x7F66, size + size)
    }

    /// The `SecurityInfo` of one PACE protocol (Part 11 §9.2.1): `PACEInfo ::= SEQUENCE { protocol OID, version
    /// INTEGER (2), parameterId INTEGER }`.
    package static func paceInfo(_ proto: PACEProtocol) -> [UInt8] {
        LDSTLV.encode(
            0x30,
            LDSTLV.encode(0x06, proto.oid) + [0x02, 0x01, 0x02] + [0x02, 0x01, UInt8(proto.parameterID)])
    }

    /// EF.CardAccess (Part 10 §3.11.3): `SecurityInfos ::= SET OF SecurityInfo`, here the PACEInfos. DER orders
    /// the elements of a SET OF by their encodings (ITU-T X.690 §11.6).
    package static func cardAccess(_ protocols: [PACEProtocol]) -> [UInt8] {
        LDSTLV.encode(0x31, protocols.map(paceInfo).sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
    }
}
