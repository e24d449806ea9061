/// What NFC-B activation reports (ISO/IEC 14443-3 §7.9 ATQB, §7.10/§7.11 ATTRIB and its answer).
public struct NFCBActivation: Sendable, Hashable {
    /// PUPI, the 4-byte pseudo-unique identifier of ATQB bytes 2–5.
    public var pupi: [UInt8]
    /// Application data, ATQB bytes 6–9 (AFI, CRC_B(AID), number of applications: ISO/IEC 14443-3 §7.9.3).
    public var applicationData: [UInt8]
    /// Protocol info, ATQB bytes 10–12 (bit rates, max frame size, protocol type, FWI, ADC, FO: §7.9.4).
    public var protocolInfo: [UInt8]
    /// The answer to ATTRIB (MBLI/CID byte and any higher-layer response), once activated as ISO-DEP.
    public var attribResponse: [UInt8]?

    public init(pupi: [UInt8], applicationData: [UInt8], protocolInfo: [UInt8], attribResponse: [UInt8]? = nil) {
        self.pupi = pupi
        self.applicationData = applicationData
        self.protocolInfo = protocolInfo
        self.attribResponse = attribResponse
    }

    /// The whole ATQB as sent on the air after its `50` header byte: PUPI, application data, protocol info.
    public var atqb: [UInt8] { [0x50] + pupi + applicationData + protocolInfo }

    /// Whether the card says it speaks ISO/IEC 14443-4 (protocol type bit 1 of the second protocol-info byte).
    public var isISODEPCompliant: Bool { protocolInfo.count >= 2 && protocolInfo[1] & 0x01 != 0 }

    /// Parses an ATQB (`50` + 11 bytes, or 12 with the extended protocol info of §7.9.4.1).
    public init?(atqb: [UInt8]) {
        guard atqb.count == 12 || atqb.count == 13, atqb[0] == 0x50 else { return nil }
        self.init(pupi: Array(atqb[1..<5]), applicationData: Array(atqb[5..<9]), protocolInfo: Array(atqb[9...]))
    }
}
