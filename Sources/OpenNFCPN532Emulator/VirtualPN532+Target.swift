internal import Foundation
internal import OpenNFCRF
package import OpenNFCSimulation

/// What target mode shares between the host's thread (the pseudo-terminal server) and the initiator's (a reader
/// exchanging with ``VirtualPN532/emulatedCard``): guarded by one condition, which is also the chip's lock.
final class TargetModeMailbox: @unchecked Sendable {
    enum State {
        case off
        /// TgInitAsTarget is waiting for an initiator to activate the emulated card.
        case waitingForInitiator
        case active
    }

    let condition = NSCondition()
    var state = State.off
    var activation: VirtualActivation?
    /// TgGetData (or TgGetInitiatorCommand) waits for the initiator's next command; its answer code.
    var hostWaiting: UInt8?
    var fromInitiator: [[UInt8]] = []
    var toInitiator: [UInt8]?
    var released = false
    /// How long the emulated card waits for the host's TgSetData before it stays silent (wall time: the host is
    /// another program).
    var answerTimeout: TimeInterval = 5
}

/// Target mode (UM0701-02 §7.3.14–21): the PN532 as a card, ISO/IEC 14443-4 PICC at 106 kbit/s type A.
///
/// | Command | Behaviour |
/// |---|---|
/// | TgInitAsTarget `8C` Mode MifareParams(6) FeliCaParams(18) NFCID3t(10) LEN Gt LEN Tk | the emulated card takes SENS_RES (LSB first), UID `08` + NFCID1t(3), SEL_RES and an ATS with the historical bytes Tk; the answer waits until an initiator activates the card: `08` (106 kbit/s, ISO/IEC 14443-4 PICC) and the initiator's RATS `E0 80` |
/// | TgGetData `86` / TgGetInitiatorCommand `88` | `00` and the initiator's next APDU (waiting for it); `29` once the initiator released the card |
/// | TgSetData `8E` / TgResponseToInitiator `90` | `00`; the data is the card's answer |
/// | TgGetTargetStatus `8A` | `01` activated, `00` otherwise; bit rates 106 |
/// | TgSetGeneralBytes `92`, TgSetMetaData `94` | `00` (no NFC-DEP here) |
///
/// The card is ``emulatedCard``: put it in a ``VirtualField`` and read it with any reader frontend. A host ACK
/// abandons a waiting TgInitAsTarget or TgGetData, as on the chip.
extension VirtualPN532 {
    /// Feeds host bytes under the chip's lock and returns the chip's answers (in-process use and tests).
    package func serve(_ bytes: [UInt8]) -> [UInt8] {
        targetMode.condition.lock()
        defer { targetMode.condition.unlock() }
        return receive(bytes)
    }

    /// Feeds host bytes under the chip's lock and writes the answers while still holding it, so a later answer
    /// (``asyncOutput``) can never overtake them.
    package func serve(_ bytes: [UInt8], write: ([UInt8]) -> Void) {
        targetMode.condition.lock()
        defer { targetMode.condition.unlock() }
        let out = receive(bytes)
        if !out.isEmpty { write(out) }
    }

    /// The card the chip presents in target mode (a ``VirtualTag`` for any virtual field).
    package var emulatedCard: PN532EmulatedCard { PN532EmulatedCard(chip: self) }

    func abandonTargetWait() {
        let m = targetMode
        m.hostWaiting = nil
        if m.state == .waitingForInitiator { m.state = .off }
    }

