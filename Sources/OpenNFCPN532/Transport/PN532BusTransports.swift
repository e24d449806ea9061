/// One I2C device, as `i2c-dev` offers it: whole write and read transactions.
package protocol PN532I2CBus: AnyObject {
    var name: String { get }
    func write(_ bytes: [UInt8]) throws(PN532Error)
    func read(_ count: Int) throws(PN532Error) -> [UInt8]
    func close()
}

/// One SPI device, as `spidev` offers it: a chip-select window that clocks `tx` out and then `rxCount` bytes in.
package protocol PN532SPIBus: AnyObject {
    var name: String { get }
    func transfer(_ tx: [UInt8], rxCount: Int) throws(PN532Error) -> [UInt8]
    func close()
}

/// The PN532 on I2C (UM0701-02 §6.2.4; address `0x24`): the host writes frames; every read begins with a status byte
/// whose bit 0 (RDY) says whether the chip has something to say, the frame follows in the same transaction.
package final class PN532I2CTransport: PN532Transport {
    let bus: any PN532I2CBus
    /// Ready polls are paced; injected so tests do not wait.
    let pause: (Int) -> Void
    /// Milliseconds between two ready polls.
    package var pollInterval = 2

    package init(bus: any PN532I2CBus, pause: @escaping (Int) -> Void) {
        self.bus = bus
        self.pause = pause
    }

    package var name: String { bus.name }
    /// The PN532 holds SCL while it wakes up (UM0701-02 §6.2.4.2): nothing to send.
    package func wakeUp() throws(PN532Error) {}
    package func write(_ frame: [UInt8]) throws(PN532Error) { try bus.write(frame) }

    package func read(expected: Int, timeoutMilliseconds: Int) throws(PN532Error) -> [UInt8] {
        var waited = 0
        while true {
            let bytes = try bus.read(expected + 1)
            if let status = bytes.first, status & 0x01 != 0 { return Array(bytes.dropFirst()) }
            guard waited < timeoutMilliseconds else { return [] }
            pause(pollInterval)
            waited += pollInterval
        }
    }

    package func close() { bus.close() }
}

/// The PN532 on SPI (UM0701-02 §6.2.5): mode 0, least significant bit first (done here, as most controllers
/// only shift MSB first); each window starts with `01` data write, `02` status read (answer bit 0 = ready) or
/// `03` data read.
package final class PN532SPITransport: PN532Transport {
    let bus: any PN532SPIBus
    let pause: (Int) -> Void
    package var pollInterval = 2

    package init(bus: any PN532SPIBus, pause: @escaping (Int) -> Void) {
        self.bus = bus
        self.pause = pause
    }

    package var name: String { bus.name }

    static func reversed(_ b: UInt8) -> UInt8 {
        var r: UInt8 = 0
        for i in 0..<8 where b & (1 << i) != 0 { r |= 0x80 >> i }
        return r
    }

    /// A chip asleep keeps MISO high; a status read wakes it (AN10609 §3.2, the C106 SPI note).
    package func wakeUp() throws(PN532Error) { _ = try bus.transfer([Self.reversed(0x02)], rxCount: 1) }

    package func write(_ frame: [UInt8]) throws(PN532Error) {
        _ = try bus.transfer(([0x01] + frame).map(Self.reversed), rxCount: 0)
    }

    package func read(expected: Int, timeoutMilliseconds: Int) throws(PN532Error) -> [UInt8] {
        var waited = 0
        while true {
            let status = try bus.transfer([Self.reversed(0x02)], rxCount: 1).map(Self.reversed)
            if status.first.map({ $0 & 0x01 != 0 }) == true { break }
            guard waited < timeoutMilliseconds else { return [] }
            pause(pollInterval)
            waited += pollInterval
        }
        return try bus.transfer([Self.reversed(0x03)], rxCount: expected).map(Self.reversed)
    }

    package func close() { bus.close() }
}

/// `/dev/i2c-N` through `i2c-dev`.
package final class LinuxI2CBus: PN532I2CBus {
    package let path: String
    private var fd: Int32

    package init(path: String, address: UInt8 = 0x24) throws(PN532Error) {
        self.path = path
        fd = try PlatformPN532.open(path)
        PlatformPN532.setBlocking(fd)
        do { try PlatformPN532.i2cSetAddress(fd, address, name: path) } catch {
            PlatformPN532.close(fd)
            throw error
        }
    }

    deinit { close() }
    package var name: String { "\(path) address 0x24" }
    package func write(_ bytes: [UInt8]) throws(PN532Error) { try PlatformPN532.write(fd, bytes, name: path) }
    package func read(_ count: Int) throws(PN532Error) -> [UInt8] {
        try PlatformPN532.read(fd, max: count, name: path)
    }
    package func close() {
        if fd >= 0 { PlatformPN532.close(fd) }
        fd = -1
    }
}

/// `/dev/spidevB.C` through `spidev`.
package final class LinuxSPIBus: PN532SPIBus {
    package let path: String
    package let speedHz: UInt32
    private var fd: Int32

    package init(path: String, speedHz: UInt32 = 1_000_000) throws(PN532Error) {
        self.path = path
        self.speedHz = speedHz
        fd = try PlatformPN532.open(path)
        PlatformPN532.setBlocking(fd)
    }

    deinit { close() }
    package var name: String { "\(path) at \(speedHz) Hz" }
    package func transfer(_ tx: [UInt8], rxCount: Int) throws(PN532Error) -> [UInt8] {
        try PlatformPN532.spiTransfer(fd, tx: tx, rxCount: rxCount, speedHz: speedHz, name: path)
    }
    package func close() {
        if fd >= 0 { PlatformPN532.close(fd) }
        fd = -1
    }
}
