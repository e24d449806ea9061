internal import OpenNFCBytes
package import OpenNFCRF

/// One GET VAS DATA a VAS terminal sends (Core NFC's `NFCVASCommandConfiguration`).
package struct VASCommand: Sendable, Hashable {
    /// Full VAS (`true`, P2 `01`) or URL only (P2 `00`).
    package var fullMode: Bool
    /// The Wallet pass type identifier; its SHA-256 is the merchant identifier sent in `9F25`.
    package var passTypeIdentifier: String
    /// The merchant URL sent in `9F29`, if any.
    package var url: String?

    package init(fullMode: Bool, passTypeIdentifier: String, url: String?) {
        self.fullMode = fullMode
        self.passTypeIdentifier = passTypeIdentifier
        self.url = url
    }
}

/// What one GET VAS DATA returned (Core NFC's `NFCVASResponse`).
package struct VASResult: Sendable, Hashable {
    /// The response status word (`90 00` on success).
    package var status: UInt16
    /// `9F27` of the response template, empty when absent.
    package var vasData: [UInt8]
    /// `9F2A` of the response template, empty when absent.
    package var mobileToken: [UInt8]
}

/// The terminal side of Apple's Value Added Services protocol, as a "VAS app only" terminal (Core NFC's
/// `NFCVASReaderSession` advertises itself so). VAS is proprietary: commands and data objects follow the public
/// descriptions (kormax, "Apple VAS", github.com/kormax/apple-vas, read 2026; ID TECH and Verifone VAS guides).
///
/// | Step | Command | Frames |
/// |---|---|---|
/// | select the VAS application | `00 A4 04 00 0A` `OSE.VAS.01` `00` | 1 |
/// | one per configuration | GET VAS DATA `80 CA 01 P2 Lc` {`9F22` `0100`, `9F25` SHA-256(pass type id), `9F26` capabilities, [`9F29` URL]} `00` | 1 each |
///
/// Capabilities `9F26`: byte 1 `80` (VAS supported, no authentication, payment terminal type), byte 3 VAS mode `02`
/// ("VAS only") with bit 8 set while more GET VAS DATA commands follow.
package enum VASReader {
    package static let aid: [UInt8] = Array("OSE.VAS.01".utf8)

    /// Selects the VAS application; false when the card has none (any status other than `90 00`).
    package static func select(frontend: any RFFrontend) throws(TagError) -> Bool {
        let link = APDULink(frontend: frontend)
        return try link.send(ISO7816Select.byName(aid), name: "SELECT OSE.VAS.01")
            .isSuccess
    }

    /// Sends one GET VAS DATA; `more` says whether another follows in this transaction.
    package static func getData(_ command: VASCommand, more: Bool, frontend: any RFFrontend) throws(TagError)
        -> VASResult
    {
        var data = tlv([0x9F, 0x22], [0x01, 0x00])
        data += tlv([0x9F, 0x25], SHA256.hash(Array(command.passTypeIdentifier.utf8)))
        data += tlv([0x9F, 0x26], [0x00, 0x80, 0x00, more ? 0x82 : 0x02])
        if let url = command.url { data += tlv([0x9F, 0x29], Array(url.utf8)) }
        let apdu: [UInt8] = [0x80, 0xCA, 0x01, command.fullMode ? 0x01 : 0x00, UInt8(data.count)] + data + [0x00]
        let r = try APDULink(frontend: frontend).send(apdu, name: "GET VAS DATA")
        var result = VASResult(status: r.sw, vasData: [], mobileToken: [])
        guard r.isSuccess, let template = BERTLV.element(r.data, at: 0), template.tag == 0x70 else { return result }
        var at = template.value.lowerBound
        while at < template.value.upperBound, let e = BERTLV.element(r.data, at: at) {
            if e.tag == 0x9F27 { result.vasData = Array(r.data[e.value]) }
            if e.tag == 0x9F2A { result.mobileToken = Array(r.data[e.value]) }
            at = e.value.upperBound
        }
        return result
    }

    static func tlv(_ tag: [UInt8], _ value: [UInt8]) -> [UInt8] {
        let n = value.count
        return tag + (n < 0x80 ? [UInt8(n)] : [0x81, UInt8(n)]) + value
    }
}
