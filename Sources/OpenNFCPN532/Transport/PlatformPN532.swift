#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Every system call of the PN532 driver, in one place: the serial line (POSIX termios), Linux `i2c-dev`
/// (`I2C_SLAVE`, Documentation/i2c/dev-interface) and `spidev` (`SPI_IOC_MESSAGE`, Documentation/spi/spidev).
enum PlatformPN532 {
    static func errorText() -> String { String(cString: strerror(errno)) }
    static var lastErrno: Int32 { errno }

    /// Opens a device node read/write, without becoming its controlling terminal, non-blocking.
    static func open(_ path: String) throws(PN532Error) -> Int32 {
        let fd = Glibc_open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else {
            let hint = errno == EACCES ? " (add yourself to the dialout/i2c/spi group, or check the udev rules)" : ""
            throw PN532Error(.open, "cannot open \(path): \(errorText())\(hint)")
        }
        return fd
    }

    static func close(_ fd: Int32) { _ = Glibc_close(fd) }

    /// The termios speed constant of a baud rate the PN532 HSU offers (UM0701-02 §7.2.8).
    static func speed(_ baud: Int) -> speed_t? {
        switch baud {
        case 9600: return speed_t(B9600)
        case 19200: return speed_t(B19200)
        case 38400: return speed_t(B38400)
        case 57600: return speed_t(B57600)
        case 115_200: return speed_t(B115200)
        case 230_400: return speed_t(B230400)
        #if os(Linux)
            case 460_800: return speed_t(B460800)
            case 921_600: return speed_t(B921600)
        #endif
        default: return nil
        }
    }

    /// 8N1, raw, no flow control, at `baud` (the PN532 HSU, UM0701-02 §6.2.2).
    static func configureSerial(_ fd: Int32, path: String, baud: Int) throws(PN532Error) {
        guard let s = speed(baud) else { throw PN532Error(.open, "\(baud) baud is not a PN532 HSU speed") }
        var t = termios()
        guard tcgetattr(fd, &t) == 0 else { throw PN532Error(.open, "\(path) is not a serial port: \(errorText())") }
        cfmakeraw(&t)
        t.c_cflag |= tcflag_t(CLOCAL) | tcflag_t(CREAD)
        t.c_cflag &= ~(tcflag_t(CSTOPB) | tcflag_t(PARENB))
        cfsetispeed(&t, s)
        cfsetospeed(&t, s)
        guard tcsetattr(fd, TCSANOW, &t) == 0 else {
            throw PN532Error(.open, "cannot set \(path) to \(baud) baud: \(errorText())")
        }
        _ = tcflush(fd, TCIOFLUSH)
    }

    static func flushInput(_ fd: Int32) { _ = tcflush(fd, TCIFLUSH) }

