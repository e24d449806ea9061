package import Foundation
internal import OpenNFCBytes

/// Where the package's executables (`opennfc`, `opencorenfc-example`) are for a test that runs them as processes:
/// beside the test bundle, else in `.build/debug` of this checkout.
package enum ProductBinary {
    package static func url(_ name: String) -> URL {
        let bundleDir = Bundle.main.bundleURL
        for dir in [bundleDir, bundleDir.deletingLastPathComponent()] {
            let candidate = dir.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/\(name)")
    }
}

/// What `opencorenfc-example card` needs to emulate a card: the entitlements that grant card emulation for the AID
/// prefix its card session answers (Sources/opencorenfc-example: `F04C4F59414C`, F0 then "LOYAL" in ASCII).
package enum ExampleCardApp {
    /// The AID prefix the example's card session declares and answers.
    package static let aidPrefix = "F04C4F59414C"

    /// Writes `App.entitlements` (card emulation on, ``aidPrefix`` as the one select-identifier prefix) into `dir` and
    /// returns its URL, for `OPENCORENFC_ENTITLEMENTS`.
    package static func writeEntitlements(in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("App.entitlements")
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>com.apple.developer.nfc.hce</key><true/>
            <key>com.apple.developer.nfc.hce.iso7816.select-identifier-prefixes</key>
            <array><string>\(aidPrefix)</string></array>
            </dict></plist>
            """
        try FileAccess.write(Array(text.utf8), to: url.path)
        return url
    }
}
