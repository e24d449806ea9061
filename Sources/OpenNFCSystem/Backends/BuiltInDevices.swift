/// The device schemes every program knows without registering anything: the one list a new backend joins (one
/// line here, plus its target in OpenNFCSystem's dependencies). Programs may add more at run time with
/// ``DeviceRegistry/register(_:)``.
///
/// | Scheme | Backend | Device strings |
/// |---|---|---|
/// | `sim` | ``SimulatedDevice`` | `sim:<tagfile>[,<tagfile>…]`, `sim:empty` |
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
