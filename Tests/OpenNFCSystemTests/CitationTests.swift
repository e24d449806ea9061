import Foundation
import Testing

/// Comments cite public specifications and datasheets or the project's own docs/, never notes kept outside the
/// repository (docs/ARCHITECTURE.md, "Rules that keep the graph honest").
@Suite struct CitationTests {
    /// The names of the outside notes, assembled so that this file does not match itself.
    static let outsideNotes = [
        "tag-" + "protocols", "tag-" + "families", "corenfc-" + "api", "parity-" + "audit",
        "Core NFC " + "§", "house " + "example", "real" + "stack.md",
    ]

    @Test func noCommentCitesNotesOutsideTheRepository() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        var offenders: [String] = []
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            guard let walker = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else {
                continue
            }
            for case let url as URL in walker where url.pathExtension == "swift" {
                let text = try String(contentsOf: url, encoding: .utf8)
                for (n, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                where Self.outsideNotes.contains(where: { line.contains($0) }) {
                    offenders.append("\(url.path.dropFirst(root.path.count + 1)):\(n + 1)")
                }
            }
        }
        #expect(offenders.isEmpty, "cite the public spec instead: \(offenders.joined(separator: ", "))")
    }
}
