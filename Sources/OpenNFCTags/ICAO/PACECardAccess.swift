package import OpenNFCRF

/// Whether an ISO 7816 card advertises PACE, read the way an inspection system learns it before any
/// authentication: EF.CardAccess (file identifier `011C`, short EF identifier `1C`) in the MF holds `SecurityInfos`
/// (ICAO Doc 9303 Part 10 §3.11.2, Part 11 §9.2), and a `PACEInfo` there has a protocol OID under id-PACE
/// `0.4.0.127.0.7.2.2.4` (Part 11 §9.2.1; BSI TR-03110-3 §A.1.1).
///
/// | Step | Command | Frames |
/// |---|---|---|
/// | select the MF | `00 A4 00 0C` (ISO/IEC 7816-4 §11.2.2: P1 `00` without data selects the MF) | 1 |
/// | read EF.CardAccess | `00 B0 9C 00 00` (READ BINARY with SFI `1C`, Le `00`: up to 256 bytes) | 1 |
///
/// A card without the file answers the READ with an error status: no PACE. Only the first 256 bytes are read, which
/// holds a PACEInfo whenever the card lists one first (real EF.CardAccess files are tens of bytes).
package enum PACECardAccess {
    /// id-PACE, `0.4.0.127.0.7.2.2.4`, as DER content octets (ITU-T X.690 §8.19).
    package static let idPACE: [UInt8] = [0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04]

    /// Reads EF.CardAccess and tells whether it lists a PACE protocol; `false` when the card has no such file.
    package static func advertisesPACE(frontend: any RFFrontend) throws(TagError) -> Bool {
        let link = APDULink(frontend: frontend)
        _ = try link.send([0x00, 0xA4, 0x00, 0x0C], name: "SELECT MF")
        let read = try link.send([0x00, 0xB0, 0x9C, 0x00, 0x00], name: "READ BINARY EF.CardAccess")
        guard read.isSuccess || read.sw == 0x6282 else { return false }
        return listsPACE(read.data)
    }

    /// Whether DER `SecurityInfos` (a SET OF SEQUENCE, each starting with an OID) name a protocol under id-PACE.
    package static func listsPACE(_ der: [UInt8]) -> Bool {
        guard let set = BERTLV.element(der, at: 0), set.tag == 0x31 else { return false }
        var at = set.value.lowerBound
        while at < set.value.upperBound, let info = BERTLV.element(der, at: at) {
            if info.tag == 0x30, let oid = BERTLV.element(der, at: info.value.lowerBound), oid.tag == 0x06,
                oid.value.count > idPACE.count, der[oid.value].starts(with: idPACE)
            {
                return true
            }
            at = info.value.upperBound
        }
        return false
    }
}
