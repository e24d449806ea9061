import OpenNFCBytes
import OpenNFCPCSC
import OpenNFCTestSupport
import Synchronization

/// The PC/SC Part 3 ATR of a MIFARE Ultralight / NTAG21x (PC/SC Part 3 §3.1.3.2.3, TCK computed).
let ultralightATR = h("3B8F8001804F0CA0000003060300030000000068")
/// An ISO 14443-4 card with historical byte 80 (PC/SC Part 3 §3.1.3.2.3.2).
let isoDEPATR = h("3B8180018080")

/// A Type 2 tag behind a reader, written for these tests from the reader's side of PC/SC Part 3 and the ACS manuals:
/// `FF CA`, `FF B0`, `FF D6`, and optionally ACR122U (`D4 42`) or ACR1252U (`FF 00 00 00`) pass-through.
final class FakeType2Card: @unchecked Sendable {
    /// `refusing63`: a reader that answers `63 00` to every `FF 00 00 00` (no pass-through of either form).
    enum PassThrough { case none, acr122u, acr1252u, refusing63 }
    let uid = h("04A1B2C3D4E580")
    let passThrough: PassThrough
    let version: [UInt8]?
    let memory = Mutex<[UInt8]>([])
    let mute = Mutex(false)
    /// Whether the chip answers FAST_READ (off: it goes mute, as a chip lacking the command does).
    let fastRead: Bool

    init(
        passThrough: PassThrough, version: [UInt8]? = h("0004040201001103"), pages: Int = 135, fastRead: Bool = false
    ) {
        self.passThrough = passThrough
        self.fastRead = fastRead
        self.version = version
        var m = [UInt8](repeating: 0, count: pages * 4)
        m[0..<4] = [0x04, 0xA1, 0xB2, 0xC3 ^ 0x88 ^ 0x04 ^ 0xA1 ^ 0xB2]
        m[12..<16] = [0xE1, 0x10, 0x3E, 0x00]
        m[16..<28] = ArraySlice(h("0309D101055402656E6869FE"))
        memory.withLock { $0 = m }
    }

    var card: FakePCSCBinding.Card {
        FakePCSCBinding.Card(atr: ultralightATR, onReset: { [self] in mute.withLock { $0 = false } }) { [self] apdu in
            respond(apdu)
        }
    }

    /// The chip's answer to a native frame: data, `[0x0A]` for ACK, `[0x00]` for NAK, nil for silence.
    func native(_ frame: [UInt8]) -> [UInt8]? {
        if mute.withLock({ $0 }) { return nil }
        switch (frame.first, frame.count) {
        case (0x30, 2):
            let p = Int(frame[1])
            return memory.withLock { m in
                guard p * 4 < m.count else { return [0x00] }
                return (0..<16).map { m[(p * 4 + $0) % m.count] }
            }
        case (0xA2, 6):
            let p = Int(frame[1])
            return memory.withLock { m in
                guard p >= 4, p * 4 < m.count else { return [0x00] }
                m[p * 4..<p * 4 + 4] = frame[2..<6]
                return [0x0A]
            }
        case (0x60, 1):
            if let version { return version }
            mute.withLock { $0 = true }
            return nil
        case (0x1B, 5): return [0x00, 0x00]
        case (0x3A, 3) where fastRead:  // FAST_READ SS EE: (EE − SS + 1) × 4 bytes (NTAG213/215/216 datasheet §10.2)
            let (s, e) = (Int(frame[1]), Int(frame[2]))
            return memory.withLock { m in
                guard s <= e, e * 4 < m.count else { return [0x00] }
                return Array(m[s * 4..<(e + 1) * 4])
            }
        default:
            mute.withLock { $0 = true }
            return nil
        }
    }

    func respond(_ apdu: [UInt8]) -> [UInt8] {
        guard apdu.count >= 4, apdu[0] == 0xFF else { return [0x6E, 0x00] }
        switch (apdu[1], apdu[2]) {
        case (0xCA, 0x00): return uid + [0x90, 0x00]
        case (0xB0, 0x00):
            guard apdu.count == 5, let d = native([0x30, apdu[3]]), d.count == 16 else { return [0x63, 0x00] }
            return Array(d.prefix(Int(apdu[4]))) + [0x90, 0x00]
        case (0xD6, 0x00):
            guard apdu.count == 9, apdu[4] == 4, native([0xA2, apdu[3]] + apdu[5..<9]) == [0x0A] else {
                return [0x63, 0x00]
            }
            return [0x90, 0x00]
        case (0x00, 0x00) where apdu.count > 5 && apdu[3] == 0:
            let body = Array(apdu[5...])
            switch passThrough {
            case .none: return [0x6A, 0x81]
            case .refusing63: return [0x63, 0x00]
            case .acr122u:
                guard body.count >= 2, body[0] == 0xD4, body[1] == 0x42 else { return [0x63, 0x00] }
                guard let answer = native(Array(body[2...])) else { return [0xD5, 0x43, 0x01, 0x90, 0x00] }
                return [0xD5, 0x43, 0x00] + answer + [0x90, 0x00]
            case .acr1252u:
                guard let answer = native(body) else { return [0x63, 0x00] }
                return answer + [0x90, 0x00]
            }
        default: return [0x6A, 0x81]
        }
    }
}

/// An ISO-DEP card that answers SELECT of the NDEF application and wrapped DESFire GetVersion.
func fakeISODEPCard() -> FakePCSCBinding.Card {
    FakePCSCBinding.Card(atr: isoDEPATR) { apdu in
        switch apdu {
        case [0xFF, 0xCA, 0x00, 0x00, 0x00]: return h("04112233445566") + [0x90, 0x00]
        case h("00A4040007D276000085010100"): return [0x90, 0x00]
        case [0x90, 0x60, 0x00, 0x00, 0x00]: return h("04010101001805") + [0x91, 0xAF]
        default: return [0x6D, 0x00]
        }
    }
}
