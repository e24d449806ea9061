internal import Foundation
internal import OpenNFCRF
package import OpenNFCSimulation

/// A scripted FeliCa card for the tests of the reader's side (`NFCFeliCaTag`, PC/SC, vpcd): several systems, each
/// with its own IDm, answering Polling as JIS X 6319-4 §8.5 describes (system code with `FF` wildcards per byte,
/// request codes 00/01/02) and every other command with a scripted answer after `code+1 IDm`, only when addressed to
/// the IDm of the system the last Polling selected (silence otherwise, as a FeliCa card keeps). It records the frames
/// it receives, so a test pins the exact frame a call puts on the air. The byte-accurate virtual cards are in
/// OpenNFCSimulation/Type3; this one stands in where a test needs answers a real card would not give on demand
/// (every status path, odd lengths). Thread-safe: the vpcd server thread and the test read it.
package final class ScriptedFeliCaCard: VirtualTag, @unchecked Sendable {
    package struct System: Sendable {
        package var code: [UInt8]
        package var idm: [UInt8]
        package init(code: [UInt8], idm: [UInt8]) {
            self.code = code
            self.idm = idm
        }
    }

    package let chip = "scripted FeliCa card"
    package let systems: [System]
    package let pmm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]
    private let lock = NSLock()
    private var scripted: [UInt8: [UInt8]] = [:]
    private var received: [[UInt8]] = []
    private var current = 0

    package init(_ systems: [System]) { self.systems = systems }

    /// The answer after `code+1 IDm`, by command code.
    package var answers: [UInt8: [UInt8]] {
        get { lock.withLock { scripted } }
        set { lock.withLock { scripted = newValue } }
    }

    /// Every frame received, the field's own technology detection included.
    package var allFrames: [[UInt8]] { lock.withLock { received } }
    /// The frames after the field's technology detection (its wildcard Polling `00 FF FF 00 00`) and the Type 3
    /// NDEF detection (Polling `00 12 FC 01 00`, which these cards leave unanswered unless they have system 12FC).
    package var frames: [[UInt8]] {
        allFrames.filter { $0 != [0x00, 0xFF, 0xFF, 0x00, 0x00] && $0 != [0x00, 0x12, 0xFC, 0x01, 0x00] }
    }

    package var activation: VirtualActivation {
        VirtualActivation(.nfcF(NFCFActivation(idm: systems[0].idm, pmm: pmm)))
    }

    package func reset() {}

    package func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        lock.withLock {
            received.append(frame)
            guard let code = frame.first else { return .silence }
            if code == 0x00, frame.count == 5 {
                let matches = { (s: System) in
                    (frame[1] == 0xFF || frame[1] == s.code[0]) && (frame[2] == 0xFF || frame[2] == s.code[1])
                }
                guard let k = systems.firstIndex(where: matches) else { return .silence }
                current = k
                let rd: [UInt8]
                switch frame[3] {
                case 0x01: rd = systems[k].code
                case 0x02: rd = [0x00, 0x83]
                default: rd = []
                }
                return .data([0x01] + systems[k].idm + pmm + rd)
            }
            guard frame.count >= 9, Array(frame[1..<9]) == systems[current].idm, let body = scripted[code] else {
                return .silence
            }
            return .data([code &+ 1] + systems[current].idm + body)
        }
    }
}
