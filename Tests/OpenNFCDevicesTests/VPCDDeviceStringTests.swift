import OpenNFCDevices
import OpenNFCSystem
import Testing

/// The `vpcd:` device strings (docs/CARD-EMULATION.md): opening connects nothing; the card goes to vpcd only while the
/// app emulates (exercised end to end by `CardSessionVPCDTests`).
@Suite struct VPCDDeviceStringTests {
    @Test func defaultPortHostAndPort() throws {
        #expect(try DeviceRegistry.open("vpcd:").name == "vpcd:127.0.0.1:35963")
        #expect(try DeviceRegistry.open("vpcd").name == "vpcd:127.0.0.1:35963")
        #expect(try DeviceRegistry.open("vpcd:35964").name == "vpcd:127.0.0.1:35964")
        #expect(try DeviceRegistry.open("vpcd:localhost:40000").name == "vpcd:localhost:40000")
        #expect(try DeviceRegistry.open("vpcd:").frontend.capabilities.technologies.isEmpty)
    }

    @Test func badStringsAndTagCommandsAreRefused() {
        #expect(throws: DeviceError(usage: "vpcd:nowhere: expected vpcd:, vpcd:<port> or vpcd:<host>:<port>")) {
            _ = try DeviceRegistry.open("vpcd:nowhere")
        }
        #expect(throws: DeviceError.self) { _ = try DeviceRegistry.open("vpcd:", for: .command) }
        #expect(throws: DeviceError(usage: "sim: needs something after the colon; use sim:<tagfile>[+<tagfile>…]")) {
            _ = try DeviceRegistry.open("sim:")
        }
    }
}
