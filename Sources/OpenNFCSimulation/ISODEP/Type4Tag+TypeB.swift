internal import OpenNFCBytes
internal import OpenNFCRF

/// A Type 4 card on NFC-B (ISO/IEC 14443-3 Type B, then ISO/IEC 14443-4): the same NDEF application and applet
/// engine, answering REQB/WUPB with an ATQB and ATTRIB with its MBLI/CID byte. Passports and many identity cards
/// are Type B.
///
/// | ATQB field (ISO/IEC 14443-3 §7.9) | Default | Meaning |
/// |---|---|---|
/// | PUPI (bytes 2–5) | the card's 4-byte identifier | what Core NFC reports as `identifier` |
/// | Application data (bytes 6–9) | `00 00 00 00` | AFI `00` (all families), CRC_B(AID) and number of applications not advertised; Core NFC's `applicationData` |
/// | Protocol info byte 1 | `00` | 106 kbit/s only, both ways |
/// | Protocol info byte 2 | `81` | maximum frame size 256 (8), protocol type 1: ISO/IEC 14443-4 compliant |
/// | Protocol info byte 3 | `75` | FWI 7 (~38.7 ms), ADC `01` (application data coded as in §7.9.3), CID supported, NAD not |
/// | ATTRIB answer (§7.11) | `00` | MBLI 0 (no limit stated), CID 0 |
///
/// ADC `00` (protocol info byte 3 bit 3 clear) means proprietary application data coding, which Core NFC reports
/// as `proprietaryApplicationDataCoding == true`. Not emulated: AFI filtering in REQB, anticollision slots, PPS.
extension Type4Tag {
    /// ISO/IEC 14443-3 §7.9.4: ISO-DEP type B with FSCI 8, FWI 7, ISO-coded application data, CID supported.
    public static let defaultTypeBProtocolInfo: [UInt8] = [0x00, 0x81, 0x75]

    /// The NFC-B activation of a Type B card: its ATQB fields and the ATTRIB answer `00`.
    ///
    /// - Throws: ``ISODEPCardError`` when the PUPI or the application data do not have 4 bytes, or the protocol
    ///   info is not 3 bytes (4 with the extended byte of §7.9.4.1) announcing ISO/IEC 14443-4.
    package static func typeBActivation(
        pupi: [UInt8], applicationData: [UInt8] = [0x00, 0x00, 0x00, 0x00],
        protocolInfo: [UInt8] = defaultTypeBProtocolInfo
    ) throws(ISODEPCardError) -> VirtualActivation {
        guard pupi.count == 4 else {
            throw ISODEPCardError(.invalidConfiguration, "a Type B PUPI has 4 bytes, not \(pupi.count)")
        }
        guard applicationData.count == 4 else {
            throw ISODEPCardError(
                .invalidConfiguration, "ATQB application data has 4 bytes, not \(applicationData.count)")
        }
        guard protocolInfo.count == 3 || protocolInfo.count == 4, protocolInfo[1] & 0x01 != 0 else {
            throw ISODEPCardError(
                .invalidConfiguration,
                "ATQB protocol info \(Hex.encode(protocolInfo)) must have 3 (or 4) bytes and protocol type bit 1 set "
                    + "(ISO/IEC 14443-4)")
        }
        return VirtualActivation(
            .nfcB(
                NFCBActivation(
                    pupi: pupi, applicationData: applicationData, protocolInfo: protocolInfo, attribResponse: [0x00])))
    }

    /// A Type 4 card on NFC-B holding `message`, identified by its 4-byte PUPI (see the type's table).
    ///
    /// - Throws: ``ISODEPCardError`` as ``factory(uid:holding:configuration:applets:)`` and
    ///   ``typeBActivation(pupi:applicationData:protocolInfo:)`` do.
    public static func typeB(
        pupi: [UInt8], holding message: [UInt8] = [], configuration: Type4Configuration = Type4Configuration(),
        applets: [any ISO7816Applet] = [], applicationData: [UInt8] = [0x00, 0x00, 0x00, 0x00],
        protocolInfo: [UInt8] = defaultTypeBProtocolInfo
    ) throws(ISODEPCardError) -> Type4Tag {
        let activation = try typeBActivation(pupi: pupi, applicationData: applicationData, protocolInfo: protocolInfo)
        let card = try factory(uid: pupi, holding: message, configuration: configuration, applets: applets)
        card.activation = activation
        return card
    }
}
