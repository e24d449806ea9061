import Foundation
import OpenNFCTestSupport
import Testing

/// `--device pcsc` against the private pcscd with the two vsmartcard virtual readers that `scripts/test` starts
/// (and announces with OPENNFC_E2E_PCSCD=1); skipped without it.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["OPENNFC_E2E_PCSCD"] != nil))
struct DevicePCSCTests {
    @Test func severalReadersNeedAChoice() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        for args in [["read"], ["read", "--device", "pcsc"]] {
            let r = try ws.run(args)
            #expect(r.status == 1)
            #expect(
                r.stderr
                    == "Error: 2 PC/SC readers are connected ('Virtual PCD 00 00', 'Virtual PCD 00 01'); choose one "
                    + "with --device pcsc:<reader>\n")
        }
        let none = try ws.run(["read", "--device", "pcsc:ACR122"])
        #expect(none.status == 1)
        #expect(
            none.stderr
                == "Error: no PC/SC reader matches 'ACR122'; the readers are 'Virtual PCD 00 00', 'Virtual PCD 00 01'\n"
        )
        let ambiguous = try ws.run(["read", "--device", "pcsc:Virtual"])
        #expect(ambiguous.status == 1)
        #expect(ambiguous.stderr.hasPrefix("Error: 'Virtual' matches 2 PC/SC readers ("))
    }

    @Test func anEmptyReaderPromptsThenTimesOut() throws {
        let ws = try Workspace()
        defer { ws.cleanup() }
        // The emulator tests present cards on slot 01 while holding this lock; hold it too, so the slot is empty.
        let lock = SlotLock()
        defer { withExtendedLifetime(lock) {} }
        let r = try ws.run(["read", "--device", "pcsc:PCD 00 01", "--timeout", "1"])
        #expect(r.status == 1)
        #expect(r.stdout == "")
        #expect(
            r.stderr == """
                Hold a tag near the reader (pcsc:Virtual PCD 00 01); waiting up to 1 s…
                Error: no tag within 1 s on pcsc:Virtual PCD 00 01; hold a tag on the reader, or raise --timeout

                """)
    }
}
