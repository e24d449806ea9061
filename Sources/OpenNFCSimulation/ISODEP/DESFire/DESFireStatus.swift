/// MIFARE DESFire status codes (the first byte of a native response, SW2 after `91` when ISO-wrapped), with the
/// values of NXP MF3ICD81 datasheet §9 (status codes).
package struct DESFireStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    package var rawValue: UInt8
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    /// `00` successful operation.
    package static let ok = DESFireStatus(rawValue: 0x00)
    /// `0E` insufficient non-volatile memory.
    package static let outOfEEPROM = DESFireStatus(rawValue: 0x0E)
    /// `1E` CRC or MAC does not match the data (secure messaging).
    package static let integrityError = DESFireStatus(rawValue: 0x1E)
    /// `40` invalid key number.
    package static let noSuchKey = DESFireStatus(rawValue: 0x40)
    /// `1C` command code not supported (also: not emulated here).
    package static let illegalCommand = DESFireStatus(rawValue: 0x1C)
    /// `7E` length of the command string invalid.
    package static let lengthError = DESFireStatus(rawValue: 0x7E)
    /// `CE` number of applications limited to 28: no more CreateApplication.
    package static let countError = DESFireStatus(rawValue: 0xCE)
    /// `DE` an application or file with the same number already exists.
    package static let duplicateError = DESFireStatus(rawValue: 0xDE)
    /// `9D` current configuration or status does not allow the command (no application selected, never-access).
    package static let permissionDenied = DESFireStatus(rawValue: 0x9D)
    /// `9E` value of a parameter invalid.
    package static let parameterError = DESFireStatus(rawValue: 0x9E)
    /// `A0` requested AID not present on the PICC.
    package static let applicationNotFound = DESFireStatus(rawValue: 0xA0)
    /// `AE` current authentication status does not allow the command.
    package static let authenticationError = DESFireStatus(rawValue: 0xAE)
    /// `AF` additional data frame expected (to be sent or requested).
    package static let additionalFrame = DESFireStatus(rawValue: 0xAF)
    /// `BE` attempt to read or write beyond the file's limits.
    package static let boundaryError = DESFireStatus(rawValue: 0xBE)
    /// `F0` specified file number does not exist.
    package static let fileNotFound = DESFireStatus(rawValue: 0xF0)

    package var description: String {
        let hex = String(rawValue, radix: 16, uppercase: true)
        return rawValue < 0x10 ? "0" + hex : hex
    }
}
