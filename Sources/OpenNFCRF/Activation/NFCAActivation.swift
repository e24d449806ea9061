/// What NFC-A activation reports (ISO/IEC 14443-3 §6.4 anticollision and SELECT; ISO/IEC 14443-4 §5.2 RATS/ATS;
/// NFC Forum Digital §6.6 for SENS_RES, §8.6 for the Type 1 RID answer).
public struct NFCAActivation: Sendable, Hashable {
    /// The Type 1 header ROM bytes read by RID (NFC Forum T1T §6.3): HR0 `0x11` for Topaz 96, `0x12` for Topaz 512.
    public struct Type1Header: Sendable, Hashable {
        public var hr0: UInt8
        public var hr1: UInt8

        public init(hr0: UInt8, hr1: UInt8) {
            self.hr0 = hr0
            self.hr1 = hr1
        }
    }

    /// UID as printed (4, 7 or 10 bytes; a Type 1 tag's 4-byte UID echo, UID0…UID3, for Type 1).
    public var uid: [UInt8]
    /// SENS_RES (ATQA) as a value, e.g. `0x0044` for NTAG21x (on-air bytes `44 00`), `0x0C00` for Type 1 (on-air `00 0C`); nil when
    /// the frontend does not report it (a PC/SC reader shows only the ATR of an ISO-DEP card).
    public var sensRes: UInt16?
    /// SEL_RES (SAK) of the final cascade level, e.g. `0x00` for Type 2, `0x20` for ISO-DEP; nil for Type 1, which
    /// has no anticollision and no SELECT.
    public var selRes: UInt8?
    /// The ATS (starting with its TL byte) once the target was activated as ISO-DEP type A.
    public var ats: [UInt8]?
    /// HR0/HR1 of a Type 1 tag, from RID.
    public var type1: Type1Header?

    public init(uid: [UInt8], sensRes: UInt16?, selRes: UInt8?, ats: [UInt8]? = nil, type1: Type1Header? = nil) {
        self.uid = uid
        self.sensRes = sensRes
        self.selRes = selRes
        self.ats = ats
        self.type1 = type1
    }
}
