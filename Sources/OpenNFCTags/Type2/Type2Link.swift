internal import OpenNFCBytes
internal import OpenNFCRF

/// The Type 2 commands the procedures use, over one frontend, with their answers checked
/// (NFC Forum T2T §5; NXP NTAG21x datasheet §10 for FAST_READ and GET_VERSION).
///
/// Reads are idempotent, so a READ or FAST_READ that meets a timeout or a transmission error is sent once more
/// after re-activating the tag (NXP chips fall back to IDLE after an erroneous frame, so a bare retransmission
/// would meet silence). Writes are never repeated: a WRITE whose ACK was lost may or may not have happened.
///
/// Pages are numbered sector × 256 + page: a command for another sector than the selected one is preceded by
/// SECTOR_SELECT (T2T §5.4: `C2 FF` → ACK, then `SS 00 00 00`, whose success is no answer within the passive-ACK
/// time). Every activation starts in sector 0.
final class Type2Link {
    let frontend: any RFFrontend
    /// The activated target, used to re-activate before repeating a read. Nil disables read retries.
    let target: RFTarget?
    /// The sector the tag has selected (0 after activation).
    private(set) var sector = 0

    init(frontend: any RFFrontend, target: RFTarget?) {
        self.frontend = frontend
        self.target = target
    }

    /// SECTOR_SELECT of sector `s`, unless it is selected already: 2 frames.
    func select(sector s: Int) throws(TagError) {
        guard s != sector else { return }
        guard frontend.capabilities.rawFrames else {
            throw TagError(.unsupported, "SECTOR_SELECT \(s) needs raw frames, which this reader does not send")
        }
        let name = "SECTOR_SELECT \(s)"
        let first: RFResponse
        do {
            first = try frontend.exchange([0xC2, 0xFF])
        } catch {
            throw .rf(error, during: "\(name) packet 1")
        }
        switch first {
        case .ack, .frame([0x0A]): break
        case .nak(let n): throw TagError(.commandRejected, "\(name) refused: the tag has no sectors", nak: n)
        default: throw TagError(.invalidResponse, "\(name) packet 1 answered \(first), expected ACK")
        }
        let second: RFResponse
        do {
            second = try frontend.exchange([UInt8(s), 0x00, 0x00, 0x00])
        } catch  where error.code == .timeout {
            sector = s  // the passive ACK: no answer means the sector is selected
            return
        } catch {
            throw .rf(error, during: "\(name) packet 2")
        }
        switch second {
        case .nak(let n): throw TagError(.commandRejected, "\(name) refused: the tag has no sector \(s)", nak: n)
        case .frame(let b) where b.count == 1 && b[0] & 0xFA == 0:
            throw TagError(.commandRejected, "\(name) refused: the tag has no sector \(s)", nak: b[0])
        default: throw TagError(.invalidResponse, "\(name) packet 2 answered \(second), expected no answer")
        }
    }

    /// READ `30 PP`: 16 bytes, pages PP…PP+3 of the page's sector (rolling over past the last page).
    func read(page: Int) throws(TagError) -> [UInt8] {
        let data = try readCommand([0x30, UInt8(page & 0xFF)], sector: page >> 8, name: "READ page \(page)")
        guard data.count == 16 else {
            throw TagError(.invalidResponse, "READ page \(page) answered \(data.count) bytes, expected 16")
        }
        return data
    }

    /// FAST_READ `3A SS EE`: pages SS…EE, 4 bytes each, inside one sector.
    func fastRead(from start: Int, to end: Int) throws(TagError) -> [UInt8] {
        precondition(start >> 8 == end >> 8, "FAST_READ stays inside one sector")
        func name() -> String { "FAST_READ pages \(start)–\(end)" }
        let data = try readCommand(
            [0x3A, UInt8(start & 0xFF), UInt8(end & 0xFF)], sector: start >> 8, name: name())
        let expected = (end - start + 1) * 4
        guard data.count == expected else {
            throw TagError(.invalidResponse, "\(name()) answered \(data.count) bytes, expected \(expected)")
        }
        return data
    }

    /// WRITE `A2 PP d0 d1 d2 d3`, expecting ACK. Never repeated.
    func write(page: Int, _ bytes: [UInt8]) throws(TagError) {
        precondition(bytes.count == 4)
        let name = "WRITE page \(page)"
        try select(sector: page >> 8)
        switch try frontend.exchange([0xA2, UInt8(page & 0xFF)] + bytes, naming: name) {
        case .ack: return
        case .nak(let n): throw TagError(.commandRejected, "\(name) refused", nak: n)
        case .frame(let b) where b.count == 1 && b[0] == 0x0A: return
        case .frame(let b) where b.count == 1 && b[0] & 0xFA == 0:
            throw TagError(.commandRejected, "\(name) refused", nak: b[0])
        case .frame(let b):
            throw TagError(.invalidResponse, "\(name) answered \(b.hexString), expected ACK")
        }
    }

    /// `name` is built only for an error message (a frame is cheaper than its description).
    private func readCommand(
        _ command: [UInt8], sector s: Int, name: @autoclosure () -> String
    ) throws(TagError) -> [UInt8] {
        do {
            try select(sector: s)
            return try readOnce(command, name: name())
        } catch let error where error.code == .rf && target != nil && error.rfError?.allowsRepeatingARead == true {
            do {
                _ = try frontend.activate(target!)
            } catch {
                throw .rf(error, during: "re-activation before repeating \(name())")
            }
            sector = 0
            try select(sector: s)
            return try readOnce(command, name: name())
        }
    }

    /// Wakes the tag again after a NAK or an erroneous frame sent it to IDLE/HALT (ISO 14443-3 §6.3; NXP chips go
    /// mute after a NAK).
    func reactivate(after command: String) throws(TagError) {
        guard let target else {
            throw TagError(.unsupported, "no target to re-activate after \(command)")
        }
        do {
            _ = try frontend.activate(target)
        } catch {
            throw .rf(error, during: "re-activation after \(command)")
        }
        sector = 0
    }

    private func readOnce(_ command: [UInt8], name: @autoclosure () -> String) throws(TagError) -> [UInt8] {
        switch try frontend.exchange(command, naming: name()) {
        case .frame(let b) where b.count == 1 && b[0] & 0xFA == 0:
            throw TagError(.commandRejected, "\(name()) refused", nak: b[0])
        case .frame(let b): return b
        case .nak(let n): throw TagError(.commandRejected, "\(name()) refused", nak: n)
        case .ack: throw TagError(.invalidResponse, "\(name()) answered ACK, expected data")
        }
    }
}
