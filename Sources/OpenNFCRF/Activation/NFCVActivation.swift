/// What an ISO/IEC 15693-3 inventory reports (§10.3.1 Inventory response: flags, DSFID, UID).
public struct NFCVActivation: Sendable, Hashable {
    /// The 8-byte UID, MSB first as printed on tags (`E0`, IC manufacturer code, serial number); on the air it
    /// travels LSB first.
    public var uid: [UInt8]
    /// Data storage format identifier.
    public var dsfid: UInt8
    /// The application family identifier the inventory was filtered on, when it was.
    public var afi: UInt8?

    public init(uid: [UInt8], dsfid: UInt8, afi: UInt8? = nil) {
        self.uid = uid
        self.dsfid = dsfid
        self.afi = afi
    }

    /// The IC manufacturer code (ISO/IEC 7816-6 registry), the UID's second byte.
    public var icManufacturerCode: UInt8? { uid.count == 8 ? uid[1] : nil }
}
