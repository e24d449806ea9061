/// A transparent EF of a virtual ISO 7816 card (ISO/IEC 7816-4 §7.1), with NFC Forum T4T access bytes
/// (T4T 1.0 §5.1.2.1: `00` access granted; `FF` no access; `80`–`FE` proprietary).
///
/// The virtual card has no proprietary access scheme, so every value other than `00` denies the operation with
/// `69 82`; the byte itself is kept and reported as configured.
package struct ISO7816ElementaryFile: Sendable, Hashable {
    package var fileID: UInt16
    /// Short EF identifier (1–30) for READ/UPDATE BINARY with P1 bit 8 set; nil when the file has none.
    package var shortID: UInt8?
    /// The whole file: its size is fixed at creation.
    package var contents: [UInt8]
    package var readAccess: UInt8
    package var writeAccess: UInt8

    package init(
        fileID: UInt16, contents: [UInt8], readAccess: UInt8 = 0x00, writeAccess: UInt8 = 0x00, shortID: UInt8? = nil
    ) {
        self.fileID = fileID
        self.shortID = shortID
        self.contents = contents
        self.readAccess = readAccess
        self.writeAccess = writeAccess
    }
}

/// A DF of a virtual ISO 7816 card: an application selected by DF name, holding transparent EFs.
package struct ISO7816Application: Sendable, Hashable {
    /// DF name (AID), 1–16 bytes.
    package var name: [UInt8]
    /// Optional DF file identifier (selectable with P1 `00`/`01`).
    package var fileID: UInt16?
    package var files: [ISO7816ElementaryFile]

    package init(name: [UInt8], fileID: UInt16? = nil, files: [ISO7816ElementaryFile]) {
        self.name = name
        self.fileID = fileID
        self.files = files
    }
}

/// The MF of a virtual ISO 7816 card: file-system applications and applets, in selection order.
struct ISO7816Volume: ISO7816FileTree {
    enum Entry {
        case files(ISO7816Application)
        case applet(any ISO7816Applet)
        /// A second DF name for the files of another entry (the NDEF application answering both T4T names).
        case alias(name: [UInt8], of: Int)
    }

    var entries: [Entry]
    /// EFs of the MF itself (EF.CardAccess of a PACE-capable card).
    var masterFiles: [ISO7816ElementaryFile] = []

    var dfCount: Int { entries.count }
    var masterFileEFCount: Int { masterFiles.count }

    func dfName(_ df: Int) -> [UInt8]? {
        switch entries[df] {
        case .files(let app): return app.name
        case .applet(let applet): return applet.aid
        case .alias(let name, _): return name
        }
    }

    func dfFileID(_ df: Int) -> UInt16? {
        if case .files(let app) = entries[df] { return app.fileID }
        return nil
    }

    /// The entry holding the files of `df` (itself, or the entry an alias names).
    func resolved(_ df: Int) -> Int {
        if case .alias(_, let target) = entries[df] { return target }
        return df
    }

    func applet(_ df: Int) -> (any ISO7816Applet)? {
        if case .applet(let applet) = entries[df] { return applet }
        return nil
    }

    func application(_ df: Int) -> ISO7816Application? {
        if case .files(let app) = entries[resolved(df)] { return app }
        return nil
    }

    func efCount(_ df: Int) -> Int { application(df)?.files.count ?? 0 }
    func efFileID(_ ref: ISO7816FileReference) -> UInt16? { file(ref).fileID }
    func efShortID(_ ref: ISO7816FileReference) -> UInt8? { file(ref).shortID }
    func efSize(_ ref: ISO7816FileReference) -> Int { file(ref).contents.count }
    func efRead(_ ref: ISO7816FileReference, _ range: Range<Int>) -> [UInt8] { Array(file(ref).contents[range]) }

    func efAllows(_ ref: ISO7816FileReference, _ operation: ISO7816FileOperation) -> Bool {
        let f = file(ref)
        return (operation == .read ? f.readAccess : f.writeAccess) == 0x00
    }

    mutating func efWrite(_ ref: ISO7816FileReference, at offset: Int, _ bytes: ArraySlice<UInt8>) {
        modify(ref) { $0.contents.replaceSubrange(offset..<offset + bytes.count, with: bytes) }
    }

    func file(_ ref: ISO7816FileReference) -> ISO7816ElementaryFile {
        if ref.df == ISO7816FileReference.masterFile { return masterFiles[ref.ef] }
        guard let app = application(ref.df) else { preconditionFailure("applets hold no EFs") }
        return app.files[ref.ef]
    }

    mutating func modify(_ ref: ISO7816FileReference, _ change: (inout ISO7816ElementaryFile) -> Void) {
        if ref.df == ISO7816FileReference.masterFile {
            change(&masterFiles[ref.ef])
            return
        }
        let df = resolved(ref.df)
        guard case .files(var app) = entries[df] else { return }
        entries[df] = .alias(name: [], of: df)  // drop the entry's reference: the file changes in place, no copy
        change(&app.files[ref.ef])
        entries[df] = .files(app)
    }
}
