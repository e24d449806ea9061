// A PN532 is reached on Linux and macOS only (Package.swift links OpenNFCPN532 there; docs/APPLE-PLATFORMS.md).
#if canImport(OpenNFCPN532)
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
    /// The system runs on the wall clock and polls every 250 ms; a tag command polls the same way. For the phone
    /// (`OPENCORENFC_DEVICE`), the device is also the app's card: a `CardSession` is presented to readers through the
    /// chip's target mode (``PN532CardPresenter``), during which reader sessions find no tags.
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
            guard use == .phone else {
                var opened = OpenedDevice(frontend: frontend, clock: .wall, pollInterval: .milliseconds(250))
                opened.name = "pn532:\(argument) (\(frontend.firmwareDescription))"
                return opened
            }
            // The phone: reader sessions and, while the app emulates, its CardSession through target mode.
            let gate = PN532ChipGate()
            let presenter = PN532CardPresenter(frontend: frontend, gate: gate)
            var opened = OpenedDevice(
                frontend: InstrumentedFrontend(PN532GatedFrontend(frontend, gate: gate)), clock: .wall,
                connect: { system in
                    presenter.system = system
                    system.attachCardEmulationDevice(presenter)
                }, pollInterval: .milliseconds(250))
            opened.name = "pn532:\(argument) (\(frontend.firmwareDescription))"
            return opened
        }
    }
#endif
