import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// What the simulated iPhone does with a real (virtual) MIFARE Classic, NFC-formatted with a URI (NXP AN1305):
/// Core NFC has no Crypto1 (docs/DIFFERENCES.md, "MIFARE Classic"), so an NDEF session never reads it, the
/// background never reads it, and a tag session delivers it as an `NFCMiFareTag` of family `.unknown` whose raw
/// frames reach the chip in the clear, where nothing gets past the first authentication pass.
@Suite struct MifareClassicSessionTests {
    func formattedClassic() -> MifareClassicTag {
        let tag = try! MifareClassicTag(model: .classic1K, uid: [0xC1, 0xA5, 0x51, 0xC1])
        // A URI record https://classic.example (NDEF URI RTD prefix 04 = "https://").
        let uri = Array("classic.example".utf8)
        try! tag.formatForNDEF(holding: [0xD1, 0x01, UInt8(uri.count + 1), 0x55, 0x04] + uri)
        return tag
    }

    @Test func anNDEFSessionNeverReadsAnNFCFormattedClassic() {
        let phone = VirtualPhone()
        let tag = formattedClassic()
        #expect(tag.ndefMessage != nil)
        phone.put(tag)
        let reader = NDEFMessageRecorder()
        Pin.beginNDEFSession(phone, reader)
        phone.advance(by: .seconds(60))
        #expect(reader.events == [.becameActive, .invalidated(.readerSessionInvalidationErrorSessionTimeout)])
    }

    /// Background tag reading (Apple, "Adding Support for Background Tag Reading") with the real chip, NFC-formatted
    /// with a URI a ready tag of another family would notify: no notification, and no frame past the activation
    /// reaches the chip (no MAD READ, no authentication) — the phone has no Crypto1 (docs/DIFFERENCES.md).
    @Test func backgroundReadingNeverReadsARealClassic() {
        let phone = VirtualPhone(recordsFrames: true)
        let tag = formattedClassic()
        let before = tag.memory
        let handle = phone.put(tag)
        phone.settle()
        #expect(phone.notifications.isEmpty)
        #expect(phone.transcriptText([.system]).contains("MIFARE Classic, never read"))
        let sent = phone.transcript.filter { $0.kind == .rf && $0.text.hasPrefix("→") }.map(\.text)
        #expect(!sent.contains { $0.hasPrefix("→ 60") || $0.hasPrefix("→ 61") || $0.hasPrefix("→ 30") }, "\(sent)")
        #expect(tag.memory == before)
        // The same message on a Type 2 tag is notified: the background reader is on.
        phone.remove(handle)
        phone.put(try! Type2Tag.factory(.ntag215, uid: [4, 1, 2, 3, 4, 5, 6], holding: tag.ndefMessage!))
        #expect(phone.notifications.map(\.uri) == ["https://classic.example"])
    }

    @Test func aTagSessionGetsAnUnknownMiFareTagThatCannotAuthenticate() {
        let phone = VirtualPhone(configuration: Pin.configuration())
        phone.put(formattedClassic())
        let app = TagSessionRecorder()
        let log = Shared<[String]>([])
        app.onFirstDetect { session, tags in
            guard case .miFare(let mObject) = tags[0] else {
                log.update { $0.append("not a MIFARE tag") }
                return
            }
            nonisolated(unsafe) let m = mObject
            log.update { $0.append("family unknown \(m.mifareFamily == .unknown)") }
            session.connect(to: tags[0]) { _ in
                // AUTH-A of sector 1: the chip answers nT in the clear; the phone cannot send {nR}{aR}.
                m.sendMiFareCommand(commandPacket: Data([0x60, 0x04])) { d, e in
                    log.update { $0.append("auth \(d.count) bytes \(Pin.code(e))") }
                    // The chip waits for {nR}{aR}: a plain READ ends the authentication and it falls silent, so
                    // the phone gets no answer (102).
                    m.sendMiFareCommand(commandPacket: Data([0x30, 0x04])) { d, e in
                        log.update { $0.append("read \(d.count) bytes \(Pin.code(e))") }
                    }
                }
            }
        }
        _ = Pin.beginTagSession(phone, app)
        phone.settle()
        #expect(log.value == ["family unknown true", "auth 4 bytes 0", "read 0 bytes 102"])
    }
}
