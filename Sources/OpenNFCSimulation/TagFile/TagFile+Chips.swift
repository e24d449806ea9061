/// The chip registry of tag files: every chip `tag new`, `tag show`, `tag send` and `tag convert` know.
///
/// To add a chip family, write its ``TagFileChip`` entries next to the chip (as `Type2Tag+TagFile.swift` does)
/// and list them here.
extension TagFile {
    public static let chips: [TagFileChip] = Type2Tag.tagFileChips + isoDEPChips

    /// ISO-DEP chips (Type 4, DESFire EV1): filled in by the ISO-DEP simulation.
    static let isoDEPChips: [TagFileChip] = []

    /// Chip names the CLI knows of but whose simulation is not registered (yet), with the reason shown to the user.
    /// A name disappears from here as soon as ``chips`` has it.
    public static var plannedChips: [String: String] {
        let planned = [
            "type4": "the Type 4 tag file support is not registered yet",
            "desfire-ev1": "the DESFire EV1 tag file support is not registered yet",
        ]
        return planned.filter { name, _ in !chips.contains { $0.name == name } }
    }

    /// The entry for chip `name`, if registered.
    public static func chip(named name: String) -> TagFileChip? { chips.first { $0.name == name } }

    /// The entry whose encoder accepts `tag`.
    public static func chip(for tag: any VirtualTag) -> TagFileChip? {
        chips.first { $0.name == tag.chip && $0.encode(tag) != nil }
    }
}
