public import OpenNFCRF

/// One line of what happened on the simulated phone, in virtual time: sheet changes, session lifecycle, delegate
/// callbacks, app calls, RF frames and field changes. The testing product exposes it; `opennfc demo` prints it.
public struct TranscriptEntry: Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// What the user sees on the sheet.
        case sheet
        /// Session lifecycle in the system (queued, active, invalidated).
        case system
        /// A delegate callback or completion handler delivered to the app.
        case app
        /// A frame on the air (only when RF recording is on).
        case rf
        /// A tag entering or leaving the field, the user's actions.
        case user
        /// A notification the system showed (background tag reading).
        case notification
    }

    public var time: NFCInstant
    public var kind: Kind
    public var text: String

    public init(time: NFCInstant, kind: Kind, text: String) {
        self.time = time
        self.kind = kind
        self.text = text
    }

    public var description: String {
        let ms = time.nanoseconds / 1_000_000
        let s = "\(ms / 1000).\(String(repeating: "0", count: 3 - String(ms % 1000).count))\(ms % 1000)"
        return "[\(String(repeating: " ", count: max(0, 8 - s.count)))\(s) s] \(kind.rawValue): \(text)"
    }
}
