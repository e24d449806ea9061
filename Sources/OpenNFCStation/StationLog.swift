internal import Foundation
internal import Synchronization

/// The station's log on stderr: one plain line per message, `<RFC 3339 time> <LEVEL> <message>`, with `key=value`
/// pairs where a value is worth grepping (docs/STATIONS.md, "Logs"). Lines are written whole, from any thread.
package final class StationLog: Sendable {
    private let lock = Mutex<Void>(())
    private let write: @Sendable (String) -> Void

    /// Logs to stderr, or to `write` (tests).
    package init(write: (@Sendable (String) -> Void)? = nil) {
        self.write = write ?? { line in FileHandle.standardError.write(Data(line.utf8)) }
    }

    package func info(_ message: String) { line("INFO", message) }
    package func warning(_ message: String) { line("WARN", message) }
    package func error(_ message: String) { line("ERROR", message) }

    private func line(_ level: String, _ message: String) {
        let text = "\(StationEvent.timestamp(Date())) \(level) \(message.replacingOccurrences(of: "\n", with: " "))\n"
        lock.withLock { _ in write(text) }
    }
}
