internal import OpenNFCBytes
internal import OpenNFCRF
package import OpenNFCSimulation

/// A PN532 (firmware V1.6, PN532/C106) as its host sees it, with the simulation's virtual chips in its field: what
/// `opennfc emulate --pn532` serves on a pseudo-terminal for libnfc, mfoc, libfreefare, nfcpy and our own driver.
///
/// The card side stays the simulation's (``VirtualField``); this type is the chip's firmware between the host link
/// and the field, modelled from NXP UM0701-02 (chapter 6 host link, chapter 7 commands). Bytes go in through
/// ``receive(_:)`` and the chip's ACKs and answers come back.
///
/// | Command (UM0701-02 §) | Behaviour |
/// |---|---|
/// | Diagnose `00` (§7.2.1) | NumTst 00 echoes the line test (NumTst included); 01 ROM, 02 RAM, 06 antenna: `00` OK; 05 card presence: `00` when the selected target still answers, `01` otherwise |
/// | GetFirmwareVersion `02` (§7.2.2) | `32 01 06 07`: PN532, V1.6, ISO 14443 A and B, ISO 18092 |
/// | GetGeneralStatus `04` (§7.2.3) | last error, field, listed targets with bit rates and types, SAM status |
/// | ReadRegister `06` / WriteRegister `08` (§7.2.4–5) | any number of addresses; a 64 K register space (CIU `63xx` included) |
/// | ReadGPIO `0C` / WriteGPIO `0E` (§7.2.6–7) | P3, P7 and I0I1 as written |
/// | SetSerialBaudRate `10` (§7.2.8) | 9600…1288000 baud, switched after the host's ACK |
/// | SetParameters `12` (§7.2.9) | the flags; AutomaticRATS (bit 4) decides whether InListPassiveTarget sends RATS |
/// | SAMConfiguration `14` (§7.2.10) | modes 1–4 accepted (no SAM is attached) |
/// | PowerDown `16` (§7.2.11) | status `00`; the next frame wakes it (the HSU wake-up bytes are skipped) |
/// | RFConfiguration `32` (§7.3.1) | items 01 (field: off power-cycles every tag), 02, 04, 05, 0A–0D with their lengths |
/// | InListPassiveTarget `4A` (§7.3.5) | 106 A (REQA, or WUPA when a UID is given, cascade tags accepted), 212/424 FeliCa, 106 B, Jewel; up to 2 targets |
/// | InDataExchange `40` (§7.3.8) | MIFARE Classic AUTH by the chip's own Crypto1, the two-step WRITE and value operations, Type 1 UID echo, FeliCa LEN, ISO-DEP with chaining (MI) both ways |
/// | InCommunicateThru `42` (§7.3.9) | framing, CRC and parity as the CIU registers say (`6302`/`6303` bit 7, `630D` bit 4, `633D` TxLastBits); RxLastBits in `633C`; REQA/WUPA and anticollision answered; ISO-DEP blocks answered as the card would |
/// | InDeselect `44`, InRelease `52`, InSelect `54` (§7.3.10–12) | HLTA / S(DESELECT), forgetting, WUPA + SELECT (+ RATS) |
/// | InAutoPoll `60` (§7.3.13) | the types in order, one poll each (no waiting: an endless poll answers 0 targets rather than block) |
/// | TgInitAsTarget `8C`, TgGetData `86`, TgSetData `8E` (§7.3.14–17) | target mode; see `VirtualPN532+Target.swift` |
/// | anything else, a malformed frame | the syntax-error frame `00 00 FF 01 FF 7F 81 00` |
///
/// Status codes (§7.1, table 12): `01` timeout, `02` CRC, `03` parity, `0B` RF protocol, `14` MIFARE
/// authentication, `27` not acceptable now, `29` released by the initiator, `2B` card gone. Not modelled: the timed
/// transceive through the CIU FIFO (`6331`/`6339` writes are stored, never run), DEP (InJumpForDEP, InATR), SAM.
///
/// Not thread-safe except where target mode says so: the pseudo-terminal server drives it from one thread.
package final class VirtualPN532 {
    /// The field the chip's antenna covers.
    package let field: VirtualField
    /// The chip's own reader logic over the field: anticollision, RATS/ATTRIB and Crypto1 for InDataExchange.
    let reader: VirtualFieldFrontend
    var registers: [UInt16: UInt8] = [:]
    /// SetParameters flags; AutomaticATR_RES and AutomaticRATS are on after reset.
    var parameters: UInt8 = 0x14
    var fieldOn = true
    /// Targets listed by the last InListPassiveTarget / InAutoPoll, Tg 1 and 2.
    var listed: [ListedTarget] = []
    /// Which listed target is selected (index into ``listed``).
    var selected: Int?
    var lastError: UInt8 = 0
    var lastFrame: [UInt8]?
    var link = PN532HostLink()
    /// The serial speed the host and chip agreed on (SetSerialBaudRate takes effect after the host's ACK).
    package private(set) var baudRate = 115_200
    var pendingBaudRate: Int?
    /// True after PowerDown, until the next frame.
    package private(set) var isAsleep = false
    /// InDataExchange data the host chained with MI, and answer bytes the chip still holds for the host.
    var chainedCommand: [UInt8] = []
    var chainedAnswer: [UInt8] = []
    /// Card-side ISO-DEP block state for InCommunicateThru to an ISO-DEP target.
    var blocks = CardBlockState()
    /// Raw anticollision in progress (after a REQA/WUPA through InCommunicateThru).
    var anticollision: RFTarget?
    /// Target mode (``VirtualPN532/emulatedCard``).
    let targetMode = TargetModeMailbox()
    /// Where answers that come later go (target mode: the initiator's command arrives on another thread); set by
    /// the pseudo-terminal server, or by a test. Called with the chip's lock held.
    package var asyncOutput: (([UInt8]) -> Void)?
    /// Called with each frame, in and out, when set (`opennfc emulate --pn532 --trace`).
    package var trace: ((String) -> Void)?

    /// The largest answer data InDataExchange returns in one frame before chaining with MI (UM0701-02 §7.3.8: 262).
    static let maxDataIn = 262

    struct ListedTarget {
        var target: RFTarget
        /// InListPassiveTarget's BrTy: 00 106 A, 01/02 FeliCa, 03 106 B, 04 Jewel.
        var brTy: UInt8
    }

    package init(field: VirtualField) {
        self.field = field
        reader = VirtualFieldFrontend(field: field, capabilities: .unlimited)
    }

    /// Feeds bytes the host sent and returns what the chip sends back (ACKs and answers, in order).
    package func receive(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for event in link.receive(bytes) {
            switch event {
            case .ack:
                if let rate = pendingBaudRate {
                    baudRate = rate
                    pendingBaudRate = nil
                }
                chainedCommand = []
                abandonTargetWait()
            case .nack:
                out += lastFrame ?? []
            case .malformed(let why):
                trace?("host frame malformed: \(why)")
                out += PN532HostLink.syntaxError
            case .command(let command):
                isAsleep = false
                trace?("> D4 \(Hex.encode(command, separator: " "))")
                out += PN532HostLink.ack
                let result = command.isEmpty ? nil : execute(command)
                // An empty result is answered later (target mode waits for its initiator).
                if result?.isEmpty == true { continue }
                let answer: [UInt8]
                if let data = result {
                    answer = PN532HostLink.frame(data)
                    trace?("< D5 \(Hex.encode(data, separator: " "))")
                } else {
                    answer = PN532HostLink.syntaxError
                    trace?("< syntax error")
                }
                lastFrame = answer
                out += answer
            }
        }
        return out
    }

    /// One command `code parameters…` → the answer's data `code+1 …`, or nil for the syntax-error frame.
    func execute(_ command: [UInt8]) -> [UInt8]? {
        let p = Array(command.dropFirst())
        switch command[0] {
        case 0x00: return diagnose(p)
        case 0x02: return p.isEmpty ? [0x03, 0x32, 0x01, 0x06, 0x07] : nil
        case 0x04: return generalStatus()
        case 0x06:
            guard !p.isEmpty, p.count % 2 == 0 else { return nil }
            return [0x07] + stride(from: 0, to: p.count, by: 2).map { register(UInt16(p[$0]) << 8 | UInt16(p[$0 + 1])) }
        case 0x08:
            guard !p.isEmpty, p.count % 3 == 0 else { return nil }
            for i in stride(from: 0, to: p.count, by: 3) {
                registers[UInt16(p[i]) << 8 | UInt16(p[i + 1])] = p[i + 2]
            }
            return [0x09]
        case 0x0C: return [0x0D, register(0xFFB0), register(0xFFF7), 0x00]
        case 0x0E:
            guard p.count == 2 else { return nil }
            if p[0] & 0x80 != 0 { registers[0xFFB0] = p[0] & 0x3F }
            if p[1] & 0x80 != 0 { registers[0xFFF7] = p[1] & 0x06 }
            return [0x0F]
        case 0x10:
            let rates = [9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 921_600, 1_288_000]
            guard p.count == 1, Int(p[0]) < rates.count else { return nil }
            pendingBaudRate = rates[Int(p[0])]
            return [0x11]
        case 0x12:
            guard p.count == 1 else { return nil }
            parameters = p[0]
            return [0x13]
        case 0x14:
            guard (1...3).contains(p.count), (1...4).contains(p[0]) else { return nil }
            return [0x15]
        case 0x16:
            guard (1...2).contains(p.count) else { return nil }
            isAsleep = true
            return [0x17, 0x00]
        case 0x32: return rfConfiguration(p)
        case 0x40: return inDataExchange(p)
        case 0x42: return [0x43] + inCommunicateThru(p)
        case 0x44: return deselect(p, release: false)
        case 0x4A: return inListPassiveTarget(p)
        case 0x52: return deselect(p, release: true)
        case 0x54: return inSelect(p)
        case 0x60: return inAutoPoll(p)
        case 0x86, 0x88, 0x8A, 0x8C, 0x8E, 0x90, 0x92, 0x94: return targetCommand(command[0], p)
        default: return nil
        }
    }

    func register(_ address: UInt16) -> UInt8 { registers[address] ?? 0 }

    private func diagnose(_ p: [UInt8]) -> [UInt8]? {
        guard let test = p.first else { return nil }
        switch test {
        case 0x00: return [0x01] + p
        case 0x01, 0x02, 0x07: return [0x01, 0x00]
        case 0x04: return [0x01, 0x00]
        case 0x05, 0x06:
            guard let i = selected, field.tag(listed[i].target.handle) != nil else { return [0x01, 0x01] }
            return [0x01, 0x00]
        default: return nil
        }
    }

    private func generalStatus() -> [UInt8] {
        var out: [UInt8] = [0x05, lastError, fieldOn ? 0x01 : 0x00, UInt8(listed.count)]
        for (i, t) in listed.enumerated() {
            let rate: UInt8 = t.brTy == 0x02 ? 0x02 : t.brTy == 0x01 ? 0x01 : 0x00
            let type: UInt8 =
                switch t.brTy {
                case 0x00: t.target.isISODEP ? 0x20 : 0x10
                case 0x01, 0x02: 0x11
                case 0x03: 0x23
                default: 0x04
                }
            out += [UInt8(i + 1), rate, rate, type]
        }
        return out + [0x00]
    }

    private func rfConfiguration(_ p: [UInt8]) -> [UInt8]? {
        guard let item = p.first else { return nil }
        let lengths: [UInt8: Int] = [0x01: 1, 0x02: 3, 0x04: 1, 0x05: 3, 0x0A: 11, 0x0B: 8, 0x0C: 3, 0x0D: 9]
        guard let n = lengths[item], p.count == n + 1 else { return nil }
        if item == 0x01 {
            let on = p[1] & 0x01 != 0
            if fieldOn && !on {
                // The field drops: every tag loses power and leaves HALT (ISO/IEC 14443-3 §6.2).
                field.powerCycle()
                listed = []
                selected = nil
                blocks = CardBlockState()
            }
            fieldOn = on
            registers[0x6304] = on ? 0x83 : 0x80
        }
        return [0x33]
    }

    /// Maps an RF failure to the status byte of UM0701-02 §7.1.
    static func status(for error: RFError) -> UInt8 {
        switch error.code {
        case .timeout, .linkLost: return 0x01
        case .transmission: return 0x02
        case .protocolViolation: return 0x0B
        case .frameTooLong: return 0x07
        case .notActivated: return 0x27
        case .unsupported, .frontendFailure: return 0x27
        }
    }
}
