/// The system's scan sheet as the user sees it (Apple's Core NFC documentation; docs/PARITY.md §14): shown on `begin()`, titled "Ready to Scan",
/// with the app's `alertMessage`, a Cancel button, and an error glyph when the app ends the session with
/// `invalidate(errorMessage:)`; closed when the session ends.
public struct SystemSheet: Sendable, Hashable, CustomStringConvertible {
    public enum Glyph: String, Sendable, Hashable {
        /// The scanning animation.
        case scanning
        /// The error glyph of `invalidate(errorMessage:)` (and of `stopEmulation(status: .failure)`).
        case error
        /// Card emulation is running (the `CardSession` sheet).
        case emulating
        /// The checkmark of `stopEmulation(status: .success)`.
        case success
    }

    /// The title of the card-emulation sheet (Apple does not document its wording; docs/DIFFERENCES.md).
    public static let cardEmulationTitle = "Hold Near Reader"

    public var isPresented = false
    public var title = "Ready to Scan"
    public var message = ""
    public var glyph = Glyph.scanning

    public init() {}

    public var description: String {
        guard isPresented else { return "(no sheet)" }
        let mark = glyph == .error ? "⚠︎ " : glyph == .success ? "✓ " : ""
        return message.isEmpty ? "[\(title)] \(mark)" : "[\(title)] \(mark)\(message)"
    }
}
