/// An EF inside a DF of an ``ISO7816FileTree``, by position.
struct ISO7816FileReference: Sendable, Hashable {
    var df: Int
    var ef: Int

    /// The `df` of an EF held by the MF itself (ISO/IEC 7816-4 §7.1.1: the MF may hold EFs, e.g. ICAO 9303-10
    /// §3.11.2's EF.CardAccess `011C`).
    static let masterFile = -1

    /// The DF the EF belongs to; nil for an EF of the MF.
    var owner: Int? { df == Self.masterFile ? nil : df }
}

/// The operation an access condition is checked for.
enum ISO7816FileOperation: Sendable, Hashable {
    case read
    case write
}

/// What the shared ISO/IEC 7816-4 engine (``ISO7816Engine``) needs to know about a card's files: an MF (`3F00`)
/// holding DFs (applications, each with an optional DF name and file identifier, or an applet), each DF holding
/// transparent EFs. The Type 4 card and the DESFire ISO view both present their storage through this protocol, so
/// SELECT / READ BINARY / UPDATE BINARY exist once.
///
/// DFs are addressed by position `0..<dfCount`; the MF itself is `nil` wherever a DF is optional. A DF or EF
/// without a file identifier (a DESFire application or file created without ISO ids) is invisible to selection by
/// identifier.
protocol ISO7816FileTree {
    var dfCount: Int { get }
    /// How many EFs the MF itself holds (addressed with `df` ``ISO7816FileReference/masterFile``).
    var masterFileEFCount: Int { get }
    func dfName(_ df: Int) -> [UInt8]?
    func dfFileID(_ df: Int) -> UInt16?
    func applet(_ df: Int) -> (any ISO7816Applet)?
    func efCount(_ df: Int) -> Int
    func efFileID(_ ref: ISO7816FileReference) -> UInt16?
    /// The short EF identifier (1–30) used by READ/UPDATE BINARY with P1 bit 8 set, if the EF has one.
    func efShortID(_ ref: ISO7816FileReference) -> UInt8?
    func efSize(_ ref: ISO7816FileReference) -> Int
    func efRead(_ ref: ISO7816FileReference, _ range: Range<Int>) -> [UInt8]
    mutating func efWrite(_ ref: ISO7816FileReference, at offset: Int, _ bytes: ArraySlice<UInt8>)
    func efAllows(_ ref: ISO7816FileReference, _ operation: ISO7816FileOperation) -> Bool
}

extension ISO7816FileTree {
    /// No EFs in the MF unless a tree says otherwise.
    var masterFileEFCount: Int { 0 }

    private func count(_ df: Int) -> Int { df == ISO7816FileReference.masterFile ? masterFileEFCount : efCount(df) }

    /// The EF of `df` (``ISO7816FileReference/masterFile`` for the MF) with identifier `fid`, if any.
    func ef(in df: Int, fileID fid: UInt16) -> ISO7816FileReference? {
        for i in 0..<count(df) where efFileID(ISO7816FileReference(df: df, ef: i)) == fid {
            return ISO7816FileReference(df: df, ef: i)
        }
        return nil
    }

    /// The EF of `df` with short identifier `sfi`, if any.
    func ef(in df: Int, shortID sfi: UInt8) -> ISO7816FileReference? {
        for i in 0..<count(df) where efShortID(ISO7816FileReference(df: df, ef: i)) == sfi {
            return ISO7816FileReference(df: df, ef: i)
        }
        return nil
    }

    /// The DF (child of the MF) with identifier `fid`, if any.
    func df(fileID fid: UInt16) -> Int? {
        (0..<dfCount).first { dfFileID($0) == fid }
    }
}
