import Foundation
import OpenNFCPN532Emulator
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport

/// Tools nobody here wrote (libnfc's, mfoc, libfreefare's, nfcpy) run against a virtual PN532 through
/// ``TestProcess``: every run is bounded, a tool still running after its timeout is ended and the test fails with
/// what it printed.
enum Tools {
    static func has(_ tools: String...) -> Bool { tools.allSatisfy { TestProcess.onPath($0) != nil } }

    /// True when nfcpy imports (PyPI `nfcpy`, installed by scripts/test).
    static let hasNfcpy: Bool = {
        guard has("python3") else { return false }
        return (try? run("python3", ["-c", "import nfc"], environment: [:], timeout: 30).status) == 0
    }()

    static func run(
        _ tool: String, _ arguments: [String], environment: [String: String], stdin: String = "", timeout: Double = 60
    ) throws -> ProcessOutput {
        try TestProcess.run(
            TestProcess.onPath(tool) ?? URL(fileURLWithPath: tool), arguments, stdin: Data(stdin.utf8),
            environment: environment, timeout: timeout)
    }

    static func temporaryDirectory() throws -> URL { try TestProcess.temporaryDirectory("opennfc-pn532") }
}

extension ProcessOutput {
    /// Output with runs of spaces collapsed (libnfc prints bytes as `04  a1  b2`).
    var text: String {
        (stdout + stderr).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}

/// A virtual PN532 with tags in its field, served on a pseudo-terminal by a thread of this process.
final class ServedPN532: @unchecked Sendable {
    let field = VirtualField(clock: VirtualClock(), timing: .instant)
    let chip: VirtualPN532
    let server: PN532PseudoTerminal
    private let done = DispatchSemaphore(value: 0)
    private var stopped = false

    init(_ tags: [any VirtualTag], link: String? = nil) throws {
        for (i, t) in tags.enumerated() { field.place(t, at: i) }
        chip = VirtualPN532(field: field)
        server = try PN532PseudoTerminal(chip: chip, link: link)
        let server = self.server
        let done = self.done
        Thread {
            server.run()
            done.signal()
        }.start()
    }

    var path: String { server.path }

    /// libnfc's environment: this pty as the only device (`pn532_uart:` connstring, docs/PN532.md).
    var libnfc: [String: String] {
        [
            "LIBNFC_DEVICE": "pn532_uart:\(path)", "LIBNFC_DEFAULT_DEVICE": "pn532_uart:\(path)",
            "LIBNFC_AUTO_SCAN": "false",
        ]
    }

    /// Stops the server and waits until its thread no longer touches the field.
    func stop() {
        guard !stopped else { return }
        stopped = true
        server.stop()
        done.wait()
    }
}
