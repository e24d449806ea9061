/// What NFC-F polling reports (JIS X 6319-4 §8.5.2 SENSF_RES; NFC Forum Digital §6.6.2): the answer to a
/// Polling command, after its response code `01`.
public struct NFCFActivation: Sendable, Hashable {
    /// IDm, the 8-byte manufacture ID (bytes 0–1 manufacturer code, 2–7 card identification number).
    public var idm: [UInt8]
    /// PMm, the 8-byte manufacture parameter (IC code and maximum response time parameters).
    public var pmm: [UInt8]
    /// The system code the card answered for, when the poll asked for it (request code `01`) or it is known.
    public var systemCode: UInt16?
    /// The 2-byte request data of the answer (system code for request code `01`, communication performance
    /// for `02`), when present.
    public var requestData: [UInt8]?
    /// The bit rate the card answered at, in kbit/s (212 or 424).
    public var bitRate: Int

    public init(idm: [UInt8], pmm: [UInt8], systemCode: UInt16? = nil, requestData: [UInt8]? = nil, bitRate: Int = 212)
    {
        self.idm = idm
        self.pmm = pmm
        self.systemCode = systemCode
        self.requestData = requestData
        self.bitRate = bitRate
    }
}
