/// A virtual ISO-DEP card (Type 4, DESFire) refused its configuration or contents; `reason` names the field and
/// value at fault.
public struct ISODEPCardError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Stable codes for tests and callers.
    package enum Code: String, Sendable, Hashable {
        /// A configuration value is out of its allowed range.
        case invalidConfiguration
        /// An NDEF message does not fit the NDEF file.
        case messageTooLong
        /// File or application contents do not match their declared layout.
        case invalidContents
    }

    package var code: Code
    package var reason: String

    package init(_ code: Code, _ reason: String) {
        self.code = code
        self.reason = reason
    }

    public var description: String { reason }
}
