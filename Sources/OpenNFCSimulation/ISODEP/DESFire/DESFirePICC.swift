/// The applications of a DESFire card, seen by the shared ISO/IEC 7816-4 engine as DFs (selectable by DF name or
/// ISO DF identifier when created with them) holding EFs (files created with an ISO file identifier). Access
/// without authentication follows the file's access rights: free (`E`) is granted, anything else is `69 82`.
struct DESFirePICC: ISO7816FileTree {
    var applications: [DESFireApplication]
    /// The PICC master key (factory: DES, all zeros).
    var masterKey = DESFireKey.zero(.des)

    var dfCount: Int { applications.count }
    func dfName(_ df: Int) -> [UInt8]? { applications[df].dfName }
    func dfFileID(_ df: Int) -> UInt16? { applications[df].isoFileID }
    func applet(_ df: Int) -> (any ISO7816Applet)? { nil }
    func efCount(_ df: Int) -> Int { applications[df].files.count }
    func efFileID(_ ref: ISO7816FileReference) -> UInt16? { file(ref).isoFileID }
    func efShortID(_ ref: ISO7816FileReference) -> UInt8? { nil }
    func efSize(_ ref: ISO7816FileReference) -> Int { file(ref).contents.count }
    func efRead(_ ref: ISO7816FileReference, _ range: Range<Int>) -> [UInt8] { Array(file(ref).contents[range]) }

    func efAllows(_ ref: ISO7816FileReference, _ operation: ISO7816FileOperation) -> Bool {
        // ISO 7816-4 reaches data files only; a backup file's writes need CommitTransaction, so UPDATE BINARY is
        // refused on it.
        let f = file(ref)
        guard f.kind == .standard || (f.kind == .backup && operation == .read) else { return false }
        return f.access(operation) == .free
    }

    mutating func efWrite(_ ref: ISO7816FileReference, at offset: Int, _ bytes: ArraySlice<UInt8>) {
        applications[ref.df].files[ref.ef].contents.replaceSubrange(offset..<offset + bytes.count, with: bytes)
    }

    func file(_ ref: ISO7816FileReference) -> DESFireFile { applications[ref.df].files[ref.ef] }

    func application(aid: UInt32) -> Int? { applications.firstIndex { $0.aid == aid } }

    func file(in df: Int, number: UInt8) -> ISO7816FileReference? {
        applications[df].files.firstIndex { $0.number == number }.map { ISO7816FileReference(df: df, ef: $0) }
    }
}
