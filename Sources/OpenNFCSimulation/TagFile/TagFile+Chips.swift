/// The chip registry of tag files: every chip `tag new`, `tag show`, `tag send` and `tag convert` know.
///
/// To add a chip family, write its ``TagFileChip`` entries next to the chip (as `Type2Tag+TagFile.swift` does)
/// and list them here.
extension TagFile {
    /// Every registered chip, in CLI order.
    package static let chips: [TagFileChip] =
        Type2Tag.tagFileChips + isoDEPChips + Type1Tag.tagFileChips + ISO15693Tag.tagFileChips
        + MifareClassicTag.tagFileChips + MIFAREPlusTag.tagFileChips
        + FeliCaLiteSTag.tagFileChips + FeliCaStandardTag.tagFileChips

    /// ISO-DEP chips (Type 4, DESFire EV1, VAS pass holder, eMRTD passport and ID card): `Type4Tag+TagFile.swift`,
    /// `DESFireEV1Tag+TagFile.swift`, `VASPassTag+TagFile.swift`, `ICAO/EMRTDTag+TagFile.swift`.
    static let isoDEPChips: [TagFileChip] =
        Type4Tag.tagFileChips + DESFireEV1Tag.tagFileChips + VASPassTag.tagFileChips + EMRTDTag.tagFileChips

    /// Chip names the CLI accepts even before their simulation is registered, with the reason shown to the user.
    package static let plannedChips: [String: String] = [:]

    /// The entry for chip `name`, if registered.
    package static func chip(named name: String) -> TagFileChip? { chips.first { $0.name == name } }

    /// The entry whose encoder accepts `tag`.
    package static func chip(for tag: any VirtualTag) -> TagFileChip? {
        chips.first { $0.name == tag.chip && $0.encode(tag) != nil }
    }
}
