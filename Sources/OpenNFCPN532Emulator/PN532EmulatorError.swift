/// Why the virtual PN532 could not be served (no pseudo-terminal, a `--link` path in the way): what and where.
package struct PN532EmulatorError: Error, Sendable, Hashable, CustomStringConvertible {
    package var detail: String
    package init(_ detail: String) { self.detail = detail }
    package var description: String { detail }
}
