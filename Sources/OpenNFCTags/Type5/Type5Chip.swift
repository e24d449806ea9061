internal import OpenNFCBytes
internal import OpenNFCRF

/// The Get System Information fields of an ISO/IEC 15693 tag (ISO/IEC 15693-3 §10.4.12: information flags, UID,
/// then DSFID, AFI, memory size and IC reference, each present when its information flag is set). Nil fields are
/// the ones the tag's answer leaves out.
package struct Type5SystemInfo: Sendable, Hashable {
    package var dsfid: UInt8?
    package var afi: UInt8?
    /// Bytes per block (1–32).
    package var blockSize: Int?
    /// Number of blocks (1–256 in the short answer, up to 65536 in the extended one).
    package var blockCount: Int?
    package var icReference: UInt8?

    package init(
        dsfid: UInt8? = nil, afi: UInt8? = nil, blockSize: Int? = nil, blockCount: Int? = nil,
        icReference: UInt8? = nil
    ) {
        self.dsfid = dsfid
        self.afi = afi
        self.blockSize = blockSize
        self.blockCount = blockCount
        self.icReference = icReference
    }

    /// Parses the answer after the response flags byte: information flags, the UID (8 bytes, LSB first), then the
    /// optional fields in the order of their flags (§10.4.12 Table 13: b1 DSFID, b2 AFI, b3 memory size, b4 IC
    /// reference). `extended`: the answer to Extended Get System Information (§10.4.19), whose memory size carries
    /// the block count in two bytes, LSB first. Nil when the answer is shorter than its own flags say, with the byte
    /// offset in `problem`. The one parser of both answers.
    package init?(getSystemInformationAnswer a: [UInt8], extended: Bool = false, problem: inout String) {
        let command = extended ? "EXTENDED GET SYSTEM INFORMATION" : "GET SYSTEM INFORMATION"
        guard a.count >= 9 else {
            problem = "\(command) answered \(a.count) bytes, at least 9 expected (flags and UID)"
            return nil
        }
        let flags = a[0]
        var i = 9
        func next(_ n: Int, _ what: String) -> ArraySlice<UInt8>? {
            guard a.count >= i + n else {
                problem = "\(command): the \(what) announced by the information flags is cut at byte \(i)"
                return nil
            }
            defer { i += n }
            return a[i..<(i + n)]
        }
        self.init()
        if flags & 0x01 != 0 {
            guard let b = next(1, "DSFID") else { return nil }
            dsfid = b.first
        }
        if flags & 0x02 != 0 {
            guard let b = next(1, "AFI") else { return nil }
            afi = b.first
        }
        if flags & 0x04 != 0 {
            guard let b = next(extended ? 3 : 2, "memory size") else { return nil }
            let i = b.startIndex
            blockCount = (extended ? Int(b[i]) | Int(b[i + 1]) << 8 : Int(b[i])) + 1
            blockSize = Int(b[extended ? i + 2 : i + 1] & 0x1F) + 1
        }
        if flags & 0x08 != 0 {
            guard let b = next(1, "IC reference") else { return nil }
            icReference = b.first
        }
    }
}

/// What identification knows of an NFC Forum Type 5 (ISO/IEC 15693) tag: the IC manufacturer code from its UID
/// (ISO/IEC 15693-3 §7.1: `E0`, the ISO/IEC 7816-6 manufacturer code, the serial number) and, when the tag answers
/// it, Get System Information.
///
/// | Manufacturer (UID byte 2) | Decides the chip name by | Names |
/// |---|---|---|
/// | `04` NXP, product byte `01` (ICODE SLI family) | block count (28: SLIX, 80: SLIX2; NXP SL2S2002 §8.2, SL2S2602 §8.2), else UID bits 36–35 | `icode-slix`, `icode-slix2`, `icode` |
/// | `02` ST | IC reference (`24`: ST25DV04K; `26` with 2048 blocks: ST25DV64K; ST25DV04K/16K/64K datasheets §7.6) | `st25dv04k`, `st25dv64k`, `st25` |
/// | `07` Texas Instruments | UID byte 3 `80` (Tag-it HF-I Plus, TI RI-I02-112A §2) | `tagit-hfi-plus`, `tagit` |
/// | any other | — | `iso15693` |
package struct Type5Chip: Sendable, Hashable, CustomStringConvertible {
    /// The UID, MSB first (`E0 …`).
    package var uid: [UInt8]
    /// Get System Information, when the tag answered it during identification.
    package var systemInfo: Type5SystemInfo?

    package init(uid: [UInt8], systemInfo: Type5SystemInfo? = nil) {
        self.uid = uid
        self.systemInfo = systemInfo
    }

    /// The ISO/IEC 7816-6 IC manufacturer code (UID byte 2, MSB first).
    package var icManufacturerCode: UInt8 { uid.count > 1 ? uid[1] : 0 }

    /// The chip's name, as the tag files and `--chip` spell the virtual chips of the same kind.
    package var name: String {
        let product: UInt8 = uid.count > 2 ? uid[2] : 0
        switch icManufacturerCode {
        case 0x04 where product == 0x01:
            switch systemInfo?.blockCount {
            case 28?: return "icode-slix"
            case 80?: return "icode-slix2"
            default:
                // ICODE SLI family: UID bits 36–35 tell SLIX (`10`) from SLIX2 (`01`).
                let type = uid.count > 3 ? (uid[3] >> 3) & 0x03 : 0
                return type == 0b10 ? "icode-slix" : type == 0b01 ? "icode-slix2" : "icode"
            }
        case 0x04: return "icode"
        case 0x02:
            switch (systemInfo?.icReference, systemInfo?.blockCount) {
            case (0x24?, _): return "st25dv04k"
            case (0x26?, 2048?): return "st25dv64k"
            default: return "st25"
            }
        case 0x07: return product == 0x80 ? "tagit-hfi-plus" : "tagit"
        default: return "iso15693"
        }
    }

    package var description: String { name }

    /// Get System Information (`2B`, addressed) on an activated NFC-V target; nil when the frontend cannot carry
    /// ISO 15693 requests or the tag does not have the command (it answers error `01`/`02` or stays silent, as
    /// TI Tag-it HF-I Standard does).
    static func identify(target: RFTarget, frontend: any RFFrontend) throws(TagError) -> IdentifiedTag {
        guard target.identifier.count == 8, target.identifier[0] == 0xE0 else {
            let uid = Hex.encode(target.identifier)
            return IdentifiedTag(
                target: target, kind: .unsupported("the NFC-V UID \(uid) does not start with E0 (ISO/IEC 15693-3 §7.1)")
            )
        }
        guard frontend.capabilities.frameModes.contains(.nfcV) else {
            return IdentifiedTag(target: target, kind: .type5(Type5Chip(uid: target.identifier)))
        }
        let link = Type5Link(frontend: frontend, uid: target.identifier)
        let answer: [UInt8]
        do {
            answer = try link.send(.getSystemInformation, what: "GET SYSTEM INFORMATION")
        } catch  where error.iso15693Error != nil || error.rfError?.code == .timeout {
            return IdentifiedTag(target: target, kind: .type5(Type5Chip(uid: target.identifier)))
        }
        var problem = ""
        guard let info = Type5SystemInfo(getSystemInformationAnswer: answer, problem: &problem) else {
            throw TagError(.invalidResponse, problem)
        }
        return IdentifiedTag(target: target, kind: .type5(Type5Chip(uid: target.identifier, systemInfo: info)))
    }
}
