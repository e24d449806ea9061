/// Everything `opennfc dump` reads of a MIFARE DESFire EV1: the GetVersion answer and every application with its
/// files — what free access and the keys given open (NXP MF3ICD81 §9).
package struct DESFireImage: Sendable, Hashable {
    /// GetVersion frame 1: hardware vendor, type, subtype, version major/minor, storage size, protocol.
    package var hardware: [UInt8]
    /// GetVersion frame 2: the same fields for the software.
    package var software: [UInt8]
    /// GetVersion frame 3: UID (7), batch number (5), production week and year.
    package var production: [UInt8]
    /// The applications in GetApplicationIDs order.
    package var applications: [DESFireApplicationImage]
    /// The PICC master key, when it was given and authenticated.
    package var masterKey: DESFireCardKey?

    package init(
        hardware: [UInt8], software: [UInt8], production: [UInt8], applications: [DESFireApplicationImage],
        masterKey: DESFireCardKey? = nil
    ) {
        self.hardware = hardware
        self.software = software
        self.production = production
        self.applications = applications
        self.masterKey = masterKey
    }
}

/// One DESFire application as GetKeySettings, GetDFNames and its files describe it.
package struct DESFireApplicationImage: Sendable, Hashable {
    /// The 24-bit AID as a value (travels least significant byte first).
    package var aid: UInt32
    /// Application master key settings (GetKeySettings byte 1).
    package var keySettings: UInt8
    /// Key count byte (GetKeySettings byte 2): number of keys, `20` ISO file ids, crypto bits 7–6.
    package var keyCount: UInt8
    /// ISO DF identifier, when the application has a DF name (GetDFNames).
    package var isoFileID: UInt16?
    /// ISO DF name (GetDFNames).
    package var dfName: [UInt8]?
    /// The files in GetFileIDs order.
    package var files: [DESFireFileImage]
    /// The keys known (given and authenticated), by key number; the others are unknown.
    package var keys: [UInt8: DESFireCardKey]

    package init(
        aid: UInt32, keySettings: UInt8, keyCount: UInt8, isoFileID: UInt16? = nil, dfName: [UInt8]? = nil,
        files: [DESFireFileImage] = [], keys: [UInt8: DESFireCardKey] = [:]
    ) {
        self.aid = aid
        self.keySettings = keySettings
        self.keyCount = keyCount
        self.isoFileID = isoFileID
        self.dfName = dfName
        self.files = files
        self.keys = keys
    }
}

/// One DESFire file: GetFileSettings and its contents (data, value or records), or why it stayed closed.
package struct DESFireFileImage: Sendable, Hashable {
    /// File number 0–31.
    package var number: UInt8
    /// ISO file identifier (GetISOFileIDs, in file order), when the application uses them.
    package var isoFileID: UInt16?
    /// Communication settings: `00` plain, `01` MACed, `03` enciphered.
    package var communication: UInt8
    /// Access rights as the 16-bit value Read|Write|Read&Write|Change (`EEEE` free).
    package var accessRights: UInt16
    /// The file type and its settings (`.standard` with the contents' size by default).
    package var kind: DESFireFileSettings.Kind
    /// A data file's contents; its length is the file size (zeros when closed).
    package var contents: [UInt8]
    /// A value file's value.
    package var value: Int32
    /// A record file's records, oldest first.
    package var records: [[UInt8]]
    /// Nil when read; otherwise why not (no key given for it, never readable, …).
    package var closed: String?

    package init(
        number: UInt8, isoFileID: UInt16?, communication: UInt8, accessRights: UInt16, contents: [UInt8],
        kind: DESFireFileSettings.Kind? = nil, value: Int32 = 0, records: [[UInt8]] = [], closed: String? = nil
    ) {
        self.number = number
        self.isoFileID = isoFileID
        self.communication = communication
        self.accessRights = accessRights
        self.contents = contents
        self.kind = kind ?? .standard(size: contents.count)
        self.value = value
        self.records = records
        self.closed = closed
    }

    /// The file's settings as GetFileSettings gives them.
    package var settings: DESFireFileSettings {
        DESFireFileSettings(kind: kind, communication: communication, accessRights: accessRights)
    }
}
