internal import OpenNFCRF
internal import OpenNFCRemote
internal import OpenNFCSystem

/// `OPENCORENFC_RECORD=<file>`: wraps the opened device's frontend in a ``RecordingFrontend``, writing the format the
/// file's extension names (`.pcapng`, `.trace`; anything else our JSON transcript).
enum DeviceRecording {
    static func wrap(_ opened: OpenedDevice, device: String, path: String) -> OpenedDevice {
        var o = opened
        let now: () -> NFCInstant
        switch opened.clock {
        case .virtual(let c): now = { c.now }
        case .wall:
            let wall = WallClock()
            now = { wall.now }
        }
        o.frontend = InstrumentedFrontend(
            RecordingFrontend(
                opened.frontend, path: path, device: device, format: TraceFormat(path: path) ?? .json, now: now))
        return o
    }
}
