import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// The FeliCa half of iOS 26.4's `NFCTagReaderSession.Configuration` at runtime (docs/PARITY.md `Configuration`):
/// `feliCaSystemCodes` picks a subset of the Info.plist's system codes — in the configuration's order, each once,
/// matched by value whatever the letter case, undeclared entries dropped, an empty list meaning all of them — and
/// `restartPolling(configuration:)` applies another subset for one round only.
@Suite struct FeliCaConfigurationTests {
    typealias F = FeliCaPhoneTests
    static let declared = ["8008", "0003", "FE00"]

    /// A Polling (`00`) for one system code, not the discovery's wildcard `FFFF` (JIS X 6319-4 Polling).
    static func isSystemPolling(_ frame: [UInt8]) -> Bool {
        frame.count == 5 && frame[0] == 0x00 && !(frame[1] == 0xFF && frame[2] == 0xFF)
    }

    /// Begins a session with `configuration` on a card holding FE00 and 0003; on each delivery logs the selected
    /// system and the Polling frames since the last one, then restarts polling as `restarts` says (nil: plain).
    func run(
        _ configuration: NFCTagReaderSession.Configuration,
        restarts: [NFCTagReaderSession.Configuration?] = []
    ) -> [String] {
        let phone = VirtualPhone(configuration: F.configuration(Self.declared))
        let card = ScriptedFeliCaCard([F.common, F.transit])
        phone.put(card)
        let app = TagSessionRecorder()
        let log = Shared<[String]>([])
        let seen = Shared(0)
        let round = Shared(0)
        app.onDetect = { session, tags in
            guard case .feliCa(let tag) = tags[0] else { return }
            let frames = card.frames.dropFirst(seen.value).filter(Self.isSystemPolling).map { hex($0) }
            seen.value = card.frames.count
            log.update { $0.append("\(hex(tag.currentSystemCode)) after \(frames.joined(separator: " "))") }
            let k = round.value
            round.value = k + 1
            guard k < restarts.count else { return session.invalidate() }
            if let next = restarts[k] {
                session.restartPolling(configuration: next)
            } else {
                session.restartPolling()
            }
        }
        phone.run {
            NFCTagReaderSession(configuration: configuration, delegate: app, queue: nil).begin()
        }
        phone.settle()
        return log.value
    }

    @Test func theSystemCodesAreASubsetInTheConfigurationsOrder() {
        // "fe00" names FE00 (spelt as declared), the duplicate and the undeclared 1234 are dropped: FE00 is polled
        // first and answers, so 0003 — declared earlier — is never tried.
        let lines = run(.init(pollingOption: .iso18092, feliCaSystemCodes: ["1234", "fe00", "0003", "FE00"]))
        #expect(lines == ["FE00 after 00FE000000"])
    }

    @Test func anEmptyListMeansEveryDeclaredSystemInThePlistsOrder() {
        let lines = run(.init(pollingOption: .iso18092))
        #expect(lines == ["0003 after 0080080000 0000030000"])
    }

    @Test func aListWithNoDeclaredEntryPollsNothing() {
        let phone = VirtualPhone(configuration: F.configuration(Self.declared))
        let card = ScriptedFeliCaCard([F.common, F.transit])
        phone.put(card)
        let app = TagSessionRecorder()
        phone.run {
            NFCTagReaderSession(
                configuration: .init(pollingOption: .iso18092, feliCaSystemCodes: ["1234"]), delegate: app, queue: nil
            ).begin()
        }
        phone.advance(by: .seconds(2))
        #expect(app.events == [.becameActive])
        #expect(!card.frames.contains(where: Self.isSystemPolling))
    }

    @Test func restartPollingWithAConfigurationLastsOneRound() {
        let lines = run(
            .init(pollingOption: .iso18092, feliCaSystemCodes: ["FE00"]),
            restarts: [.init(pollingOption: .iso18092, feliCaSystemCodes: ["0003"]), nil])
        #expect(lines == ["FE00 after 00FE000000", "0003 after 0000030000", "FE00 after 00FE000000"])
    }
}
