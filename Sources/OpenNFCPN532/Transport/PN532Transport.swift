/// The byte link to a PN532: HSU (UART), I2C or SPI (UM0701-02 §6.2.2–6.2.5). The driver speaks frames
/// (``PN532Frame``) over it and does not know which one it is.
package protocol PN532Transport: AnyObject {
    /// Where the chip is, for messages (`/dev/ttyUSB0 at 115200 baud`, `/dev/i2c-1 address 0x24`).
    var name: String { get }

    /// Wakes the chip before a command after power-on or PowerDown (HSU: `55 55` and zeros, UM0701-02 §6.2.2,
    /// AN10609 §3.1.2.3 for the C106's low-battery start; I2C and SPI: nothing, or the chip-select wake).
    func wakeUp() throws(PN532Error)

    /// Writes one whole frame.
    func write(_ frame: [UInt8]) throws(PN532Error)

    /// Bytes from the chip: waits up to `timeoutMilliseconds` for the first; returns what arrived, `[]` when nothing
    /// did. `expected` is the most the driver wants now (the I2C and SPI links read in transactions of that size;
    /// the serial line returns whatever is there).
    func read(expected: Int, timeoutMilliseconds: Int) throws(PN532Error) -> [UInt8]

    /// Discards bytes the chip sent that nobody asked for (before a new command).
    func discardInput()

    /// Releases the device.
    func close()
}

extension PN532Transport {
    package func discardInput() {}
}
