/// One ISO/IEC 15693-3 request — a command code and its parameters — and the one place its frame is built:
/// `flags command [IC manufacturer code] [UID LSB first] parameters` (§7.3, §10.4 command formats; the frontend adds
/// the CRC). The reader procedures (``Type5Link``), the system's Apple-facing operations and the CLI all frame their
/// requests here.
package struct ISO15693Request: Sendable, Hashable {
    /// The command code (§10.4: mandatory and optional `01`–`3D`; custom `A0`–`DF`, §10.5).
    package var command: UInt8
    /// What follows the command code and the address.
    package var parameters: [UInt8]

    package init(_ command: UInt8, _ parameters: [UInt8] = []) {
        self.command = command
        self.parameters = parameters
    }

    /// Custom commands (`A0`–`DF`, ISO/IEC 15693-3 §10.5) carry the IC manufacturer code after the command code.
    package var isCustom: Bool { (0xA0...0xDF).contains(command) }

    /// Request flags (§7.3.1 Table 3, Inventory flag clear): high data rate, Select, Address, Option.
    package enum Flag {
        package static let highDataRate: UInt8 = 0x02
        package static let inventory: UInt8 = 0x04
        package static let select: UInt8 = 0x10
        package static let address: UInt8 = 0x20
        package static let option: UInt8 = 0x40
    }

    /// The frame with `flags`: the Inventory flag cleared (these are not inventory requests), and addressed — the
    /// Address flag set and the UID after the command (and manufacturer code) — unless the Select flag asks the
    /// selected tag, which clears the Address flag and sends no UID (§7.3.1: the two are exclusive). `uid` MSB first
    /// (`E0 …`), as targets report it; its byte 2 is the manufacturer code a custom command carries.
    package func frame(flags: UInt8, uid: [UInt8]) -> [UInt8] {
        var f = flags & ~Flag.inventory
        let addressed = f & Flag.select == 0
        f = addressed ? f | Flag.address : f & ~Flag.address
        let manufacturer: [UInt8] = isCustom ? [uid.count == 8 ? uid[1] : 0] : []
        return [f, command] + manufacturer + (addressed ? uid.reversed() : []) + parameters
    }

    // MARK: block numbers and ranges

    /// A block number: one byte, or two (LSB first) in the extended commands (§10.4.15 onwards).
    package static func block(_ n: Int, extended: Bool) -> [UInt8] {
        extended ? [UInt8(n & 0xFF), UInt8(n >> 8 & 0xFF)] : [UInt8(n & 0xFF)]
    }

    /// First block and number of blocks − 1 (§10.4.5), one byte each or two each (extended).
    package static func range(first: Int, count: Int, extended: Bool) -> [UInt8] {
        block(first, extended: extended) + block(count - 1, extended: extended)
    }

    // MARK: the commands (§10.4)

    package static let stayQuiet = Self(0x02)
    package static func readSingleBlock(_ n: Int, extended: Bool = false) -> Self {
        Self(extended ? 0x30 : 0x20, block(n, extended: extended))
    }
    package static func writeSingleBlock(_ n: Int, _ data: [UInt8], extended: Bool = false) -> Self {
        Self(extended ? 0x31 : 0x21, block(n, extended: extended) + data)
    }
    package static func lockBlock(_ n: Int, extended: Bool = false) -> Self {
        Self(extended ? 0x32 : 0x22, block(n, extended: extended))
    }
    package static func readMultipleBlocks(first: Int, count: Int, extended: Bool = false) -> Self {
        Self(extended ? 0x33 : 0x23, range(first: first, count: count, extended: extended))
    }
    package static func writeMultipleBlocks(first: Int, count: Int, _ data: [UInt8], extended: Bool = false) -> Self {
        Self(extended ? 0x34 : 0x24, range(first: first, count: count, extended: extended) + data)
    }
    package static let select = Self(0x25)
    package static let resetToReady = Self(0x26)
    package static func writeAFI(_ afi: UInt8) -> Self { Self(0x27, [afi]) }
    package static let lockAFI = Self(0x28)
    package static func writeDSFID(_ dsfid: UInt8) -> Self { Self(0x29, [dsfid]) }
    package static let lockDSFID = Self(0x2A)
    package static let getSystemInformation = Self(0x2B)
    package static func getMultipleBlockSecurityStatus(first: Int, count: Int, extended: Bool = false) -> Self {
        Self(extended ? 0x3C : 0x2C, range(first: first, count: count, extended: extended))
    }
    package static func fastReadMultipleBlocks(first: Int, count: Int, extended: Bool = false) -> Self {
        Self(extended ? 0x3D : 0x2D, range(first: first, count: count, extended: extended))
    }
    /// Extended Get System Information (§10.4.19) with its information request parameter (`04`: memory size).
    package static func extendedGetSystemInformation(_ request: UInt8) -> Self { Self(0x3B, [request]) }
    /// Authenticate (§10.4.23, ISO/IEC 15693-3:2019): crypto suite identifier, then the message.
    package static func authenticate(cryptoSuite: UInt8, _ message: [UInt8]) -> Self {
        Self(0x35, [cryptoSuite] + message)
    }
    /// Key Update (§10.4.24): key identifier, then the message.
    package static func keyUpdate(keyIdentifier: UInt8, _ message: [UInt8]) -> Self {
        Self(0x36, [keyIdentifier] + message)
    }
    /// Challenge (§10.4.26): crypto suite identifier, then the message; tags answer nothing.
    package static func challenge(cryptoSuite: UInt8, _ message: [UInt8]) -> Self {
        Self(0x39, [cryptoSuite] + message)
    }
    /// Read Buffer (§10.4.27).
    package static let readBuffer = Self(0x3A)
    /// A custom command (`A0`–`DF`) with its parameters; the manufacturer code is added by ``frame(flags:uid:)``.
    package static func custom(_ code: UInt8, _ parameters: [UInt8]) -> Self { Self(code, parameters) }
}
