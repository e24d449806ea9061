/// The argument of a `pn532:` device string: which link and where.
///
/// | Argument | Link |
/// |---|---|
/// | `/dev/ttyUSB0`, `/dev/ttyUSB0:115200`, `/dev/pts/3` | serial (HSU) at 115200 baud unless given |
/// | `i2c:/dev/i2c-1` | I2C, address `0x24` |
/// | `spi:/dev/spidev0.0`, `spi:/dev/spidev0.0:500000` | SPI at 1 MHz unless given |
///
/// As in libnfc's connection strings, a path cannot contain `:`.
package enum PN532DeviceString: Sendable, Hashable {
    case serial(path: String, baudRate: Int)
    case i2c(path: String)
    case spi(path: String, speedHz: UInt32)

    package static let usage = "pn532:<tty>[:<baud>] | pn532:i2c:<i2c-dev> | pn532:spi:<spidev>[:<Hz>]"

    package init(parsing argument: String) throws(PN532Error) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        func bad(_ why: String) -> PN532Error {
            PN532Error(.open, "pn532:\(argument): \(why) (expected \(Self.usage))")
        }
        switch parts.first {
        case "i2c"?:
            guard parts.count == 2, !parts[1].isEmpty else { throw bad("give the i2c-dev node, e.g. i2c:/dev/i2c-1") }
            self = .i2c(path: parts[1])
        case "spi"?:
            guard parts.count == 2 || parts.count == 3, !parts[1].isEmpty else {
                throw bad("give the spidev node, e.g. spi:/dev/spidev0.0")
            }
            var hz: UInt32 = 1_000_000
            if parts.count == 3 {
                guard let v = UInt32(parts[2]), v >= 5_000, v <= 5_000_000 else {
                    throw bad("'\(parts[2])' is not an SPI clock between 5000 and 5000000 Hz")
                }
                hz = v
            }
            self = .spi(path: parts[1], speedHz: hz)
        default:
            guard let path = parts.first, !path.isEmpty, parts.count <= 2 else {
                throw bad("give the serial port, e.g. /dev/ttyUSB0")
            }
            var baud = 115_200
            if parts.count == 2 {
                guard let v = Int(parts[1]), PlatformPN532.speed(v) != nil else {
                    throw bad("'\(parts[1])' is not a PN532 serial speed (9600…921600)")
                }
                baud = v
            }
            self = .serial(path: path, baudRate: baud)
        }
    }

    /// Opens the link and the chip.
    package func open() throws(PN532Error) -> PN532Frontend {
        let transport: any PN532Transport
        switch self {
        case .serial(let path, let baud): transport = try PN532SerialTransport(path: path, baudRate: baud)
        case .i2c(let path):
            transport = PN532I2CTransport(bus: try LinuxI2CBus(path: path), pause: PlatformPN532.pause)
        case .spi(let path, let hz):
            transport = PN532SPITransport(bus: try LinuxSPIBus(path: path, speedHz: hz), pause: PlatformPN532.pause)
        }
        do { return try PN532Frontend(transport: transport) } catch {
            transport.close()
            throw error
        }
    }

    /// The serial ports a probe may try.
    package static func serialPorts() -> [String] { PlatformPN532.serialPorts() }

    /// Tries each serial port for a PN532 (wake-up, SAMConfiguration, GetFirmwareVersion, with short timeouts):
    /// only when asked (`opennfc readers --probe`), as writing to an unknown serial device is not harmless.
    package static func probe(ports: [String] = serialPorts()) -> [(path: String, firmware: String)] {
        var found: [(path: String, firmware: String)] = []
        for port in ports {
            guard let t = try? PN532SerialTransport(path: port) else { continue }
            let d = PN532Driver(transport: t)
            d.ackTimeoutMilliseconds = 50
            d.answerTimeoutMilliseconds = 200
            d.retries = 0
            if (try? d.call(0x14, [0x01])) != nil, let fw = try? d.call(0x02), fw.count == 4, fw[0] == 0x32 {
                found.append((path: port, firmware: "PN532 v\(fw[1]).\(fw[2])"))
            }
            t.close()
        }
        return found
    }
}
