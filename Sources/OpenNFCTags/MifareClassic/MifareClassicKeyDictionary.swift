internal import OpenNFCBytes

/// Keys to try on a MIFARE Classic sector, in order: a file's (`--keys FILE`) and the well-known ones built in.
///
/// File format: one 6-byte key per line as 12 hex digits (spaces and `:` allowed between bytes), `#` starts a
/// comment, blank lines are skipped; anything else is an error naming the line.
package struct MifareClassicKeyDictionary: Sendable, Hashable {
    package var keys: [[UInt8]]

    package init(keys: [[UInt8]]) { self.keys = keys }

    /// Keys found in public documentation: NXP's transport key `FFFFFFFFFFFF`, the MAD key `A0A1A2A3A4A5` (NXP
    /// AN10787 §3.6), the NFC Forum key `D3F7D3F7D3F7` (NXP AN1305 §6.1), all-zero, and the defaults in libnfc's and
    /// proxmark3's public key lists that issuers ship most.
    package static let wellKnown = MifareClassicKeyDictionary(
        keys: [
            "FFFFFFFFFFFF", "A0A1A2A3A4A5", "D3F7D3F7D3F7", "000000000000", "B0B1B2B3B4B5", "4D3A99C351DD",
            "1A982C7E459A", "AABBCCDDEEFF", "714C5C886E97", "587EE5F9350F", "A0478CC39091", "533CB6C723F6",
            "8FD0A4F256E9",
        ].map { hex in
            stride(from: 0, to: 12, by: 2).map { i in
                UInt8(
                    hex[hex.index(hex.startIndex, offsetBy: i)..<hex.index(hex.startIndex, offsetBy: i + 2)], radix: 16)!
            }
        })

    /// Parses a key file; `name` appears in errors (`keys.txt:3: …`).
    package static func parse(_ text: String, name: String) throws(TagError) -> MifareClassicKeyDictionary {
        var keys: [[UInt8]] = []
        for (n, raw) in text.textLines().enumerated() {
            let content = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let digits = content.filter { !$0.isWhitespace && $0 != ":" }
            if digits.isEmpty { continue }
            guard digits.count == 12, digits.allSatisfy(\.isHexDigit) else {
                throw TagError(
                    .invalidResponse, "\(name):\(n + 1): expected a 6-byte key as 12 hex digits, found '\(digits)'")
            }
            let chars = Array(digits)
            let key = stride(from: 0, to: 12, by: 2).map { UInt8(String(chars[$0...$0 + 1]), radix: 16)! }
            if !keys.contains(key) { keys.append(key) }
        }
        return MifareClassicKeyDictionary(keys: keys)
    }

    /// These keys, then the ones of `other` not already here.
    package func followed(by other: MifareClassicKeyDictionary) -> MifareClassicKeyDictionary {
        MifareClassicKeyDictionary(keys: keys + other.keys.filter { !keys.contains($0) })
    }
}
