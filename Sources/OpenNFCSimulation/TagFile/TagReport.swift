package import OpenNFCBytes

/// What `opennfc tag show` prints about a tag beyond chip and UID: human lines and the same facts as JSON members,
/// produced by the chip's ``TagFileChip/report``.
package struct TagReport: Sendable {
    /// Lines for the text output (no trailing newlines).
    package var lines: [String]
    /// Members for the `--json` output.
    package var json: [(String, JSONValue)]
    /// NDEF access stated plainly: `read/write`, `read-only`, or `not NDEF formatted`.
    package var ndefAccess: String

    package init(lines: [String], json: [(String, JSONValue)], ndefAccess: String) {
        self.lines = lines
        self.json = json
        self.ndefAccess = ndefAccess
    }
}
