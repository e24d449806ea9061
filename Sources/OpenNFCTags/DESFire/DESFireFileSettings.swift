/// A DESFire EV1 file's settings as GetFileSettings `F5` answers them (NXP MF3ICD81 functional description).
package struct DESFireFileSettings: Sendable, Hashable {
    /// The file type and its type-specific settings.
    package enum Kind: Sendable, Hashable {
        /// `00` standard data file of `size` bytes.
        case standard(size: Int)
        /// `01` backup data file of `size` bytes (writes wait for CommitTransaction).
        case backup(size: Int)
        /// `02` value file.
        case value(lower: Int32, upper: Int32, limitedCreditValue: Int32, limitedCredit: Bool, freeGetValue: Bool)
        /// `03` linear record file: `current` of `maxRecords` records of `recordSize` bytes.
        case linearRecord(recordSize: Int, maxRecords: Int, current: Int)
        /// `04` cyclic record file.
        case cyclicRecord(recordSize: Int, maxRecords: Int, current: Int)
    }

    package var kind: Kind
    /// `00` plain, `01` MACed, `03` enciphered (when a key grants the access).
    package var communication: UInt8
    /// Read|Write|Read&Write|Change nibbles (`E` free, `F` never).
    package var accessRights: UInt16

    package init(kind: Kind, communication: UInt8, accessRights: UInt16) {
        self.kind = kind
        self.communication = communication
        self.accessRights = accessRights
    }

    /// Decodes a GetFileSettings answer; nil when it does not fit its file type.
    package init?(decoding s: [UInt8]) {
        guard s.count >= 4 else { return nil }
        let le = { (r: Range<Int>) in s[r].reversed().reduce(0) { $0 << 8 | Int($1) } }
        let i32 = { (at: Int) in Int32(bitPattern: UInt32(le(at..<at + 4))) }
        communication = s[1]
        accessRights = UInt16(le(2..<4))
        switch (s[0], s.count) {
        case (0x00, 7...): kind = .standard(size: le(4..<7))
        case (0x01, 7...): kind = .backup(size: le(4..<7))
        case (0x02, 17...):
            kind = .value(
                lower: i32(4), upper: i32(8), limitedCreditValue: i32(12), limitedCredit: s[16] & 1 != 0,
                freeGetValue: s[16] & 2 != 0)
        case (0x03, 13...): kind = .linearRecord(recordSize: le(4..<7), maxRecords: le(7..<10), current: le(10..<13))
        case (0x04, 13...): kind = .cyclicRecord(recordSize: le(4..<7), maxRecords: le(7..<10), current: le(10..<13))
        default: return nil
        }
    }

    /// The file type byte.
    package var typeByte: UInt8 {
        switch kind {
        case .standard: 0x00
        case .backup: 0x01
        case .value: 0x02
        case .linearRecord: 0x03
        case .cyclicRecord: 0x04
        }
    }

    /// The type in words.
    package var typeName: String {
        ["standard", "backup", "value", "linear-record", "cyclic-record"][Int(typeByte)]
    }

    /// The access-right nibbles: 0 Read, 1 Write, 2 Read&Write, 3 Change.
    package func key(_ nibble: Int) -> UInt8 { UInt8(accessRights >> (12 - 4 * nibble) & 0xF) }

    /// The communication an operation that `nibbles` grant travels in: plain when one of them is free (`E`),
    /// the file's setting otherwise (`02` is plain too).
    package func communication(for nibbles: [Int]) -> UInt8 {
        if nibbles.contains(where: { key($0) == 0xE }) { return 0x00 }
        let m = communication & 0x03
        return m == 0x02 ? 0x00 : m
    }

    /// Which key numbers open an operation that `nibbles` grant (empty: free or never).
    package func keys(for nibbles: [Int]) -> [UInt8] {
        nibbles.map(key).filter { $0 < 0x0E }
    }

    /// Nibbles of the reads: ReadData / ReadRecords (Read, Read&Write), GetValue (Read, Write, Read&Write).
    package static let readNibbles = [0, 2]
    package static let writeNibbles = [1, 2]
    package static let getValueNibbles = [0, 1, 2]
}
