package import OpenNFCBytes

/// One chip's support in tag files and the CLI: how to build it factory-fresh, how to read and write its JSON
/// section, and where its NDEF message is. Entries are listed in ``TagFile/chips`` (`TagFile+Chips.swift`).
package struct TagFileChip: Sendable {
    /// Chip name in files and `--chip` (`ntag215`, `type4`).
    package var name: String
    /// Key of the chip family's section in the JSON file (`type2`, `iso7816`, `desfire`).
    package var section: String
    /// One line for help output.
    package var summary: String
    /// First UID bytes a random UID must start with (`[0x04]` for NXP chips) and the UID length.
    package var uidPrefix: [UInt8]
    /// UID length in bytes: what the chip's activation reports, and the tag file's root `uid`.
    package var uidLength: Int
    /// The UID lengths a new chip takes (`tag new --uid`, the field page's new tag, ``factory``), the longest first:
    /// ``uidLength`` alone for most chips; a Type 1 chip takes its whole UID0–UID6 (7 bytes, Topaz datasheets §7,
    /// block 0) or UID0–UID3 (4, what RID reports; UID4–UID6 then 00).
    package var newUIDLengths: [Int]
    /// A factory-fresh tag with this UID, NDEF formatted as its maker ships it, holding `ndef` (a raw NDEF message)
    /// when given.
    package var factory: @Sendable (_ uid: [UInt8], _ ndef: [UInt8]?) throws(TagFileError) -> any VirtualTag
    /// Builds the tag from the file: `root` is the whole object (`uid` is there), `section` the family section.
    package var decode:
        @Sendable (_ root: TagFileFields, _ section: TagFileFields, _ uid: [UInt8]) throws(TagFileError) ->
            any VirtualTag
    /// The family section of a tag of this chip, or nil when `tag` is not one.
    package var encode: @Sendable (_ tag: any VirtualTag) -> JSONValue?
    /// The NDEF message the tag holds (nil when it is not NDEF formatted or holds none), for `.ndef` export.
    package var ndefMessage: @Sendable (_ tag: any VirtualTag) -> [UInt8]?
    /// The decoded memory map, configuration and NDEF access for `tag show`; nil shows chip and UID only.
    package var report: (@Sendable (_ tag: any VirtualTag) -> TagReport?)?

    package init(
        name: String, section: String, summary: String, uidPrefix: [UInt8] = [0x04], uidLength: Int = 7,
        newUIDLengths: [Int]? = nil,
        factory: @escaping @Sendable (_ uid: [UInt8], _ ndef: [UInt8]?) throws(TagFileError) -> any VirtualTag,
        decode:
            @escaping @Sendable (_ root: TagFileFields, _ section: TagFileFields, _ uid: [UInt8]) throws(TagFileError)
            ->
            any VirtualTag,
        encode: @escaping @Sendable (_ tag: any VirtualTag) -> JSONValue?,
        ndefMessage: @escaping @Sendable (_ tag: any VirtualTag) -> [UInt8]?,
        report: (@Sendable (_ tag: any VirtualTag) -> TagReport?)? = nil
    ) {
        self.name = name
        self.section = section
        self.summary = summary
        self.uidPrefix = uidPrefix
        self.uidLength = uidLength
        self.newUIDLengths = newUIDLengths ?? [uidLength]
        self.factory = factory
        self.decode = decode
        self.encode = encode
        self.ndefMessage = ndefMessage
        self.report = report
    }

    /// Why `uid` cannot be a new chip's UID (its length), nil when it can: the one wording `tag new`, the field and
    /// ``TagFile/factory(chip:uid:holding:)`` use.
    package func newUIDProblem(_ uid: [UInt8]) -> String? {
        guard !newUIDLengths.contains(uid.count) else { return nil }
        let lengths = newUIDLengths.map(String.init).joined(separator: " or ")
        return "\(name) has a \(lengths)-byte UID, not \(uid.count) bytes"
    }

    /// A random UID for a new chip: ``uidPrefix``, then random bytes up to the longest of ``newUIDLengths``.
    package func randomUID() -> [UInt8] {
        var rng = SystemRandomNumberGenerator()
        let length = newUIDLengths.max() ?? uidLength
        return uidPrefix + (uidPrefix.count..<length).map { _ in UInt8.random(in: 1...0xFE, using: &rng) }
    }
}
