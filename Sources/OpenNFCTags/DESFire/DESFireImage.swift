/// Everything `opennfc dump` reads of a MIFARE DESFire EV1 without authentication: the GetVersion answer and every
/// application with its standard data files (NXP MF3ICD81 §9).
package struct DESFireImage: Sendable, Hashable {
    /// GetVersion frame 1: hardware vendor, type, subtype, version major/minor, storage size, protocol.
    package var hardware: [UInt8]
    /// GetVersion frame 2: the same fields for the software.
    package var software: [UInt8]
    /// GetVersion frame 3: UID (7), batch number (5), production week and year.
    package var production: [UInt8]
    /// The applications in GetApplicationIDs order.
    package var applications: [DESFireApplicationImage]

    package init(
        hardware: [UInt8], software: [UInt8], production: [UInt8], applications: [DESFireApplicationImage]
    ) {
        self.hardware = hardware
        self.software = software
        self.production = production
        self.applications = applications
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
    /// The standard data files in GetFileIDs order.
    package var files: [DESFireFileImage]

    package init(
        aid: UInt32, keySettings: UInt8, keyCount: UInt8, isoFileID: UInt16? = nil, dfName: [UInt8]? = nil,
        files: [DESFireFileImage] = []
    ) {
        self.aid = aid
        self.keySettings = keySettings
        self.keyCount = keyCount
        self.isoFileID = isoFileID
        self.dfName = dfName
        self.files = files
    }
}

/// One DESFire standard data file: GetFileSettings and the whole contents (ReadData length 0).
package struct DESFireFileImage: Sendable, Hashable {
    /// File number 0–31.
    package var number: UInt8
    /// ISO file identifier (GetISOFileIDs, in file order), when the application uses them.
    package var isoFileID: UInt16?
    /// Communication settings: `00` plain, `01` MACed, `03` enciphered.
    package var communication: UInt8
    /// Access rights as the 16-bit value Read|Write|Read&Write|Change (`EEEE` free).
    package var accessRights: UInt16
    /// The whole file; its length is the file size.
    package var contents: [UInt8]

    package init(number: UInt8, isoFileID: UInt16?, communication: UInt8, accessRights: UInt16, contents: [UInt8]) {
        self.number = number
        self.isoFileID = isoFileID
        self.communication = communication
        self.accessRights = accessRights
        self.contents = contents
    }
}
