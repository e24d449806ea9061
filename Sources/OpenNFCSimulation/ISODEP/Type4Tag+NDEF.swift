/// The NDEF side of ``Type4Tag``: the Capability Container (T4T 1.0 §5.1.2) and the NDEF file (§5.1.3: NLEN, 2
/// bytes big-endian, then the message; mapping 3.0: ENLEN, 4 bytes big-endian).
extension Type4Tag {
    /// A factory-fresh Type 4 card holding `message` (raw NDEF message bytes; empty: an empty NDEF file, NLEN 0):
    /// NLEN is written, the rest of the file is zero.
    ///
    /// - Throws: ``ISODEPCardError`` with code `messageTooLong` when the message and NLEN exceed the NDEF file.
    public static func factory(
        uid: [UInt8], holding message: [UInt8], configuration: Type4Configuration = Type4Configuration(),
        applets: [any ISO7816Applet] = []
    ) throws(ISODEPCardError) -> Type4Tag {
        try configuration.validate()
        let file = try ndefFile(
            holding: message, size: configuration.ndefFileSize, lengthField: configuration.lengthFieldSize)
        return try Type4Tag(uid: uid, configuration: configuration, ndefFile: file, applets: applets)
    }

    /// NLEN (or the 4-byte ENLEN) + `message` + zero padding to `size` bytes.
    static func ndefFile(holding message: [UInt8], size: Int, lengthField: Int = 2) throws(ISODEPCardError)
        -> [UInt8]
    {
        let name = lengthField == 4 ? "ENLEN" : "NLEN"
        guard message.count + lengthField <= size else {
            throw ISODEPCardError(
                .messageTooLong,
                "NDEF message of \(message.count) bytes does not fit an NDEF file of \(size) bytes "
                    + "(\(size - lengthField) after \(name))")
        }
        var file = (0..<lengthField).reversed().map { UInt8(truncatingIfNeeded: message.count >> ($0 * 8)) } + message
        file += Array(repeating: 0, count: size - file.count)
        return file
    }

    /// The CC file of T4T 1.0 §5.1.2.1 for a configuration: CCLEN, mapping version, MLe, MLc, and the NDEF File
    /// Control TLV (`04 06` file id, 2-byte maximum NDEF file size, read access, write access: 15 bytes) or, under
    /// mapping 3.0, the ENDEF File Control TLV (`06 08` file id, 4-byte maximum size, read and write access: 17).
    public static func capabilityContainer(_ c: Type4Configuration) -> [UInt8] {
        func be(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        if c.usesExtendedNDEFFile {
            return [0x00, 0x11, c.mappingVersion] + be(c.mle) + be(c.mlc) + [0x06, 0x08] + be(Int(c.ndefFileID))
                + be(c.ndefFileSize >> 16) + be(c.ndefFileSize) + [c.readAccess, c.writeAccess]
        }
        return [0x00, 0x0F, c.mappingVersion] + be(c.mle) + be(c.mlc) + [0x04, 0x06] + be(Int(c.ndefFileID))
            + be(c.ndefFileSize) + [c.readAccess, c.writeAccess]
    }

    /// Position of the NDEF application (nil on an applet-only card).
    private var ndefApplication: Int? { configuration.hostsNDEFApplication ? 0 : nil }

    /// The CC file as stored now (empty on an applet-only card).
    public var capabilityContainerFile: [UInt8] {
        guard let df = ndefApplication else { return [] }
        return volume.file(ISO7816FileReference(df: df, ef: 0)).contents
    }

    /// The whole NDEF file as stored now, NLEN included (empty on an applet-only card).
    public var ndefFile: [UInt8] {
        guard let df = ndefApplication else { return [] }
        return volume.file(ISO7816FileReference(df: df, ef: 1)).contents
    }

    /// The NDEF message the file holds now: NLEN (ENLEN) bytes after the length field (clamped to the file),
    /// empty when the length is 0.
    public var ndefMessage: [UInt8] {
        let file = ndefFile
        let n = configuration.lengthFieldSize
        guard file.count >= n else { return [] }
        let length = file[0..<n].reduce(0) { $0 << 8 | Int($1) }
        return Array(file[n..<min(file.count, n + length)])
    }

    /// The length field (NLEN, or ENLEN under mapping 3.0) as stored now.
    public var ndefLength: Int {
        let file = ndefFile
        let n = configuration.lengthFieldSize
        guard file.count >= n else { return 0 }
        return file[0..<n].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Current access bytes of the NDEF file (they change when a writable CC is rewritten).
    public var ndefAccess: (read: UInt8, write: UInt8) {
        guard let df = ndefApplication else { return (0xFF, 0xFF) }
        let f = volume.file(ISO7816FileReference(df: df, ef: 1))
        return (f.readAccess, f.writeAccess)
    }

    /// After an UPDATE BINARY of the CC file: when its NDEF File Control TLV still names the NDEF file, the card
    /// enforces the read and write access bytes found there (CC offsets `0D` and `0E`).
    func capabilityContainerWritten(_ ref: ISO7816FileReference) {
        guard let df = ndefApplication, volume.resolved(ref.df) == df, ref.ef == 0 else { return }
        let cc = volume.file(ref).contents
        // The access bytes follow the size: 2 bytes in the NDEF File Control TLV, 4 in the ENDEF one (mapping 3.0).
        let access: Int
        if cc.count >= 15, cc[7] == 0x04, cc[8] == 0x06 {
            access = 13
        } else if cc.count >= 17, cc[7] == 0x06, cc[8] == 0x08 {
            access = 15
        } else {
            return
        }
        guard UInt16(cc[9]) << 8 | UInt16(cc[10]) == configuration.ndefFileID else { return }
        volume.modify(ISO7816FileReference(df: df, ef: 1)) {
            $0.readAccess = cc[access]
            $0.writeAccess = cc[access + 1]
        }
    }
}

extension Type4Tag {
    /// Puts back a stored CC file (tag files), keeping the NDEF file's access bytes as configured.
    func restoreCapabilityContainer(_ data: [UInt8]) {
        guard let df = ndefApplicationIndex else { return }
        volume.modify(ISO7816FileReference(df: df, ef: 0)) { $0.contents = data }
    }

    var ndefApplicationIndex: Int? { configuration.hostsNDEFApplication ? 0 : nil }

    /// Adds an applet after the card was built (for instance after loading a tag file, which stores no code).
    ///
    /// - Throws: ``ISODEPCardError`` when the AID is not 1…16 bytes.
    public func install(_ applet: any ISO7816Applet) throws(ISODEPCardError) {
        guard (1...16).contains(applet.aid.count) else {
            throw ISODEPCardError(.invalidConfiguration, "applet AID of \(applet.aid.count) bytes: must be 1…16")
        }
        volume.entries.append(.applet(applet))
    }
}