    func targetCommand(_ code: UInt8, _ p: [UInt8]) -> [UInt8]? {
        let m = targetMode
        switch code {
        case 0x8C:
            guard p.count >= 37 else { return nil }
            let lenGt = Int(p[35])
            guard p.count >= 36 + lenGt + 1 else { return nil }
            let lenTk = Int(p[36 + lenGt])
            guard p.count == 37 + lenGt + lenTk else { return nil }
            let tk = Array(p[(37 + lenGt)...])
            let sensRes = UInt16(p[2]) << 8 | UInt16(p[1])
            // ATS (ISO/IEC 14443-4 §5.2): T0 78 (TA, TB, TC; FSCI 8 = 256), TA 80, TB 80 (FWI 8), TC 00, then Tk.
            let ats: [UInt8] = [UInt8(5 + tk.count), 0x78, 0x80, 0x80, 0x00] + tk
            m.activation = VirtualActivation(uid: [0x08] + p[3..<6], sensRes: sensRes, selRes: p[6] | 0x20, ats: ats)
            m.state = .waitingForInitiator
            m.released = false
            m.fromInitiator = []
            m.toInitiator = nil
            m.condition.broadcast()
            return []
        case 0x86, 0x88:
            guard p.isEmpty else { return nil }
            guard m.state != .off else { return [code + 1, 0x27] }
            if !m.fromInitiator.isEmpty { return [code + 1, 0x00] + m.fromInitiator.removeFirst() }
            if m.released { return [code + 1, 0x29] }
            m.hostWaiting = code + 1
            return []
        case 0x8E, 0x90:
            guard m.state == .active else { return [code + 1, 0x27] }
            if m.released { return [code + 1, 0x29] }
            m.toInitiator = p
            m.condition.broadcast()
            return [code + 1, 0x00]
        case 0x8A:
            return [0x8B, m.state == .active && !m.released ? 0x01 : 0x00, 0x00]
        case 0x92, 0x94:
            return [code + 1, 0x00]
        default:
            return nil
        }
    }
}

/// The card a ``VirtualPN532`` in target mode presents to an initiator: each APDU goes to the host (TgGetData) and
/// the host's TgSetData is the answer. Activation (RATS by the field) completes the host's TgInitAsTarget.
package final class PN532EmulatedCard: VirtualTag {
    private let pn532: VirtualPN532

    init(chip: VirtualPN532) { self.pn532 = chip }

    package var chip: String { "PN532 target" }

    package var activation: VirtualActivation {
        let m = pn532.targetMode
        m.condition.lock()
        defer { m.condition.unlock() }
        return m.activation ?? VirtualActivation(uid: [0x08, 0x00, 0x00, 0x00], sensRes: 0x0004, selRes: 0x20)
    }

    package func powerOn() {}

    /// Activation by an initiator: the host's waiting TgInitAsTarget is answered with mode `08` and the RATS.
    package func reset() {
        let m = pn532.targetMode
        m.condition.lock()
        defer { m.condition.unlock() }
        guard m.state == .waitingForInitiator else { return }
        m.state = .active
        pn532.asyncOutput?(PN532HostLink.frame([0x8D, 0x08, 0xE0, 0x80]))
    }

    package func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        let m = pn532.targetMode
        m.condition.lock()
        defer { m.condition.unlock() }
        guard m.state == .active, !m.released else { return .silence }
        m.toInitiator = nil
        if let code = m.hostWaiting {
            m.hostWaiting = nil
            pn532.asyncOutput?(PN532HostLink.frame([code, 0x00] + frame))
        } else {
            m.fromInitiator.append(frame)
        }
        let deadline = Date().addingTimeInterval(m.answerTimeout)
        while m.toInitiator == nil && !m.released {
            if !m.condition.wait(until: deadline) { break }
        }
        guard let answer = m.toInitiator else { return .silence }
        m.toInitiator = nil
        return .data(answer)
    }

    /// The initiator lets the card go (field off, DESELECT): a waiting TgGetData gets `29`.
    package func release() {
        let m = pn532.targetMode
        m.condition.lock()
        defer { m.condition.unlock() }
        m.released = true
        if let code = m.hostWaiting {
            m.hostWaiting = nil
            pn532.asyncOutput?(PN532HostLink.frame([code, 0x29]))
        }
        m.condition.broadcast()
    }
}

extension VirtualPN532 {
    /// Waits (up to `seconds` of wall time) until a host has sent TgInitAsTarget; for tests and tools that then
    /// bring a reader.
    package func waitForTargetMode(seconds: Double) -> Bool {
        let m = targetMode
        m.condition.lock()
        defer { m.condition.unlock() }
        let deadline = Date().addingTimeInterval(seconds)
        while m.state == .off {
            if !m.condition.wait(until: deadline) { return m.state != .off }
        }
        return true
    }
}
