/// An application hosted on a virtual ISO 7816 card, reached by SELECT by DF name (ISO/IEC 7816-4 §11.2.2) —
/// how an app developer emulates their own payment, transit or access card.
///
/// Once selected, the applet receives every command APDU of any class (a payment applet answers CLA `80`
/// commands such as GET PROCESSING OPTIONS) until another application is selected or the card is reset; a SELECT
/// by DF name (CLA `00`, INS `A4`, P1 `04`) is always routed by the card, so that it can switch applications.
///
/// The card checks nothing on the applet's answers: the applet owns its status words and response lengths.
public protocol ISO7816Applet: AnyObject {
    /// The application identifier (ISO/IEC 7816-5: 5 to 16 bytes, RID + PIX) used as the DF name.
    var aid: [UInt8] { get }

    /// Answers the SELECT that chose this applet (usually with an FCI template and `90 00`). A status that is
    /// neither `90 00` nor a `61`/`62`/`63` warning refuses the selection: the card then has no application
    /// selected. Default: `90 00` without data.
    func select(_ command: ISO7816Command) -> ISO7816Response

    /// Answers one command APDU addressed to the selected applet.
    func process(_ command: ISO7816Command) -> ISO7816Response

    /// Called when another application is selected or the card is reset or leaves the field.
    func deselect()
}

extension ISO7816Applet {
    public func select(_ command: ISO7816Command) -> ISO7816Response { .status(.success) }
    public func deselect() {}
}

/// An ``ISO7816Applet`` made of closures, for tests and small emulations:
///
/// ```swift
/// let loyalty = ISO7816ClosureApplet(aid: [0xF0, 0x01, 0x02, 0x03, 0x04]) { command in
///     command.ins == 0xCA ? ISO7816Response(data: [0x42], status: .success) : .status(.insNotSupported)
/// }
/// ```
public final class ISO7816ClosureApplet: ISO7816Applet {
    public let aid: [UInt8]
    private let onSelect: (ISO7816Command) -> ISO7816Response
    private let onProcess: (ISO7816Command) -> ISO7816Response
    private let onDeselect: () -> Void

    public init(
        aid: [UInt8],
        select: @escaping (ISO7816Command) -> ISO7816Response = { _ in .status(.success) },
        deselect: @escaping () -> Void = {},
        process: @escaping (ISO7816Command) -> ISO7816Response
    ) {
        self.aid = aid
        self.onSelect = select
        self.onProcess = process
        self.onDeselect = deselect
    }

    public func select(_ command: ISO7816Command) -> ISO7816Response { onSelect(command) }
    public func process(_ command: ISO7816Command) -> ISO7816Response { onProcess(command) }
    public func deselect() { onDeselect() }
}
