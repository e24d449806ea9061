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

    /// The DF name a command APDU selects, when it is a SELECT by DF name (INS `A4`, P1 `04`) in the clear: the `Lc`
    /// bytes after the header, or `[]` when `Lc` is absent, zero, extended or longer than the APDU. Nil for any other
    /// command, and for a SELECT under secure messaging, whose data field is a cryptogram (DO `87`), not a name —
    /// how an eMRTD reader selects the application after PACE (ICAO Doc 9303-11 §4.4, §9.8).
    package static func selectedName(in apdu: [UInt8]) -> [UInt8]? {
        guard apdu.count >= 5, apdu[1] == 0xA4, apdu[2] == 0x04, !securedClass(apdu[0]) else { return nil }
        let lc = Int(apdu[4])
        return lc > 0 && apdu.count >= 5 + lc ? Array(apdu[5..<(5 + lc)]) : []
    }

    /// Whether a class byte announces secure messaging (ISO/IEC 7816-4 §5.4.1): bits b4–b3 of a first interindustry
    /// class (`0x00`–`0x1F`), bit b6 of a further interindustry class (`0x40`–`0x7F`); proprietary classes say nothing.
    package static func securedClass(_ cla: UInt8) -> Bool {
        switch cla & 0xE0 {
        case 0x00: cla & 0x0C != 0
        case 0x40, 0x60: cla & 0x20 != 0
        default: false
        }
    }
}
