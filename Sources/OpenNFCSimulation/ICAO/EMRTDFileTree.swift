/// The files of a virtual eMRTD as the shared ISO 7816-4 engine sees them (ICAO Doc 9303 Part 10 §3.11, §4): the
/// MF holds EF.CardAccess and EF.ATR/INFO, readable by anyone; the eMRTD application (DF name `A0000002471001`,
/// no file identifier) holds EF.COM, the data groups and EF.SOD, readable only once BAC or PACE has established
/// secure messaging (Part 11 §4.2: access control) — before that READ BINARY answers `69 82`. Nothing is writable
/// (the document is locked after personalisation: `69 82`).
struct EMRTDFileTree: ISO7816FileTree {
    var volume: ISO7816Volume
    /// Set while a BAC or PACE session is running; cleared when secure messaging ends.
    var accessGranted = false

    /// The tree of `files`: MF files in the MF, every other file in the eMRTD application.
    init(files: [LDSFile: [UInt8]]) {
        let sorted = files.keys.sorted()
        func ef(_ f: LDSFile) -> ISO7816ElementaryFile {
            ISO7816ElementaryFile(
                fileID: f.fileID, contents: files[f] ?? [], readAccess: 0x00, writeAccess: 0xFF, shortID: f.shortID)
        }
        let application = ISO7816Application(
            name: LDSFile.applicationID, files: sorted.filter { !$0.inMasterFile }.map(ef))
        volume = ISO7816Volume(entries: [.files(application)])
        volume.masterFiles = sorted.filter(\.inMasterFile).map(ef)
    }

    var dfCount: Int { volume.dfCount }
    var masterFileEFCount: Int { volume.masterFileEFCount }
    func dfName(_ df: Int) -> [UInt8]? { volume.dfName(df) }
    func dfFileID(_ df: Int) -> UInt16? { volume.dfFileID(df) }
    func applet(_ df: Int) -> (any ISO7816Applet)? { nil }
    func efCount(_ df: Int) -> Int { volume.efCount(df) }
    func efFileID(_ ref: ISO7816FileReference) -> UInt16? { volume.efFileID(ref) }
    func efShortID(_ ref: ISO7816FileReference) -> UInt8? { volume.efShortID(ref) }
    func efSize(_ ref: ISO7816FileReference) -> Int { volume.efSize(ref) }
    func efRead(_ ref: ISO7816FileReference, _ range: Range<Int>) -> [UInt8] { volume.efRead(ref, range) }
    mutating func efWrite(_ ref: ISO7816FileReference, at offset: Int, _ bytes: ArraySlice<UInt8>) {}

    func efAllows(_ ref: ISO7816FileReference, _ operation: ISO7816FileOperation) -> Bool {
        operation == .read && (ref.df == ISO7816FileReference.masterFile || accessGranted)
    }
}
