/// The device schemes every program knows without registering anything: the one list a new device joins (its folder
/// under `Sources/OpenNFCDevices/`, one line here, and the target it drives in OpenNFCDevices' dependencies). Programs may add more at run time with
/// ``DeviceRegistry/register(_:)``. A scheme listed here reaches both `OPENCORENFC_DEVICE` (the phone) and
/// `opennfc --device` (tag commands): its ``DeviceScheme`` is told which of the two opens it (``DeviceUse``), and a
/// scheme that gives no ``DeviceTagSource`` of its own is polled by the CLI on the device's clock.
///
/// | Scheme | Backend | Device strings |
/// |---|---|---|
/// | `sim` | ``SimulatedDevice`` | `sim:<tagfile>[+<tagfile>…]` (or `,`), `sim:empty` |
/// | `pcsc` | ``PCSCDevice`` | `pcsc`, `pcsc:<reader>` |
/// | `remote` | ``RemoteFieldDevice`` | `remote:`, `remote:<port>`, `remote:127.0.0.1:<port>` |
/// | `replay` | ``ReplayDevice`` | `replay:<transcript>` |
extension DeviceRegistry {
    static let builtIn: [DeviceScheme] = [
        SimulatedDevice.scheme,
        PCSCDevice.scheme,
        RemoteFieldDevice.scheme,
        ReplayDevice.scheme,
    ]
}
