internal import OpenNFCBytes

/// The face of DG2 (ICAO Doc 9303 Part 10 §4.7.2): a CBEFF biometric information template group (ISO/IEC 7816-11,
/// tags `7F61`/`7F60`/`A1`/`5F2E`) holding one ISO/IEC 19794-5:2005 facial record around a JPEG image.
///
/// | Part | Bytes |
/// |---|---|
/// | Biometric header template `A1` | `80 02 0101` header version, `81 01 02` face, `87 02 0101` format owner JTC1/SC37, `88 02 0008` format type ISO 19794-5 |
/// | Facial record header (19794-5 §5.4) | `FAC\0`, `010\0`, record length (4), number of faces (2) |
/// | Facial information (§5.5) | block length (4), feature points (2), gender, eye colour, hair colour, feature mask (3), expression (2), pose angles (3), their uncertainty (3) |
/// | Image information (§5.7) | face image type `01` full frontal, data type `00` JPEG, width (2), height (2), colour space (`01` RGB, `03` grey), source type `02` digital camera, device type (2), quality (2) |
package enum FaceImage {
    /// A 45 × 60 grey test portrait (baseline JPEG, 398 bytes) generated for this project: an oval face, two eyes,
    /// a mouth, shoulders. What a document made without `--photo` shows.
    package static let testPortrait: [UInt8] = {
        let rows = [
            "ffd8ffe000104a46494600010100000100010000ffdb004300140e0f120f0d14121012171514181e32211e1c1c1e3d2c",
            "2e243249404c4b47404645505a736250556d5645466488656d777b8182814e608d978c7d96737e817cffc0000b08003c",
            "002d01011100ffc4001a000002030101000000000000000000000000040203050106ffc4002810000103030108020300",
            "00000000000000010002030411211205133134417173b12291326181ffda0008010100003f00dd4210842145ef0c173f",
            "497748e71e36eca4c95cde390af041171c175092ada8640c7cb213a183a04bd1d7455ad718838169c87055d46d4a7a6a",
            "8dcc9af50b5c818175a703b05bfd0ae424aa2364c1f1c8d0e63ae082aaa7a58695a441186071b9cdeea32d0d34d30964",
            "8839f8ce73dc754e41f99ec98425e76d9daba148be7aa0f706d1ea68383bd02e14e09677bc8969f74db71d61d94f42db",
            "36e7aab50b84022c782a5d01bfc4fda9321032e37fd2b50b3b6d728cf20f456221085e9a939487c6df494db5ca33c83d",
            "158884217a6a4e521f1b7d2fffd9",
        ]
        guard let bytes = try? Hex.decode(rows.joined()) else { preconditionFailure("the built-in portrait is hex") }
        return bytes
    }()

    /// Why a photo cannot go into DG2.
    package struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        package var reason: String
        package var description: String { reason }
    }

    /// Width, height and component count of a baseline or progressive JPEG (ITU-T T.81 §B.2.2: the SOF marker
    /// segment's sample precision, Y, X, Nf), read by walking the marker segments from SOI.
    package static func jpegDimensions(_ jpeg: [UInt8]) throws(Invalid) -> (width: Int, height: Int, components: Int) {
        guard jpeg.count > 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else {
            throw Invalid(reason: "not a JPEG file: it does not start with the SOI marker FF D8")
        }
        var i = 2
        while i + 4 <= jpeg.count {
            guard jpeg[i] == 0xFF else {
                throw Invalid(reason: "JPEG marker expected at byte \(i), found \(Hex.encode([jpeg[i]]))")
            }
            let marker = jpeg[i + 1]
            let length = Int(jpeg[i + 2]) << 8 | Int(jpeg[i + 3])
            if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard i + 4 + 6 <= jpeg.count else { break }
                let height = Int(jpeg[i + 5]) << 8 | Int(jpeg[i + 6])
                let width = Int(jpeg[i + 7]) << 8 | Int(jpeg[i + 8])
                return (width, height, Int(jpeg[i + 9]))
            }
            guard length >= 2 else { throw Invalid(reason: "JPEG segment at byte \(i) has length \(length)") }
            i += 2 + length
        }
        throw Invalid(reason: "no frame header (SOF marker) in the JPEG's \(jpeg.count) bytes")
    }

    /// The whole DG2 file for `jpeg`; `sex` is the MRZ's (`M`, `F`, `<`).
    package static func dataGroup2(jpeg: [UInt8], sex: String) throws(Invalid) -> [UInt8] {
        let (width, height, components) = try jpegDimensions(jpeg)
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF)] + u16(v) }
        let gender: UInt8 = sex == "M" ? 0x01 : sex == "F" ? 0x02 : 0x00
        var information: [UInt8] = u16(0) + [gender, 0x00, 0x00] + [0x00, 0x00, 0x00] + u16(0)
        information += [0x00, 0x00, 0x00, 0x00, 0x00, 0x00]
        let imageInformation: [UInt8] =
            [0x01, 0x00] + u16(width) + u16(height) + [components == 1 ? 0x03 : 0x01, 0x02] + u16(0) + u16(0)
        let block = information + imageInformation + jpeg
        let blockWithLength = u32(block.count + 4) + block
        let record: [UInt8] =
            [0x46, 0x41, 0x43, 0x00, 0x30, 0x31, 0x30, 0x00] + u32(14 + blockWithLength.count) + u16(1)
            + blockWithLength
        let header = LDSTLV.encode(
            0xA1,
            [0x80, 0x02, 0x01, 0x01, 0x81, 0x01, 0x02, 0x87, 0x02, 0x01, 0x01, 0x88, 0x02, 0x00, 0x08])
        let template = LDSTLV.encode(0x7F60, header + LDSTLV.encode(0x5F2E, record))
        let group = LDSTLV.encode(0x7F61, [0x02, 0x01, 0x01] + template)
        return LDSTLV.encode(0x75, group)
    }
}
