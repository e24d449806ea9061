/// A MIFARE DESFire standard data file (the only file type emulated), plain communication.
package struct DESFireFile: Sendable, Hashable {
    /// File number within its application, 0–31.
    package var number: UInt8
    /// ISO/IEC 7816-4 file identifier, when the file was created with one (selectable through the ISO commands).
    package var isoFileID: UInt16?
    /// Communication settings byte: `00` plain, `01` MACed, `03` enciphered. Stored and reported; since only
    /// free-access files can be used without authentication, and those always travel plain, the emulation never
    /// MACs or enciphers.
    package var communicationSettings: UInt8
    /// Access rights as a 16-bit value: bits 15–12 Read, 11–8 Write, 7–4 Read&Write, 3–0 Change. Each nibble is a
    /// key number `0`–`D`, `E` free access, `F` never. On the wire it travels little-endian (`EE EE` = all free).
    package var accessRights: UInt16
    /// The file contents; the size is fixed at creation.
    package var contents: [UInt8]

    package init(
        number: UInt8, isoFileID: UInt16? = nil, communicationSettings: UInt8 = 0x00, accessRights: UInt16 = 0xEEEE,
        contents: [UInt8]
    ) {
        self.number = number
        self.isoFileID = isoFileID
        self.communicationSettings = communicationSettings
        self.accessRights = accessRights
        self.contents = contents
    }

    /// What the access rights say about an operation without authentication (the emulation never authenticates).
    enum Access: Sendable, Hashable {
        case free
        /// Needs authentication with a key: `AE` natively.
        case needsKey
        /// Never allowed: `9D` natively.
        case never
    }

    func access(_ operation: ISO7816FileOperation) -> Access {
        let rw = UInt8(accessRights >> 4 & 0xF)
        let own = UInt8(operation == .read ? accessRights >> 12 & 0xF : accessRights >> 8 & 0xF)
        if own == 0xE || rw == 0xE { return .free }
        if own == 0xF && rw == 0xF { return .never }
        return .needsKey
    }
}
