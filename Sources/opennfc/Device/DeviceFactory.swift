/// Opens the device a `--device` value names (nil: the only PC/SC reader).
enum DeviceFactory {
    static func open(_ spec: DeviceSpec?) throws -> any Device {
        switch spec {
        case .sim(let files)?: return try SimDevice(files: files)
        case .pcsc(let reader)?: return try PCSCDevice(wanted: reader, implicit: false)
        case .remote(let argument)?: return try RemoteDevice(argument: argument)
        case .replay(let path)?: return try ReplayDevice(path: path)
        case nil: return try PCSCDevice(wanted: nil, implicit: true)
        }
    }
}
