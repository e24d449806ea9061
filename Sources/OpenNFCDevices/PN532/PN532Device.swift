internal import OpenNFCPN532
internal import OpenNFCRF
internal import OpenNFCSystem

/// The `pn532:` device: a PN532 on a serial line, I2C or SPI, through OpenNFCPN532's ``PN532Frontend``
/// (docs/PN532.md). The virtual PN532 of `opennfc emulate --pn532` is one too, on its pseudo-terminal.
///
/// | Device string | Link |
/// |---|---|
/// | `pn532:/dev/ttyUSB0[:<baud>]` | HSU, 115200 baud by default |
/// | `pn532:i2c:/dev/i2c-1` | I2C address 0x24 |
/// | `pn532:spi:/dev/spidev0.0[:<Hz>]` | SPI mode 0, LSB first, 1 MHz by default |
///
/// The system runs on the wall clock and polls every 250 ms; a tag command polls the same way.
enum PN532Device {
    static let scheme = DeviceScheme(
        name: "pn532", usage: "pn532:<tty>[:<baud>]",
        help: "pn532:<tty>[:<baud>] | pn532:i2c:<dev> | pn532:spi:<dev>[:<Hz>] — an NXP PN532 (docs/PN532.md)"
    ) { (argument: String, use: DeviceUse) throws(DeviceError) -> OpenedDevice in
        let frontend: PN532Frontend
        do throws(PN532Error) {
            frontend = try PN532DeviceString(parsing: argument).open()
        } catch {
            throw DeviceError(error.detail, kind: error.code == .open ? .unavailable : .failure)
        }
        var opened = OpenedDevice(
            frontend: use == .phone ? InstrumentedFrontend(frontend) : frontend, clock: .wall,
            pollInterval: .milliseconds(250))
        opened.name = "pn532:\(argument) (\(frontend.firmwareDescription))"
        return opened
    }
}
