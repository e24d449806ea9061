internal import OpenNFCBytes

/// Everything a reader can read of a Type 4 tag's NDEF application: the CC file and the whole NDEF file
/// (NFC Forum T4T 2.0 §5.1), as `opennfc dump` saves it.
package struct Type4NDEFImage: Sendable, Hashable {
    /// Whether the application answered the mapping 2.0 DF name `D2760000850101` (else the 1.0 name `…0100`).
    package var answeredV2Name: Bool
    /// CC mapping version byte (`20` for 2.0).
    package var mappingVersion: UInt8
    /// CC MLe: the largest R-APDU data the tag sends.
    package var maxResponseData: Int
    /// CC MLc: the largest C-APDU data the tag accepts.
    package var maxCommandData: Int
    /// NDEF file identifier from the NDEF File Control TLV.
    package var fileID: UInt16
    /// NDEF file read access byte from the CC (`00` granted).
    package var readAccess: UInt8
    /// NDEF file write access byte from the CC (`00` granted, `FF` read-only).
    package var writeAccess: UInt8
    /// The whole NDEF file as read, NLEN included; its length is the CC's maximum NDEF file size.
    package var ndefFile: [UInt8]
    /// Bytes of the length field at the start of ``ndefFile``: 2 (NLEN), or 4 (ENLEN) when the CC holds the ENDEF
    /// File Control TLV (NFC Forum T4T 1.0 (2017) §4.7.3, mapping 3.0).
    package var lengthFieldSize = 2

    /// NLEN (ENLEN) as stored at the start of ``ndefFile``: the length of the NDEF message.
    package var messageLength: Int {
        guard ndefFile.count >= lengthFieldSize else { return 0 }
        return ndefFile[0..<lengthFieldSize].reduce(0) { $0 << 8 | Int($1) }
    }
}

extension Type4NDEF {
    /// Reads the CC and the whole NDEF file, NLEN and the bytes after the message included, in READ BINARY
    /// chunks of the reader's chunk size (T4T 2.0 §5.4.2 detection, then §5.4.3 READ BINARY from offset 0).
    ///
    /// - Throws: ``TagError`` with `notFormatted` when the tag has no NDEF application, `unsupported` when the
    ///   file reaches past offset `7FFF` (beyond short READ BINARY offsets).
    package func readImage() throws(TagError) -> Type4NDEFImage {
        let layout = try requireLayout()
        let cc = layout.cc
        guard cc.maxFileSize <= 0x8000 || cc.isExtended else {
            throw TagError(
                .unsupported, "the NDEF file of \(cc.maxFileSize) bytes reaches past offset 7FFF (short READ BINARY)")
        }
        guard cc.maxFileSize <= 0x100_0000 else {
            throw TagError(.unsupported, "the ENDEF file of \(cc.maxFileSize) bytes reaches past offset FFFFFF")
        }
        try selectNDEFFile(layout)
        let file = try readFile(offset: 0, count: cc.maxFileSize, cc: cc)
        return Type4NDEFImage(
            answeredV2Name: layout.v2, mappingVersion: cc.mappingVersion, maxResponseData: cc.maxResponseData,
            maxCommandData: cc.maxCommandData, fileID: cc.fileID, readAccess: cc.readAccess,
            writeAccess: cc.writeAccess, ndefFile: file, lengthFieldSize: cc.lengthFieldSize)
    }

    /// The maximum NDEF file size the tag's CC declares (NLEN included), after NDEF detection.
    package func ndefFileSize() throws(TagError) -> Int {
        try requireLayout().cc.maxFileSize
    }
}
