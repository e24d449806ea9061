/// The PN532 on a serial line (HSU, UM0701-02 §6.2.2): 8N1 at 115200 baud after reset, raw bytes, the wake-up
/// `55 55 00 00 00 00 00 00 00 00 00 00 00 00 00 00` before the first command (the PN532/C106 starts in low-battery
/// mode, AN10609 §3.1.2.3) and after PowerDown. Works on USB-serial adapters and on pseudo-terminals (the virtual
/// PN532).
package final class PN532SerialTransport: PN532Transport {
    package let path: String
    package let baudRate: Int
    private var fd: Int32

    /// The HSU wake-up sequence.
    package static let wakeUpBytes: [UInt8] = [0x55, 0x55] + [UInt8](repeating: 0x00, count: 14)

    package init(path: String, baudRate: Int = 115_200) throws(PN532Error) {
        self.path = path
        self.baudRate = baudRate
        fd = try PlatformPN532.open(path)
        do { try PlatformPN532.configureSerial(fd, path: path, baud: baudRate) } catch {
            PlatformPN532.close(fd)
            throw error
        }
    }

    deinit { close() }

    package var name: String { "\(path) at \(baudRate) baud" }

    package func wakeUp() throws(PN532Error) { try write(Self.wakeUpBytes) }

    package func write(_ frame: [UInt8]) throws(PN532Error) {
        guard fd >= 0 else { throw PN532Error(.unplugged, "\(path) is closed") }
        try PlatformPN532.write(fd, frame, name: path)
    }

    package func read(expected: Int, timeoutMilliseconds: Int) throws(PN532Error) -> [UInt8] {
        guard fd >= 0 else { throw PN532Error(.unplugged, "\(path) is closed") }
        guard try PlatformPN532.waitReadable(fd, milliseconds: timeoutMilliseconds, name: path) else { return [] }
        return try PlatformPN532.read(fd, max: 4096, name: path)
    }

    package func discardInput() {
        if fd >= 0 { PlatformPN532.flushInput(fd) }
    }

    package func close() {
        if fd >= 0 { PlatformPN532.close(fd) }
        fd = -1
    }
}
