/// A chip that, in its present state, answers a reader as a MIFARE Classic at ISO/IEC 14443-3 (SAK `08`/`18`, the
/// three-pass Crypto1 authentication, READ `30`, WRITE `A0`, the value commands; NXP MF1S50yyX/MF1S70yyX §10): a
/// MIFARE Classic, or another family's chip in a Classic-compatible mode (NXP AN10833 §3). Whatever emulates a
/// contactless reader's PC/SC Part 3 storage-card commands for it (`OpenNFCVPCD`) runs Crypto1 against the chip
/// itself and needs to know only this.
package protocol MifareClassicCompatible: VirtualAirFrameTag {
    /// The blocks a reader may address through the Classic commands now; nil while the chip does not answer them.
    var classicBlockCount: Int? { get }
}

extension MifareClassicTag: MifareClassicCompatible {
    package var classicBlockCount: Int? { model.blockCount }
}
