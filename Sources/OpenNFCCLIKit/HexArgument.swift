import OpenNFCBytes

/// Bytes given on the command line in hex (`opennfc send 3004 A2050102`, `--uid 04A1B2C3D4E5F6`): upper or lower
/// case, spaces or colons between bytes (``Hex``).
package enum HexArgument {
    /// The bytes `text` spells, or a usage error naming the argument as the user knows it (`frame 2`, `--uid`), the
    /// text, what is wrong and at which character (0-based):
    /// `frame 2 '3G' is not hex: invalid hex character 'G' at character 1`.
    package static func decode(_ text: String, argument: String) throws(CLIError) -> [UInt8] {
        do {
            return try Hex.decode(text)
        } catch {
            throw CLIError.usage("\(argument) '\(text)' is not hex: \(error)")
        }
    }
}
