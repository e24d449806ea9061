internal import OpenNFCBytes
package import OpenNFCRF

/// Password protection of NTAG21x and MIFARE Ultralight EV1 chips from the reader's side: authenticate, set,
/// remove, and read the configuration (NTAG213/215/216 datasheet §8.8 and §10.7 PWD_AUTH; MF0ULx1 §8.6, §9.12).
///
/// | Operation | Commands | Order and why |
/// |---|---|---|
/// | ``configuration()`` | READ CFG0 (16 bytes: CFG0, CFG1, PWD, PACK) | PWD and PACK read as zeros by design |
/// | ``authenticate(password:)`` | PWD_AUTH `1B p0..p3` → PACK0 PACK1 | a wrong password is a NAK and the chip goes mute until re-activated |
/// | ``set(password:pack:auth0:protectReads:authenticationLimit:currentPassword:)`` | [PWD_AUTH], WRITE PWD, WRITE PACK, WRITE CFG1, WRITE CFG0 | the secret first, AUTH0 last: a tag pulled away part way is either unprotected or protected with the new password, never protected with a half-written one |
/// | ``remove(password:)`` | PWD_AUTH, WRITE CFG0 (AUTH0 = FF), WRITE CFG1, WRITE PWD = FFFFFFFF, WRITE PACK = 0000 | protection off first, then the factory secret |
///
/// Not supported: MIFARE Ultralight C (3DES keys, not a password) and chips whose configuration pages are unknown.
/// The configuration pages are written whole; their RFUI bytes are written back as read.
package final class NTAGPassword {
    let link: Type2Link
    /// Pages of the chip; the configuration is its last four.
    package let totalPages: Int

    /// `chip` must be an NTAG21x or Ultralight EV1 (``Type2Chip/Family``); throws ``TagError/Code/unsupported``
    /// otherwise.
    package init(target: RFTarget?, chip: Type2Chip, frontend: any RFFrontend) throws(TagError) {
        guard chip.family == .ntag21x || chip.family == .ultralightEV1, let pages = chip.totalPages else {
            throw TagError(
                .unsupported,
                "\(chip.name) has no NTAG/Ultralight EV1 password (PWD_AUTH); only NTAG21x and "
                    + "Ultralight EV1 do")
        }
        self.link = Type2Link(frontend: frontend, target: target)
        self.totalPages = pages
    }

    package var cfg0Page: Int { totalPages - 4 }
    package var cfg1Page: Int { totalPages - 3 }
    package var pwdPage: Int { totalPages - 2 }
    package var packPage: Int { totalPages - 1 }

    /// Reads CFG0 and CFG1. With PROT set and AUTH0 at or below CFG0 this needs a prior ``authenticate(password:)``.
    package func configuration() throws(TagError) -> NTAGConfiguration {
        // READ rolls over past the last page, so one READ at CFG0 returns CFG0, CFG1, PWD, PACK.
        let b = try link.read(page: cfg0Page)
        return NTAGConfiguration(cfg0: Array(b[0..<4]), cfg1: Array(b[4..<8]))
    }

    /// PWD_AUTH: returns the 2-byte PACK the chip answers. A wrong password throws ``TagError/Code/commandRejected``
    /// (NAK); the chip then stays mute until it is activated again.
    @discardableResult
    package func authenticate(password: [UInt8]) throws(TagError) -> [UInt8] {
        precondition(password.count == 4)
        let answer: RFResponse
        do {
            answer = try link.frontend.exchange([0x1B] + password)
        } catch {
            if error.code == .timeout {
                throw TagError(
                    .commandRejected, "PWD_AUTH got no answer: the chip does not have PWD_AUTH", rfError: error)
            }
            throw .rf(error, during: "PWD_AUTH")
        }
        switch answer {
        case .frame(let b) where b.count == 2: return b
        case .nak(let n):
            throw TagError(.commandRejected, "PWD_AUTH refused: wrong password, or the try limit is reached", nak: n)
        case .frame(let b) where b.count == 1 && b[0] & 0xFA == 0:
            throw TagError(
                .commandRejected, "PWD_AUTH refused: wrong password, or the try limit is reached", nak: b[0])
        case .frame(let b):
            throw TagError(.invalidResponse, "PWD_AUTH answered \(b.hexString), expected a 2-byte PACK")
        case .ack:
            throw TagError(.invalidResponse, "PWD_AUTH answered ACK, expected a 2-byte PACK")
        }
    }

    /// Protects the chip with `password`: pages from `auth0` on need it for writing (and for reading with
    /// `protectReads`); `authenticationLimit` (0…7) caps failed attempts. `currentPassword` authenticates first when
    /// the chip is already protected. Returns the configuration written.
    @discardableResult
    package func set(
        password: [UInt8], pack: [UInt8], auth0: Int, protectReads: Bool, authenticationLimit: Int,
        currentPassword: [UInt8]? = nil
    ) throws(TagError) -> NTAGConfiguration {
        precondition(password.count == 4 && pack.count == 2)
        if let currentPassword { try authenticate(password: currentPassword) }
        var config = try readableConfiguration()
        if config.configurationLocked {
            throw TagError(.readOnly, "the configuration pages are locked for good (CFGLCK): protection cannot change")
        }
        config.auth0 = auth0
        config.protectsReads = protectReads
        config.authenticationLimit = authenticationLimit
        try link.write(page: pwdPage, password)
        try link.write(page: packPage, pack + [0x00, 0x00])
        try link.write(page: cfg1Page, config.cfg1)
        try link.write(page: cfg0Page, config.cfg0)
        return config
    }

    /// Authenticates with `password`, turns protection off (AUTH0 = FF, PROT and AUTHLIM cleared) and restores the
    /// factory password FFFFFFFF and PACK 0000.
    @discardableResult
    package func remove(password: [UInt8]) throws(TagError) -> NTAGConfiguration {
        try authenticate(password: password)
        var config = try configuration()
        if config.configurationLocked {
            throw TagError(.readOnly, "the configuration pages are locked for good (CFGLCK): protection cannot change")
        }
        config.auth0 = 0xFF
        config.protectsReads = false
        config.authenticationLimit = 0
        try link.write(page: cfg0Page, config.cfg0)
        try link.write(page: cfg1Page, config.cfg1)
        try link.write(page: pwdPage, [0xFF, 0xFF, 0xFF, 0xFF])
        try link.write(page: packPage, [0x00, 0x00, 0x00, 0x00])
        return config
    }

    /// The configuration, explaining a refused read (PROT set, CFG pages protected) instead of reporting a NAK.
    private func readableConfiguration() throws(TagError) -> NTAGConfiguration {
        do {
            return try configuration()
        } catch let e where e.code == .commandRejected {
            throw TagError(
                .commandRejected,
                "the configuration pages cannot be read: the chip protects reads with a password (give the current "
                    + "one)", nak: e.nak)
        }
    }
}
