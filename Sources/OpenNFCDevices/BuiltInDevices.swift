/// The device schemes every program knows without registering anything: the one list a new device joins (its folder
/// under `Sources/OpenNFCDevices/`, one line here, and the target it drives in OpenNFCDevices' dependencies). Programs may add more at run time with
/// ``DeviceRegistry/register(_:)``. A scheme listed here reaches both `OPENCORENFC_DEVICE` (the phone) and
/// `opennfc --device` (tag commands): its ``DeviceScheme`` is told which of the two opens it (``DeviceUse``), and a
/// scheme that gives no ``DeviceTagSource`` of its own is polled by the CLI on the device's clock.
///
/// | Scheme | Backend | Device strings |
/// |---|---|---|
/// | `sim` | ``SimulatedDevice`` | `sim:<tagfile>[+<tagfile>…]` (or `,`), `sim:empty` |
/// | `pcsc` (not on iOS) | ``PCSCDevice`` | `pcsc`, `pcsc:<reader>` |
/// | `remote` | ``RemoteFieldDevice`` | `remote:`, `remote:<port>`, `remote:127.0.0.1:<port>` |
/// | `replay` | ``ReplayDevice`` | `replay:<transcript>` |
/// | `vpcd` (not on iOS) | ``VPCDCardEmulationDevice`` | `vpcd:`, `vpcd:<port>`, `vpcd:<host>:<port>` (the app's `CardSession` in pcscd) |
/// | `pn532` (not on iOS) | ``PN532Device`` | `pn532:<tty>[:<baud>]`, `pn532:i2c:<dev>`, `pn532:spi:<dev>[:<Hz>]` |
extension DeviceRegistry {
    static let builtIn: [DeviceScheme] = {
        var schemes = [SimulatedDevice.scheme]
        // No PC/SC on iOS: Package.swift links OpenNFCPCSC on Linux and macOS only.
        #if canImport(OpenNFCPCSC)
            schemes.append(PCSCDevice.scheme)
        #endif
        schemes += [RemoteFieldDevice.scheme, ReplayDevice.scheme]
        // Nor vpcd or a PN532 on iOS: Package.swift links OpenNFCVPCD and OpenNFCPN532 on Linux and macOS only.
        #if canImport(OpenNFCVPCD)
            schemes.append(VPCDCardEmulationDevice.scheme)
        #endif
        #if canImport(OpenNFCPN532)
            schemes.append(PN532Device.scheme)
        #endif
        return schemes
    }()
}
