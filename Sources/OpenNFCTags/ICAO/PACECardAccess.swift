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
/// A card without the file answers the READ with an error status: no PACE. The first READ asks for 256 bytes (real
/// EF.CardAccess files are tens of bytes); when the `SecurityInfos` header says the file is longer, the rest is read
/// from the EF the SFI made current (`00 B0 <offset> <n>`, ISO/IEC 7816-4 §11.3.3), 256 bytes at a time.
package enum PACECardAccess {
    /// id-PACE, `0.4.0.127.0.7.2.2.4`, as DER content octets (ITU-T X.690 §8.19).
    package static let idPACE: [UInt8] = [0x04, 0x00, 0x7F, 0x00, 0x07, 0x02, 0x02, 0x04]

    /// Reads EF.CardAccess and tells whether it lists a PACE protocol; `false` when the card has no such file.
    package static func advertisesPACE(frontend: any RFFrontend) throws(TagError) -> Bool {
        let link = APDULink(frontend: frontend)
        _ = try link.send([0x00, 0xA4, 0x00, 0x0C], name: "SELECT MF")
        let file = try readWhole { (offset, le) throws(TagError) in
            let p1p2: [UInt8] = offset == 0 ? [0x9C, 0x00] : [UInt8(offset >> 8), UInt8(offset & 0xFF)]
            let r = try link.send(
                [0x00, 0xB0] + p1p2 + [UInt8(le & 0xFF)], name: "READ BINARY EF.CardAccess at \(offset)")
            return (r.data, r.sw)
        }
        return file.map(listsPACE) ?? false
    }

    /// The whole of EF.CardAccess through `read(offset, le)`, which sends READ BINARY by SFI `1C` at offset 0 and
    /// by offset from the current EF after; nil when the first READ is refused or empty. The file's length comes
    /// from its DER header (`31 len`); a file longer than its first answer is read on in 256-byte parts up to
    /// 32 767 bytes, and a chip whose file ends early (an empty or refused part) leaves the bytes read so far.
    package static func readWhole<E: Error>(
        _ read: (_ offset: Int, _ le: Int) throws(E) -> (data: [UInt8], sw: UInt16)
    ) throws(E) -> [UInt8]? {
        let first = try read(0, 256)
        guard first.sw == 0x9000 || first.sw == 0x6282, !first.data.isEmpty else { return nil }
        var file = first.data
        guard let total = LDSFileReader.tlvLength(Array(file.prefix(4))), total <= 0x7FFF else { return file }
        while file.count < total {
            let part = try read(file.count, min(256, total - file.count))
            guard part.sw == 0x9000 || part.sw == 0x6282, !part.data.isEmpty else { break }
            file += part.data
        }
        return Array(file.prefix(total))
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
