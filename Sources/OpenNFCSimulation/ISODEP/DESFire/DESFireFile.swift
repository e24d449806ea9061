/// A MIFARE DESFire EV1 file (MF3ICD81 functional description, file types): standard data (`00`), backup data
/// (`01`), value (`02`), linear record (`03`) or cyclic record (`04`).
public struct DESFireFile: Sendable, Hashable {
    /// The file type and its type-specific settings.
    public enum Kind: Sendable, Hashable {
        /// Standard data file: writes land at once.
        case standard
        /// Backup data file: writes stay pending until CommitTransaction (a mirror is kept).
        case backup
        /// Value file: a signed 32-bit value between `lower` and `upper`; `limitedCredit` enables LimitedCredit,
        /// `freeGetValue` lets GetValue run without authentication (the EV1 "free GetValue" bit).
        case value(lower: Int32, upper: Int32, limitedCredit: Bool, freeGetValue: Bool)
        /// Linear record file: at most `maxRecords` records of `recordSize` bytes; full is `BE`.
        case linearRecord(recordSize: Int, maxRecords: Int)
        /// Cyclic record file: `maxRecords − 1` records of `recordSize` bytes are kept (one is reserved for the
        /// record being written); the oldest is overwritten.
        case cyclicRecord(recordSize: Int, maxRecords: Int)

        /// The file type byte of GetFileSettings.
        public var typeByte: UInt8 {
            switch self {
            case .standard: 0x00
            case .backup: 0x01
            case .value: 0x02
            case .linearRecord: 0x03
            case .cyclicRecord: 0x04
            }
        }

        /// Whether the file holds bytes (standard or backup data).
        public var isData: Bool {
            switch self {
            case .standard, .backup: true
            default: false
            }
        }

        /// (record size, most records stored) of a record file.
        public var recordGeometry: (size: Int, capacity: Int)? {
            switch self {
            case .linearRecord(let s, let m): (s, m)
            case .cyclicRecord(let s, let m): (s, m - 1)
            default: nil
            }
        }
    }

    /// File number within its application, 0–31.
    public var number: UInt8
    /// ISO/IEC 7816-4 file identifier, when the file was created with one (selectable through the ISO commands).
    public var isoFileID: UInt16?
    /// Communication settings byte: `00` plain, `01` MACed, `03` enciphered. It applies when a key grants the
    /// access; free access always travels plain.
    public var communicationSettings: UInt8
    /// Access rights as a 16-bit value: bits 15–12 Read, 11–8 Write, 7–4 Read&Write, 3–0 Change. Each nibble is a
    /// key number `0`–`D`, `E` free access, `F` never. On the wire it travels little-endian (`EE EE` = all free).
    public var accessRights: UInt16
    /// The file type.
    public var kind: Kind
    /// The contents of a data file; the size is fixed at creation (empty for value and record files).
    public var contents: [UInt8]
    /// A value file's committed value.
    public var value: Int32
    /// A value file's limited credit value: the sum of the debits of the last committed transaction with debits.
    public var limitedCreditValue: Int32
    /// A record file's committed records, oldest first.
    public var records: [[UInt8]]

    public init(
        number: UInt8, isoFileID: UInt16? = nil, communicationSettings: UInt8 = 0x00, accessRights: UInt16 = 0xEEEE,
        contents: [UInt8], kind: Kind = .standard
    ) {
        self.number = number
        self.isoFileID = isoFileID
        self.communicationSettings = communicationSettings
        self.accessRights = accessRights
        self.kind = kind
        self.contents = contents
        self.value = 0
        self.limitedCreditValue = 0
        self.records = []
    }

    /// A value file holding `value`.
    public static func valueFile(
        number: UInt8, communicationSettings: UInt8 = 0x00, accessRights: UInt16 = 0xEEEE, lower: Int32,
        upper: Int32, value: Int32, limitedCredit: Bool = false, freeGetValue: Bool = false,
        limitedCreditValue: Int32 = 0
    ) -> DESFireFile {
        var f = DESFireFile(
            number: number, communicationSettings: communicationSettings, accessRights: accessRights, contents: [],
            kind: .value(lower: lower, upper: upper, limitedCredit: limitedCredit, freeGetValue: freeGetValue))
        f.value = value
        f.limitedCreditValue = limitedCreditValue
        return f
    }

    /// A linear (or `cyclic`) record file holding `records` (oldest first).
    public static func recordFile(
        number: UInt8, isoFileID: UInt16? = nil, communicationSettings: UInt8 = 0x00, accessRights: UInt16 = 0xEEEE,
        recordSize: Int, maxRecords: Int, cyclic: Bool = false, records: [[UInt8]] = []
    ) -> DESFireFile {
        var f = DESFireFile(
            number: number, isoFileID: isoFileID, communicationSettings: communicationSettings,
            accessRights: accessRights, contents: [],
            kind: cyclic
                ? .cyclicRecord(recordSize: recordSize, maxRecords: maxRecords)
                : .linearRecord(recordSize: recordSize, maxRecords: maxRecords))
        f.records = records
        return f
    }

    /// The bytes of storage the file takes (data size, 4 for a value, record size × records for a record file).
    public var storageSize: Int {
        switch kind {
        case .standard, .backup: contents.count
        case .value: 4
        case .linearRecord(let s, let m), .cyclicRecord(let s, let m): s * m
        }
    }

    /// What the access rights say about an operation without authentication (ISO 7816 access: data files only).
    enum Access: Sendable, Hashable {
        case free
        /// Needs authentication with a key: `AE` natively.
        case needsKey
        /// Never allowed: `9D` natively.
        case never
    }

    func access(_ operation: ISO7816FileOperation) -> Access {
        access(nibbles: operation == .read ? [.read, .readWrite] : [.write, .readWrite])
    }

    /// The four access-right nibbles.
    enum Right: Sendable, Hashable {
        case read, write, readWrite, change

        var shift: UInt16 {
            switch self {
            case .read: 12
            case .write: 8
            case .readWrite: 4
            case .change: 0
            }
        }
    }

    /// The key number (or `E`/`F`) an access-right nibble holds.
    func key(_ right: Right) -> UInt8 { UInt8(accessRights >> right.shift & 0xF) }

    /// Free when any of `nibbles` is `E`, never when all are `F`, else a key is needed.
    func access(nibbles: [Right]) -> Access {
        let keys = nibbles.map(key)
        if keys.contains(0xE) { return .free }
        if keys.allSatisfy({ $0 == 0xF }) { return .never }
        return .needsKey
    }
}
