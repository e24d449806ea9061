internal import OpenNFCBytes

extension MIFAREPlusMemory {
    /// SL0 personalisation (MIFARE Plus EV1 datasheet, WritePerso and CommitPerso): each 16-byte value — an AES
    /// key (`4000`… sector keys, `9000` card master key, `9001` card configuration key, `9003` level 3 switch key,
    /// `9004` SL1 card authentication key), a configuration block or a data block — written by WritePerso, then
    /// CommitPerso to `level` (1 or 3), which the card takes at its next activation. Returns the frames sent.
    ///
    /// | Step | Frames |
    /// |---|---|
    /// | WritePerso `A8` per value | 1 each |
    /// | CommitPerso `AA SL` | 1 |
    package func personalise(_ values: [(address: UInt16, value: [UInt8])], commitTo level: UInt8) throws(TagError)
        -> Int
    {
        guard level == 1 || level == 3 else {
            throw TagError(.unsupported, "CommitPerso switches to security level 1 or 3, not \(level)")
        }
        for (address, value) in values {
            let name = "WritePerso \(Hex.encode([UInt8(address >> 8), UInt8(address & 0xFF)]))"
            guard value.count == 16 else {
                throw TagError(.unsupported, "\(name): a MIFARE Plus block or key has 16 bytes, not \(value.count)")
            }
            _ = try link.expectOK(MIFAREPlusLink.writePerso(address, value), name: name)
        }
        _ = try link.expectOK(MIFAREPlusLink.commitPerso(level: level), name: "CommitPerso \(level)")
        return values.count + 1
    }
}
