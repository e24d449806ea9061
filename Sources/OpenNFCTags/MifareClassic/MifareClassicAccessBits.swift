/// The access bits of a MIFARE Classic sector trailer (bytes 6–8), decoded and encoded as the reader side reads NXP
/// MF1S50yyX §8.7 (Tables 6–8): C1 C2 C3 for groups 0–2 (data blocks; five blocks each in the 4K's 16-block sectors)
/// and group 3 (the trailer), each stored with its inverse.
///
/// | Byte | Bits 7–4 | Bits 3–0 |
/// |---|---|---|
/// | 6 | ¬C2₃…¬C2₀ | ¬C1₃…¬C1₀ |
/// | 7 | C1₃…C1₀ | ¬C3₃…¬C3₀ |
/// | 8 | C3₃…C3₀ | C2₃…C2₀ |
package struct MifareClassicAccessBits: Sendable, Hashable, CustomStringConvertible {
    /// Which keys an access condition lets do something.
    package enum Keys: String, Sendable, Hashable {
        case never = "-"
        case keyA = "A"
        case keyB = "B"
        case either = "A|B"

        /// Whether a key of this type (A: `true`) is granted.
        package func grants(keyA: Bool) -> Bool { self == .either || self == (keyA ? .keyA : .keyB) }
    }

    /// What a data block's condition allows (Table 8).
    package struct DataRights: Sendable, Hashable {
        package var read, write, increment, decrementTransferRestore: Keys
    }

    /// What the trailer's condition allows (Table 7).
    package struct TrailerRights: Sendable, Hashable {
        package var keyAWrite, accessBitsRead, accessBitsWrite, keyBRead, keyBWrite: Keys
    }

    /// C1C2C3 of groups 0–3 as 3-bit numbers (C1 the most significant), e.g. `[0, 0, 0, 1]` for the transport
    /// configuration `FF 07 80`.
    package var conditions: [UInt8]

    /// Access bits from four 3-bit conditions (groups 0–2 data, 3 trailer).
    package init(conditions: [UInt8]) throws(TagError) {
        guard conditions.count == 4, conditions.allSatisfy({ $0 < 8 }) else {
            throw TagError(.invalidResponse, "access conditions are four values 0–7 (C1C2C3), not \(conditions)")
        }
        self.conditions = conditions
    }

    /// Decodes trailer bytes 6–8, checking each bit against its inverted copy.
    package init(bytes: [UInt8]) throws(TagError) {
        guard bytes.count >= 3 else { throw TagError(.invalidResponse, "access bits need 3 bytes, got \(bytes.count)") }
        let c1 = bytes[1] >> 4
        let c2 = bytes[2] & 0x0F
        let c3 = bytes[2] >> 4
        let checks: [(String, UInt8, UInt8)] = [
            ("byte 6 bits 3-0 (not C1)", bytes[0] & 0x0F, ~c1 & 0x0F),
            ("byte 6 bits 7-4 (not C2)", bytes[0] >> 4, ~c2 & 0x0F),
            ("byte 7 bits 3-0 (not C3)", bytes[1] & 0x0F, ~c3 & 0x0F),
        ]
        for (place, found, expected) in checks where found != expected {
            throw TagError(
                .invalidResponse,
                "access bits \(bytes.prefix(3).map { String($0, radix: 16) }) are inconsistent: \(place) is "
                    + "\(String(found, radix: 2)), the inverse of the other copy needs \(String(expected, radix: 2))")
        }
        conditions = (0..<4).map { g in
            (c1 >> UInt8(g) & 1) << 2 | (c2 >> UInt8(g) & 1) << 1 | (c3 >> UInt8(g) & 1)
        }
    }

    /// The three bytes 6–8.
    package var bytes: [UInt8] {
        var c1: UInt8 = 0
        var c2: UInt8 = 0
        var c3: UInt8 = 0
        for (g, c) in conditions.enumerated() {
            c1 |= (c >> 2 & 1) << UInt8(g)
            c2 |= (c >> 1 & 1) << UInt8(g)
            c3 |= (c & 1) << UInt8(g)
        }
        return [(~c2 & 0x0F) << 4 | (~c1 & 0x0F), c1 << 4 | (~c3 & 0x0F), c3 << 4 | c2]
    }

    /// `FF 07 80`: data blocks 000, trailer 001 (as NXP ships the chip).
    package static let transport = try! MifareClassicAccessBits(conditions: [0, 0, 0, 1])
    /// `7F 07 88`: NFC Forum NDEF sectors (data 000, trailer 011: key B manages, key A reads and writes data).
    package static let ndefReadWrite = try! MifareClassicAccessBits(conditions: [0, 0, 0, 3])
    /// `07 8F 0F`: read-only NDEF sectors (data 010, trailer 110: nothing writable ever again).
    package static let ndefReadOnly = try! MifareClassicAccessBits(conditions: [2, 2, 2, 6])
    /// `78 77 88`: the MAD sector (data 100 read with either key, write with B; trailer 011).
    package static let mad = try! MifareClassicAccessBits(conditions: [4, 4, 4, 3])

    static let dataTable: [DataRights] = [
        DataRights(read: .either, write: .either, increment: .either, decrementTransferRestore: .either),  // 000
        DataRights(read: .either, write: .never, increment: .never, decrementTransferRestore: .either),  // 001
        DataRights(read: .either, write: .never, increment: .never, decrementTransferRestore: .never),  // 010
        DataRights(read: .keyB, write: .keyB, increment: .never, decrementTransferRestore: .never),  // 011
        DataRights(read: .either, write: .keyB, increment: .never, decrementTransferRestore: .never),  // 100
        DataRights(read: .keyB, write: .never, increment: .never, decrementTransferRestore: .never),  // 101
        DataRights(read: .either, write: .keyB, increment: .keyB, decrementTransferRestore: .either),  // 110
        DataRights(read: .never, write: .never, increment: .never, decrementTransferRestore: .never),  // 111
    ]

    static let trailerTable: [TrailerRights] = [
        TrailerRights(
            keyAWrite: .keyA, accessBitsRead: .keyA, accessBitsWrite: .never, keyBRead: .keyA, keyBWrite: .keyA),
        TrailerRights(
            keyAWrite: .keyA, accessBitsRead: .keyA, accessBitsWrite: .keyA, keyBRead: .keyA, keyBWrite: .keyA),
        TrailerRights(
            keyAWrite: .never, accessBitsRead: .keyA, accessBitsWrite: .never, keyBRead: .keyA, keyBWrite: .never),
        TrailerRights(
            keyAWrite: .keyB, accessBitsRead: .either, accessBitsWrite: .keyB, keyBRead: .never, keyBWrite: .keyB),
        TrailerRights(
            keyAWrite: .keyB, accessBitsRead: .either, accessBitsWrite: .never, keyBRead: .never, keyBWrite: .keyB),
        TrailerRights(
            keyAWrite: .never, accessBitsRead: .either, accessBitsWrite: .keyB, keyBRead: .never, keyBWrite: .never),
        TrailerRights(
            keyAWrite: .never, accessBitsRead: .either, accessBitsWrite: .never, keyBRead: .never, keyBWrite: .never),
        TrailerRights(
            keyAWrite: .never, accessBitsRead: .either, accessBitsWrite: .never, keyBRead: .never, keyBWrite: .never),
    ]

    /// The rights of data group 0–2.
    package func data(_ group: Int) -> DataRights { Self.dataTable[Int(conditions[group])] }
    /// The rights on the trailer.
    package var trailer: TrailerRights { Self.trailerTable[Int(conditions[3])] }

    /// Whether key B is readable, so it cannot serve for authentication (MF1S50yyX §8.7.2).
    package var keyBIsReadable: Bool { trailer.keyBRead != .never }

    /// Whether no key can ever change these access bits again (the sector's conditions are final).
    package var isFrozen: Bool { trailer.accessBitsWrite == .never }

    package var description: String {
        let groups = (0..<3).map { g in
            let d = data(g)
            return "block group \(g): read \(d.read.rawValue), write \(d.write.rawValue), increment "
                + "\(d.increment.rawValue), decrement/transfer/restore \(d.decrementTransferRestore.rawValue)"
        }
        let t = trailer
        return
            (groups + [
                "trailer: write key A \(t.keyAWrite.rawValue), read access bits \(t.accessBitsRead.rawValue), write "
                    + "access bits \(t.accessBitsWrite.rawValue), read key B \(t.keyBRead.rawValue), write key B "
                    + "\(t.keyBWrite.rawValue)"
            ]).joined(separator: "; ")
    }
}
