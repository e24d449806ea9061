import OpenNFCBytes

/// The card-side ISO/IEC 7816-4 interindustry command processor shared by every virtual ISO-DEP card: SELECT
/// (§11.2.2), READ BINARY and UPDATE BINARY (§11.3.3, §11.3.5) over an ``ISO7816FileTree``, plus routing to a
/// selected ``ISO7816Applet``. It is a value-type state machine (current DF and current EF); the card classes are
/// thin drivers that own one engine and one file tree.
///
/// | Area | Supported | Not supported (answer) |
/// |---|---|---|
/// | APDU cases | 1–4 short; 1–4 extended when ``Limits/extendedLength`` | extended when off (`67 00`), malformed (`67 00`) |
/// | CLA | `00` (first interindustry, no SM, channel 0); anything while an applet is selected goes to it | chaining bit (`68 84`), SM (`68 82`), logical channels 1–19 (`68 81`), proprietary CLA `80`–`FF` (`6E 00`) |
/// | SELECT P1 | `00` MF/DF/EF by id, `01` child DF, `02` EF under current DF, `03` parent, `04` DF name (partial names, all four occurrences), `08` path from MF, `09` path from current DF | other P1 (`6A 86`) |
/// | SELECT P2 | response `00` FCI (none sent), `04` FCP (`62` template, sent when Le present), `0C` none | `08` FMD (`6A 86`); occurrence ≠ first for ids (`6A 86`) |
/// | READ / UPDATE BINARY | even INS (15-bit offset or SFI + 8-bit offset); odd INS `B1`/`D7` with offset data object `54` and data object `53` (24-bit offsets); Le/Lc checked against MLe/MLc | odd INS with an SFI in P1-P2 (`6A 82`) |
/// | Tearing | UPDATE BINARY commits exactly the first `tearAfter` bytes, answer lost | — |
///
/// Status words: `6A 82` no such file/application (§11.2.2), `69 86` READ/UPDATE without current EF, `69 82`
/// access condition not satisfied (T4T access byte other than `00`, DESFire key or never), `6B 00` offset outside
/// the EF, `62 82` fewer than an explicit Ne bytes before the end of file (data returned), `67 00` Le above MLe,
/// Lc above MLc, missing or superfluous fields, `6A 86` unsupported P1-P2, `6A 80` malformed data objects (odd INS), `6D 00` unknown INS.
struct ISO7816Engine: Sendable {
    /// The card's APDU size limits (the MLe/MLc advertised by a Type 4 CC).
    struct Limits: Sendable, Hashable {
        /// Largest response data field the card sends (MLe); an explicit Ne above it is `67 00`, a maximal Le
        /// (`00` / `0000`) is served up to it.
        var mle: Int
        /// Largest command data field the card accepts (MLc); above it is `67 00`.
        var mlc: Int
        /// Whether extended length APDUs are accepted (ISO/IEC 7816-4 §5.1; advertised in the historical bytes).
        var extendedLength: Bool
    }

    /// The result of one command: the response, or nil when the card tore (left the field) while executing.
    struct Outcome: Sendable, Hashable {
        var response: ISO7816Response?
        /// The EF an UPDATE BINARY wrote to (also when torn part way), for cards deriving state from a file.
        var written: ISO7816FileReference?

        static func answer(_ r: ISO7816Response) -> Outcome { Outcome(response: r, written: nil) }
        static func status(_ s: ISO7816Status) -> Outcome { Outcome(response: .status(s), written: nil) }
    }

    var limits: Limits
    /// The current DF; nil is the MF.
    var currentDF: Int?
    /// The current EF, always inside ``currentDF``.
    var currentEF: ISO7816FileReference?

    init(limits: Limits) {
        self.limits = limits
    }

    /// Power-on: back to the MF with no current EF; a selected applet is told it is deselected.
    mutating func reset(in tree: some ISO7816FileTree) {
        select(df: nil, ef: nil, in: tree)
    }

    /// Makes `df` current (DESFire SelectApplication uses this too), telling a selected applet it lost the card.
    mutating func select(df: Int?, ef: ISO7816FileReference?, in tree: some ISO7816FileTree) {
        if let old = currentDF, old != df, let applet = tree.applet(old) { applet.deselect() }
        currentDF = df
        currentEF = ef
    }

    /// Processes one command APDU. With `tearAfter`, the card leaves the field during the command: a write commits
    /// only its first `tearAfter` bytes and no response is returned.
    mutating func process<Tree: ISO7816FileTree>(_ frame: [UInt8], in tree: inout Tree, tearAfter: Int?) -> Outcome {
        var outcome = execute(frame, in: &tree, tearAfter: tearAfter)
        if tearAfter != nil { outcome.response = nil }
        return outcome
    }

    private mutating func execute<Tree: ISO7816FileTree>(_ frame: [UInt8], in tree: inout Tree, tearAfter: Int?)
        -> Outcome
    {
        let command: ISO7816Command
        do {
            command = try ISO7816Command(decoding: frame)
        } catch {
            return .status(.wrongLength)  // ISO/IEC 7816-4 §5.1.3: malformed Lc/Le is a wrong length
        }
        if command.isExtended && !limits.extendedLength { return .status(.wrongLength) }
        let isSelectByName = command.cla == 0x00 && command.ins == 0xA4 && command.p1 == 0x04
        if let df = currentDF, let applet = tree.applet(df), !isSelectByName {
            return .answer(applet.process(command))
        }
        if let refusal = Self.checkClass(command.cla) { return .status(refusal) }
        switch command.ins {
        case 0xA4: return .answer(select(command, in: tree))
        case 0xB0: return .answer(readBinary(command, in: tree))
        case 0xD6: return updateBinary(command, in: &tree, tearAfter: tearAfter)
        case 0xB1: return .answer(readBinaryOdd(command, in: tree))
        case 0xD7: return updateBinaryOdd(command, in: &tree, tearAfter: tearAfter)
        default: return .status(.insNotSupported)  // §5.1.3: INS not supported or invalid
        }
    }

    /// CLA coding of ISO/IEC 7816-4 §5.4.1: only the first interindustry class without chaining, secure messaging
    /// or a logical channel other than 0 is accepted.
    static func checkClass(_ cla: UInt8) -> ISO7816Status? {
        if cla & 0x80 != 0 { return .claNotSupported }  // proprietary class (and FF, invalid)
        if cla & 0x40 != 0 { return .logicalChannelNotSupported }  // further interindustry: channels 4–19
        if cla & 0x10 != 0 { return .commandChainingNotSupported }
        if cla & 0x0C != 0 { return .secureMessagingNotSupported }
        if cla & 0x03 != 0 { return .logicalChannelNotSupported }
        return nil
    }
}
