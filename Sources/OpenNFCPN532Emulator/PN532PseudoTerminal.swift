/// Serves a ``VirtualPN532`` on a pseudo-terminal, as a PN532 on a USB-serial adapter appears (HSU, UM0701-02 §6.2.2):
/// libnfc's `pn532_uart:` driver, nfcpy's `tty:` and our `pn532:` device open ``path`` and talk to the chip. The line
/// speed a client sets does not matter on a pseudo-terminal; SetSerialBaudRate is still answered.
package final class PN532PseudoTerminal: @unchecked Sendable {
    /// The device path clients open (`/dev/pts/N`).
    package let path: String
    /// The symlink made to ``path``, if one was asked for.
    package let link: String?
    package let chip: VirtualPN532
    private let master: Int32
    private let slave: Int32
    private let stopPipe: (read: Int32, write: Int32)

    package init(chip: VirtualPN532, link: String? = nil) throws(PN532EmulatorError) {
        let opened = try PlatformPseudoTerminal.open()
        let pipe: (read: Int32, write: Int32)
        do {
            pipe = try PlatformPseudoTerminal.pipe()
            if let link { try PlatformPseudoTerminal.symlink(opened.path, at: link) }
        } catch {
            _ = PlatformPseudoTerminal.close(opened.master)
            _ = PlatformPseudoTerminal.close(opened.slave)
            throw error
        }
        self.chip = chip
        self.path = opened.path
        self.master = opened.master
        self.slave = opened.slave
        self.stopPipe = pipe
        self.link = link
        let master = opened.master
        chip.asyncOutput = { bytes in PlatformPseudoTerminal.write(master, bytes) }
    }

    deinit {
        _ = PlatformPseudoTerminal.close(master)
        _ = PlatformPseudoTerminal.close(slave)
        _ = PlatformPseudoTerminal.close(stopPipe.read)
        _ = PlatformPseudoTerminal.close(stopPipe.write)
        if let link { PlatformPseudoTerminal.removeLink(link) }
    }

    /// Answers the host until ``stop()`` is called. Blocks the calling thread.
    package func run() {
        // The symlink goes with the server: a stopped emulation leaves no path pointing at a dead pty.
        defer { if let link { PlatformPseudoTerminal.removeLink(link) } }
        while true {
            switch PlatformPseudoTerminal.wait(master, stop: stopPipe.read) {
            case .stop, .hangUp: return
            case .data:
                guard let bytes = PlatformPseudoTerminal.read(master) else { return }
                let master = self.master
                chip.serve(bytes) { PlatformPseudoTerminal.write(master, $0) }
            }
        }
    }

    /// Makes ``run()`` return (from any thread, a signal handler's queue included).
    package func stop() { PlatformPseudoTerminal.write(stopPipe.write, [0x01]) }
}
