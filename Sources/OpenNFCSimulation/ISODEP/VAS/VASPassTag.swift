internal import OpenNFCBytes

/// A virtual Apple Wallet pass holder answering Value Added Services terminals: what an iPhone or Watch presenting a
/// loyalty pass looks like to a VAS reader, written from the card's side of the protocol. VAS is proprietary; the
/// commands and data objects follow the public descriptions of it (kormax, "Apple VAS", github.com/kormax/apple-vas,
/// read 2026; the ID TECH and Verifone VAS integration guides), not an Apple specification.
///
/// | Feature | Supported | Notes |
/// |---|---|---|
/// | Activation | ISO-DEP NFC-A, 4-byte UID, ATQA `0004`, SAK `20`, ATS `05 78 80 70 02` | a plausible ISO-DEP card, not a copy of an iPhone's |
/// | SELECT `OSE.VAS.01` | `00 A4 04 00 0A 4F53452E5641532E3031 00` → FCI `6F` {`50` "ApplePay", `9F21` version `0100`, `9F24` 4-byte nonce} `90 00` | other AIDs: `6A 82` |
/// | GET VAS DATA | `80 CA 01 P2 Lc` TLVs `9F22` version, `9F25` SHA-256 of the pass type identifier, `9F26` capabilities, optional `9F29` URL | P2 `01` full VAS, `00` URL only |
/// | Pass found (full mode) | `70` {`9F2A` mobile token, `9F27` VAS data} `90 00` | the data are given by the test or the tag file as is |
/// | Statuses | `6A 83` no pass for the merchant / URL-only mode, `6B 00` P1 or P2 wrong, `67 00` no data, `6A 80` malformed TLVs or merchant ID, `63 40` version not `0100`, `69 85` GET before SELECT, a pass's own status (e.g. `62 87` not activated, `69 84` user intervention) | the status words of Core NFC's `NFCVASResponse.ErrorCode` |
/// | Not emulated | the pass cryptography (ECDH key agreement, AES-GCM of the VAS data), nonces that change, ECP, payment | VAS data are returned as stored; see docs/DIFFERENCES.md |
package final class VASPassTag: VirtualTag {
    /// One pass in the holder's wallet.
    package struct Pass: Sendable, Hashable {
        /// The Wallet pass type identifier (`pass.com.example.loyalty`); terminals ask for its SHA-256.
        package var passTypeIdentifier: String
        /// What GET VAS DATA returns in `9F27` (on a real phone: the encrypted pass payload).
        package var vasData: [UInt8]
        /// What GET VAS DATA returns in `9F2A`.
        package var mobileToken: [UInt8]
        /// A status word answered instead of the data (e.g. `0x6287` pass not activated), nil for `90 00`.
        package var status: UInt16?

        package init(passTypeIdentifier: String, vasData: [UInt8], mobileToken: [UInt8] = [], status: UInt16? = nil) {
            self.passTypeIdentifier = passTypeIdentifier
            self.vasData = vasData
            self.mobileToken = mobileToken
            self.status = status
        }
    }

    /// The VAS application identifier, ASCII `OSE.VAS.01`.
    package static let aid: [UInt8] = Array("OSE.VAS.01".utf8)

    package let chip = "vas-pass"
    package var activation: VirtualActivation
    /// The passes, in wallet order.
    package var passes: [Pass]
    /// Every merchant URL (`9F29`) terminals sent, in order.
    package private(set) var offeredURLs: [String] = []
    /// Every merchant identifier (`9F25`) terminals asked for, in order.
    package private(set) var requestedMerchantIDs: [[UInt8]] = []
    private var selected = false
    private var nonce: UInt32 = 0

    /// A pass holder with this 4-byte UID and these passes.
    package init(uid: [UInt8] = [0x08, 0x56, 0x41, 0x53], passes: [Pass]) throws(ISODEPCardError) {
        guard uid.count == 4 else {
            throw ISODEPCardError(.invalidConfiguration, "UID of \(uid.count) bytes: a VAS pass holder has 4")
        }
        self.activation = VirtualActivation(
            uid: uid, sensRes: 0x0004, selRes: 0x20, ats: [0x05, 0x78, 0x80, 0x70, 0x02])
        self.passes = passes
    }

    package func reset() { selected = false }

    package func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        guard tearAfter == nil else { return .silence }
        let command: ISO7816Command
        do {
            command = try ISO7816Command(decoding: frame)
        } catch {
            return .data([0x67, 0x00])
        }
        switch (command.cla, command.ins) {
        case (0x00, 0xA4): return .data(select(command))
        case (0x80, 0xCA): return .data(getVASData(command))
        default: return .data([0x6D, 0x00])
        }
    }

    private func select(_ command: ISO7816Command) -> [UInt8] {
        guard command.p1 == 0x04, command.data == Self.aid else {
            selected = false
            return [0x6A, 0x82]
        }
        selected = true
        nonce &+= 1
        let fci =
            Self.tlv([0x50], Array("ApplePay".utf8)) + Self.tlv([0x9F, 0x21], [0x01, 0x00])
            + Self.tlv([0x9F, 0x24], [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: nonce >> $0) })
        return Self.tlv([0x6F], fci) + [0x90, 0x00]
    }

    private func getVASData(_ command: ISO7816Command) -> [UInt8] {
        guard selected else { return [0x69, 0x85] }
        guard command.p1 == 0x01, command.p2 <= 0x01 else { return [0x6B, 0x00] }
        guard !command.data.isEmpty else { return [0x67, 0x00] }
        guard let objects = Self.parse(command.data) else { return [0x6A, 0x80] }
        guard let version = objects[0x9F22], version == [0x01, 0x00] else { return [0x63, 0x40] }
        guard let merchant = objects[0x9F25], merchant.count == 32 else { return [0x6A, 0x80] }
        requestedMerchantIDs.append(merchant)
        if let url = objects[0x9F29] { offeredURLs.append(String(decoding: url, as: UTF8.self)) }
        guard command.p2 == 0x01 else { return [0x6A, 0x83] }  // URL only: the terminal advertises, no pass is read
        guard let pass = passes.first(where: { SHA256.hash(Array($0.passTypeIdentifier.utf8)) == merchant }) else {
            return [0x6A, 0x83]
        }
        if let status = pass.status { return [UInt8(status >> 8), UInt8(status & 0xFF)] }
        let body = Self.tlv([0x9F, 0x2A], pass.mobileToken) + Self.tlv([0x9F, 0x27], pass.vasData)
        return Self.tlv([0x70], body) + [0x90, 0x00]
    }

    /// BER-TLV with the length in one, two or three bytes (ISO/IEC 7816-4 §5.2.2.2).
    static func tlv(_ tag: [UInt8], _ value: [UInt8]) -> [UInt8] {
        let n = value.count
        let length: [UInt8] =
            n < 0x80 ? [UInt8(n)] : n <= 0xFF ? [0x81, UInt8(n)] : [0x82, UInt8(n >> 8), UInt8(n & 0xFF)]
        return tag + length + value
    }

    /// The data objects of GET VAS DATA (tags of one or two bytes, §5.2.2.1), by tag; nil when malformed.
    static func parse(_ data: [UInt8]) -> [UInt16: [UInt8]]? {
        var out: [UInt16: [UInt8]] = [:]
        var i = 0
        while i < data.count {
            var tag = UInt16(data[i])
            i += 1
            if tag & 0x1F == 0x1F {
                guard i < data.count else { return nil }
                tag = tag << 8 | UInt16(data[i])
                i += 1
            }
            guard i < data.count else { return nil }
            var n = Int(data[i])
            i += 1
            if n == 0x81 || n == 0x82 {
                let count = n & 0x03
                guard i + count <= data.count else { return nil }
                n = data[i..<(i + count)].reduce(0) { $0 << 8 | Int($1) }
                i += count
            } else if n > 0x80 {
                return nil
            }
            guard i + n <= data.count else { return nil }
            out[tag] = Array(data[i..<(i + n)])
            i += n
        }
        return out
    }
}
