import OpenNFCDevices
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCSystem

/// A place where tags are presented to the tag commands: any device string of the one device registry
/// (`OpenNFCDevices`: `sim:`, `pcsc`, and whatever scheme is registered there), opened for a tag command.
///
/// A device hands out one tag at a time. ``waitForTag(timeout:)`` returns the next tag in the field (waiting for one
/// when there is none, on the device's own clock), and ``release()`` ends the command's use of it: a simulated
/// device writes the tag back to its file when its state changed and takes it out of the field, a reader lets it go
/// (the user takes it away). Errors of the device layer become one-line CLI errors (usage errors exit 64).
final class Device {
    let opened: OpenedDevice
    private let source: any DeviceTagSource

    /// As the device layer names it (`sim:a.json+b.json`, `pcsc:<reader>`), for messages.
    var name: String { opened.name }
    /// The frontend the reader procedures talk through (wrapped by the session for `--trace` and counting).
    var frontend: any RFFrontend { opened.frontend }
    /// The device's time: virtual for the simulated field (so waiting costs no real time), the wall clock for
    /// readers. Progress rates are measured on it.
    let clock: any NFCClock
    /// Tags still to be presented, when the device knows (the simulated field); nil for a reader.
    var tagsRemaining: Int? { source.tagsRemaining }
    /// True when a wait should print a prompt before blocking (a real reader); the simulated field never blocks.
    var waitsForPeople: Bool { source.waitsForPeople }

    /// Opens `text` (a `--device` value or the environment's device string) for a tag command.
    convenience init(_ text: String) throws {
        do {
            self.init(try DeviceRegistry.open(text, for: .command))
        } catch {
            throw error.kind == .usage ? CLIError.usage(error.message) : CLIError.failure(error.message)
        }
    }

    private init(_ opened: OpenedDevice) {
        self.opened = opened
        source = opened.tagSource
        clock = opened.nfcClock
        Self.declareReaderCapabilities(opened.frontend)
    }

    /// `sim:` in a tag command is the simulated *reader*, not the phone: like the PC/SC readers opennfc drives
    /// (the ACR122U's PN532, docs/PCSC.md) it performs MIFARE Classic's Crypto1 itself, so `opennfc classic`,
    /// `dump --keys` and the NDEF commands on a Classic (NXP AN1305) work there. The simulated iPhone (the
    /// phone's `sim:`, opened by the system, never through this type) keeps ``RFCapabilities/simulatedIPhone``
    /// without it, as Core NFC never authenticates a Classic (docs/DIFFERENCES.md).
    private static func declareReaderCapabilities(_ frontend: any RFFrontend) {
        guard let simulated = frontend as? VirtualFieldFrontend else { return }
        simulated.capabilities.mifareClassicAuthentication = true
    }

    /// The default device (no `--device`, no environment): the only PC/SC reader.
    static func implicit() throws -> Device {
        do {
            return Device(try DeviceRegistry.open("pcsc", for: .command))
        } catch  where error.kind == .unavailable {
            throw CLIError.failure(
                "no --device given and no PC/SC reader is usable (\(error.message)); use --device sim:<tagfile> to "
                    + "work on a tag file")
        } catch {
            throw CLIError.failure(error.message)
        }
    }

    /// The next tag in the field: at once if one is there, otherwise after waiting up to `timeout`; nil when the
    /// time ran out (or Ctrl-C was pressed).
    func waitForTag(timeout: NFCDuration) throws -> RFTarget? {
        do {
            return try source.waitForTag(timeout: timeout) { Interrupt.requested }
        } catch {
            throw CLIError.failure(error.message)
        }
    }

    /// The command is done with the current tag.
    func release() throws {
        do {
            try source.release()
        } catch {
            throw CLIError.failure(error.message)
        }
    }

    /// Waits until the tag just released has left the field, at most `timeout`; false when it is still there.
    func waitForRemoval(timeout: NFCDuration) throws -> Bool {
        do {
            return try source.waitForRemoval(timeout: timeout) { Interrupt.requested }
        } catch {
            throw CLIError.failure(error.message)
        }
    }

    /// Ends the use of the device (closes the PC/SC context). Called once.
    func close() { source.close() }
}
