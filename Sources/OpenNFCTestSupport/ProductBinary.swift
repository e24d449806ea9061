package import Foundation

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
