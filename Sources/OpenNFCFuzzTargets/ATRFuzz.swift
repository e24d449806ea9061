internal import OpenNFCPCSC
internal import OpenNFCSimulation
internal import OpenNFCVPCD

/// ATR parsing (ISO/IEC 7816-3 §8) and the contactless card it announces (PC/SC Part 3 §3.1.3.2.3).
///
/// Invariants: an error's offset lies within the ATR's 33 bytes (or at the byte that would be the 34th); a parsed
/// ATR keeps its bytes, has at most as many historical bytes as T0 announces and the interface groups T0 and the TDs
/// chain; a storage-card ATR's card name is the two bytes after the standard byte.
enum ATRFuzz {
    static let target = FuzzTarget(
        "atr", "ATR parsing and the contactless card kind it announces (PC/SC Part 3)", seeds: seeds, run: run)

    static func run(_ data: [UInt8]) {
        let atr: ATR
        do {
            atr = try ATR(decoding: data)
        } catch {
            fuzzRequire(error.offset >= 0 && error.offset <= ATR.maximumLength, "ATR error offset \(error.offset)")
            fuzzRequire(!error.reason.isEmpty, "an ATR error without a reason")
            return
        }
        fuzzRequire(atr.bytes == data, "the ATR does not keep its bytes")
        fuzzRequire(atr.historicalBytes.count == Int(data[1] & 0x0F), "historical byte count ≠ T0's K")
        fuzzRequire(!atr.groups.isEmpty && atr.groups.dropLast().allSatisfy { $0.td != nil }, "groups do not chain")
        fuzzRequire(atr.groups.last?.td == nil, "the last interface group announces another")
        fuzzRequire(!atr.protocols.isEmpty, "no protocol")
        _ = atr.description
        switch ContactlessCard(atr: atr) {
        case .storage(let standard, let name):
            let h = atr.historicalBytes
            fuzzRequire(h.count == 15 && h[8] == standard && UInt16(h[9]) << 8 | UInt16(h[10]) == name, "card name")
        case .isoDEP(let historical):
            fuzzRequire(historical == atr.historicalBytes, "ISO-DEP historical bytes")
        case .other:
            break
        }
    }

    /// The ATRs the vpcd card server synthesises for every registered chip, plus ISO 7816-3 shapes.
    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for tag in CardFuzz.factoryTags() {
            let atr = VPCDCard(tag: tag).atr
            if !out.contains(atr) { out.append(atr) }
        }
        out.append([0x3B, 0x00])
        out.append([0x3F, 0x10, 0x11])
        out.append([0x3B, 0xF1, 0x11, 0x22, 0x33, 0x81, 0x31, 0xFE, 0x45, 0x41])
        return out
    }
}
