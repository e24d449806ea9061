import OpenNFCPN532
import OpenNFCPN532Emulator

/// A transport played from a script: each write is recorded, and each read takes the next scripted outcome.
final class ScriptedTransport: PN532Transport {
    enum Read {
        case bytes([UInt8])
        case timeout
        case unplugged
    }

    var name = "scripted link"
    var reads: [Read]
    private(set) var writes: [[UInt8]] = []
    private(set) var wakeUps = 0

    init(_ reads: [Read]) { self.reads = reads }

    func wakeUp() throws(PN532Error) { wakeUps += 1 }
    func write(_ frame: [UInt8]) throws(PN532Error) { writes.append(frame) }

    func read(expected: Int, timeoutMilliseconds: Int) throws(PN532Error) -> [UInt8] {
        guard !reads.isEmpty else { return [] }
        switch reads.removeFirst() {
        case .bytes(let b): return b
        case .timeout: return []
        case .unplugged: throw PN532Error(.unplugged, "\(name) was unplugged")
        }
    }

    func close() {}
    var allRead: Bool { reads.isEmpty }
}

/// A serial-like link straight into a virtual PN532, delivering its answers in small pieces (as a UART does).
final class LoopbackTransport: PN532Transport {
    let chip: VirtualPN532
    var pending: [UInt8] = []
    var piece = 5
    var name: String { "loopback" }

    init(_ chip: VirtualPN532) { self.chip = chip }

    func wakeUp() throws(PN532Error) { pending += chip.serve([0x55, 0x55] + [UInt8](repeating: 0, count: 14)) }
    func write(_ frame: [UInt8]) throws(PN532Error) { pending += chip.serve(frame) }

    func read(expected: Int, timeoutMilliseconds: Int) throws(PN532Error) -> [UInt8] {
        let n = min(piece, pending.count)
        let out = Array(pending.prefix(n))
        pending.removeFirst(n)
        return out
    }

    func close() {}
}

/// The PN532's I2C side (UM0701-02 §6.2.4) around a virtual PN532: reads begin with the status byte, RDY once the
/// chip has bytes; nothing is ready for the first `busyPolls` reads after each write.
final class VirtualI2CBus: PN532I2CBus {
    let chip: VirtualPN532
    var pending: [UInt8] = []
    var busyPolls = 2
    var busy = 0
    private(set) var transactions = 0
    var name: String { "virtual i2c" }

    init(_ chip: VirtualPN532) { self.chip = chip }

    func write(_ bytes: [UInt8]) throws(PN532Error) {
        transactions += 1
        pending += chip.serve(bytes)
        busy = busyPolls
    }

    func read(_ count: Int) throws(PN532Error) -> [UInt8] {
        transactions += 1
        if busy > 0 || pending.isEmpty {
            busy -= 1
            return [UInt8](repeating: 0, count: count)
        }
        // After the ACK the answer is a separate ready event: hand out the ACK alone when it leads.
        let take = pending.starts(with: [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]) ? 6 : min(count - 1, pending.count)
        let out = [0x01] + pending.prefix(take)
        pending.removeFirst(take)
        return out + [UInt8](repeating: 0, count: max(0, count - out.count))
    }

    func close() {}
}

/// The PN532's SPI side (UM0701-02 §6.2.5) around a virtual PN532: LSB-first bytes, `01` DW, `02` SR, `03` DR.
final class VirtualSPIBus: PN532SPIBus {
    let chip: VirtualPN532
    var pending: [UInt8] = []
    var name: String { "virtual spi" }

    init(_ chip: VirtualPN532) { self.chip = chip }

    static func reversed(_ b: UInt8) -> UInt8 {
        var r: UInt8 = 0
        for i in 0..<8 where b & (1 << i) != 0 { r |= 0x80 >> i }
        return r
    }

    func transfer(_ tx: [UInt8], rxCount: Int) throws(PN532Error) -> [UInt8] {
        let bytes = tx.map(Self.reversed)
        switch bytes.first {
        case 0x01?:
            pending += chip.serve(Array(bytes.dropFirst()))
            return []
        case 0x02?:
            return [Self.reversed(pending.isEmpty ? 0x00 : 0x01)]
        case 0x03?:
            let take = pending.starts(with: [0x00, 0x00, 0xFF, 0x00, 0xFF, 0x00]) ? 6 : min(rxCount, pending.count)
            let out = Array(pending.prefix(take))
            pending.removeFirst(take)
            return (out + [UInt8](repeating: 0, count: rxCount - out.count)).map(Self.reversed)
        default:
            throw PN532Error(.garbled, "unknown SPI direction byte")
        }
    }

    func close() {}
}