    /// Waits up to `milliseconds` for input; false on timeout. Throws when the device went away.
    static func waitReadable(_ fd: Int32, milliseconds: Int, name: String) throws(PN532Error) -> Bool {
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let r = poll(&p, 1, Int32(clamping: milliseconds))
            if r < 0 && errno == EINTR { continue }
            if r < 0 { throw PN532Error(.unplugged, "\(name): \(errorText())") }
            if r == 0 { return false }
            if p.revents & Int16(POLLIN) != 0 { return true }
            throw PN532Error(.unplugged, "\(name) hung up (the adapter was unplugged?)")
        }
    }

    /// Reads what is there (at most `max` bytes); throws when the device is gone.
    static func read(_ fd: Int32, max: Int, name: String) throws(PN532Error) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: Swift.max(max, 1))
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc_read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return [] }
            if n < 0 { throw PN532Error(.unplugged, "reading \(name): \(errorText()) (the adapter was unplugged?)") }
            if n == 0 { throw PN532Error(.unplugged, "\(name) closed (the adapter was unplugged?)") }
            return Array(buffer[0..<n])
        }
    }

    static func write(_ fd: Int32, _ bytes: [UInt8], name: String) throws(PN532Error) {
        var sent = 0
        var waits = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc_write(fd, $0.baseAddress! + sent, bytes.count - sent) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
                waits += 1
                if waits > 10 || poll(&p, 1, 100) <= 0 {
                    throw PN532Error(.timeout, "\(name) does not take more bytes (output blocked)")
                }
                continue
            }
            if n < 0 { throw PN532Error(.unplugged, "writing \(name): \(errorText()) (the adapter was unplugged?)") }
            sent += n
        }
    }

    /// Blocking I/O for the I2C and SPI nodes (each transfer is one bus transaction).
    static func setBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        if flags >= 0 { _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) }
    }

    /// `ioctl(fd, I2C_SLAVE, address)` (linux/i2c-dev.h: I2C_SLAVE = 0x0703).
    static func i2cSetAddress(_ fd: Int32, _ address: UInt8, name: String) throws(PN532Error) {
        #if os(Linux)
            guard ioctl(fd, 0x0703, CInt(address)) == 0 else {
                throw PN532Error(.open, "\(name): cannot address I2C device 0x24: \(errorText())")
            }
        #else
            throw PN532Error(.unsupported, "I2C needs Linux i2c-dev")
        #endif
    }

    /// One SPI chip-select window: `tx` clocked out, then `rxCount` bytes clocked in (two `spi_ioc_transfer`s in one
    /// `SPI_IOC_MESSAGE(2)`, linux/spi/spidev.h), mode 0 at `speedHz`.
    static func spiTransfer(
        _ fd: Int32, tx: [UInt8], rxCount: Int, speedHz: UInt32, name: String
    ) throws(PN532Error) -> [UInt8] {
        #if os(Linux)
            var rx = [UInt8](repeating: 0, count: rxCount)
            // struct spi_ioc_transfer: tx_buf u64, rx_buf u64, len u32, speed_hz u32, delay_usecs u16,
            // bits_per_word u8, cs_change u8, tx_nbits u8, rx_nbits u8, word_delay_usecs u8, pad u8 = 32 bytes.
            var message = [UInt8](repeating: 0, count: 64)
            func put<T: FixedWidthInteger>(_ v: T, at offset: Int) {
                withUnsafeBytes(of: v.littleEndian) { for (i, b) in $0.enumerated() { message[offset + i] = b } }
            }
            let result: Int32 = tx.withUnsafeBytes { txp in
                rx.withUnsafeMutableBytes { rxp in
                    put(UInt64(UInt(bitPattern: txp.baseAddress)), at: 0)
                    put(UInt32(tx.count), at: 16)
                    put(speedHz, at: 20)
                    message[26] = 8
                    put(UInt64(UInt(bitPattern: rxp.baseAddress)), at: 32 + 8)
                    put(UInt32(rxCount), at: 32 + 16)
                    put(speedHz, at: 32 + 20)
                    message[32 + 26] = 8
                    let count = rxCount > 0 ? 2 : 1
                    let request = UInt(0x4000_0000 | (32 * count) << 16 | 0x6B00)
                    return message.withUnsafeMutableBytes { ioctl(fd, request, $0.baseAddress!) }
                }
            }
            guard result >= 0 else { throw PN532Error(.unplugged, "SPI transfer on \(name): \(errorText())") }
            return rx
        #else
            throw PN532Error(.unsupported, "SPI needs Linux spidev")
        #endif
    }

    /// Hardware pacing for the I2C and SPI ready polls (the chip has no other way to say "ready" without its IRQ
    /// line): a real pause, injected so tests never wait.
    static func pause(milliseconds: Int) {
        var ts = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
        _ = nanosleep(&ts, nil)
    }

    /// Serial port nodes a probe may try (`/dev/ttyUSB*`, `ttyACM*`, `ttyAMA*`, `ttyS*` whose names end in a digit).
    static func serialPorts() -> [String] {
        guard let dir = opendir("/dev") else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            let families = ["ttyUSB", "ttyACM", "ttyAMA", "ttyS"]
            guard families.contains(where: { name.hasPrefix($0) }), name.last?.isNumber == true else { continue }
            out.append("/dev/" + name)
        }
        return out.sorted()
    }
}

#if canImport(Glibc)
    @inline(__always) private func Glibc_open(_ p: String, _ f: Int32) -> Int32 { Glibc.open(p, f) }
    @inline(__always) private func Glibc_read(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int {
        Glibc.read(fd, p, n)
    }
    @inline(__always) private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
        Glibc.write(fd, p, n)
    }
    @inline(__always) private func Glibc_close(_ fd: Int32) -> Int32 { Glibc.close(fd) }
#else
    @inline(__always) private func Glibc_open(_ p: String, _ f: Int32) -> Int32 { Darwin.open(p, f) }
    @inline(__always) private func Glibc_read(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int {
        Darwin.read(fd, p, n)
    }
    @inline(__always) private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
        Darwin.write(fd, p, n)
    }
    @inline(__always) private func Glibc_close(_ fd: Int32) -> Int32 { Darwin.close(fd) }
#endif
