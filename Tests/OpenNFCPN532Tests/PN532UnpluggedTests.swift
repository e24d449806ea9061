import Foundation
import OpenNFCBytes
import OpenNFCPN532
import OpenNFCPN532Emulator
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// A reader unplugged with the termios serial transport (not a scripted one): the virtual PN532's pseudo-terminal
/// goes away (its master side closes) as a USB adapter's tty hangs up when it is pulled, and the driver ends with an
/// unplugged error naming the device instead of waiting.
@Suite struct PN532UnpluggedTests {
    /// A virtual PN532 on a pseudo-terminal that can be pulled out.
    final class Pluggable: @unchecked Sendable {
        let chip = VirtualPN532(field: VirtualField(clock: VirtualClock(), timing: .instant))
        private(set) var server: PN532PseudoTerminal?
        let path: String
        private let done = DispatchSemaphore(value: 0)

        init() throws {
            let server = try PN532PseudoTerminal(chip: chip)
            self.server = server
            path = server.path
            let done = self.done
            Thread { [weak server] in
                server?.run()
                done.signal()
            }.start()
        }

        /// Stops the server and closes the pseudo-terminal's master: the device node's other side is gone.
        func unplug() {
            guard let s = server else { return }
            s.stop()
            done.wait()
            server = nil
        }
    }

    /// Mid-command: the chip is in target mode waiting for a reader (TgInitAsTarget has no answer until one comes,
    /// UM0701-02 §7.3.14) and the host would wait up to 60 s; pulling the adapter ends the wait at once.
    @Test func unpluggedWhileTheChipWaitsEndsTheCommandWithAClearError() throws {
        let reader = try Pluggable()
        defer { reader.unplug() }
        let frontend = try PN532DeviceString(parsing: reader.path).open()
        defer { frontend.driver.transport.close() }
        final class Outcome: @unchecked Sendable {
            let frontend: PN532Frontend
            var error: PN532Error?
            init(_ frontend: PN532Frontend) { self.frontend = frontend }
        }
        let outcome = Outcome(frontend)
        let ended = DispatchSemaphore(value: 0)
        Thread {
            do throws(PN532Error) {
                _ = try outcome.frontend.emulateCard(PN532CardEmulation(waitMilliseconds: 60_000)) { _ in nil }
            } catch {
                outcome.error = error
            }
            ended.signal()
        }.start()
        #expect(reader.chip.waitForTargetMode(seconds: 30))
        reader.unplug()
        #expect(ended.wait(timeout: .now() + 30) == .success, "the driver still waits after the adapter went")
        let error = try #require(outcome.error)
        #expect(error.code == .unplugged && error.detail.contains(reader.path), "\(error.detail)")
    }

    /// Between commands: the next command fails at once, naming the device and what probably happened.
    @Test func unpluggedBetweenCommandsFailsTheNextOne() throws {
        let reader = try Pluggable()
        let frontend = try PN532DeviceString(parsing: reader.path).open()
        defer { frontend.driver.transport.close() }
        #expect(try frontend.driver.call(0x02) == h("32010607"))
        reader.unplug()
        #expect {
            _ = try frontend.driver.call(0x02)
        } throws: { error in
            guard let e = error as? PN532Error else { return false }
            return e.code == .unplugged && e.detail.contains(reader.path) && e.detail.contains("unplugged")
        }
    }
}
