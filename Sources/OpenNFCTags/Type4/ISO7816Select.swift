/// SELECT by DF name (ISO/IEC 7816-4 §11.2.2), the one place it is built and read: the Type 4 procedures, the VAS
/// reader and the system's AID rule (`NFCISO7816Tag` delivery and the declared-AID check of `sendCommand`) all use it.
package enum ISO7816Select {
    /// `00 A4 04 00 Lc <name> 00`: select the first or only occurrence of this DF name, FCI asked for (Le `00`).
    package static func byName(_ name: [UInt8]) -> [UInt8] {
        [0x00, 0xA4, 0x04, 0x00, UInt8(name.count)] + name + [0x00]
    }

    /// Whether the answer (data, SW1 SW2) accepts a SELECT: `90 00`, or `61 xx` (more response data waiting,
    /// ISO/IEC 7816-4 §5.6).
    package static func accepted(_ response: [UInt8]) -> Bool {
        guard response.count >= 2 else { return false }
        let sw1 = response[response.count - 2]
        return (sw1 == 0x90 && response[response.count - 1] == 0x00) || sw1 == 0x61
    }

    /// The DF name a command APDU selects, when it is a SELECT by DF name (INS `A4`, P1 `04`, any class): the `Lc`
    /// bytes after the header, or `[]` when `Lc` is absent, zero, extended or longer than the APDU. Nil for any other
    /// command.
    package static func selectedName(in apdu: [UInt8]) -> [UInt8]? {
        guard apdu.count >= 5, apdu[1] == 0xA4, apdu[2] == 0x04 else { return nil }
        let lc = Int(apdu[4])
        return lc > 0 && apdu.count >= 5 + lc ? Array(apdu[5..<(5 + lc)]) : []
    }
}
