import CoreNFC
import Testing

// App code written for iOS 26 in Swift 6 mode, exercised with the test doubles of AppleStyleMocks.swift: the doubles
// stand in for the tags, and the code calls them through the protocols, in both the async and the completion forms.

/// Reads the first URI record of any NDEF tag (app code under test).
func firstURL(of tag: any NFCNDEFTag) async throws -> URL? {
    try await tag.readNDEF().records.first?.wellKnownTypeURIPayload()
}

/// Collects values from `@Sendable` completion handlers, as app code in Swift 6 must.
final class Collected: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ s: String) { lock.withLock { items.append(s) } }
    var all: [String] { lock.withLock { items } }
}

@Suite struct AppleStyleMockTests {
    static let url = URL(string: "https://example.com/mock")!

    @Test func anNDEFDoubleWorksThroughTheAsyncAndCompletionForms() async throws {
        let payload = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(url: Self.url))
        let tag = AppleStyleMockTag(kind: .miFare, stored: NFCNDEFMessage(records: [payload]))
        #expect(try await firstURL(of: tag) == Self.url)
        let (status, capacity) = try await tag.queryNDEFStatus()
        #expect(status == .readWrite && capacity == 496)
        try await tag.writeLock()
        let seen = Collected()
        tag.writeNDEF(NFCNDEFMessage(records: [])) { error in
            seen.add("write \((error as? NFCReaderError)?.code.rawValue ?? 0)")
        }
        tag.queryNDEFStatus { status, _, _ in seen.add("status \(status.rawValue)") }
        #expect(seen.all == ["write 400", "status 3"])
    }

    @Test func everyTagProtocolsDoubleAnswersThroughItsExistential() async throws {
        let iso7816: any NFCISO7816Tag = AppleStyleMockISO7816Tag(kind: .iso7816Compatible, stored: nil)
        let apdu = NFCISO7816APDU(
            instructionClass: 0, instructionCode: 0xB0, p1Parameter: 0, p2Parameter: 0, data: Data(),
            expectedResponseLength: 16)
        let (_, sw1, sw2) = try await iso7816.sendCommand(apdu: apdu)
        #expect([sw1, sw2] == [0x90, 0x00])

        let mifare: any NFCMiFareTag = AppleStyleMockMiFareTag(kind: .miFare, stored: nil)
        #expect(try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x04])) == Data([0x0A]))

        let felica: any NFCFeliCaTag = AppleStyleMockFeliCaTag(kind: .feliCa, stored: nil)
        #expect(try await felica.requestSystemCode() == [Data([0x12, 0xFC])])

        let iso15693 = AppleStyleMockISO15693Tag(kind: .iso15693, stored: nil)
        let viaCast = try #require(iso15693.asNFCISO15693Tag())
        #expect(try await viaCast.readSingleBlock(requestFlags: .highDataRate, blockNumber: 3) == Data([3, 3, 3, 3]))
        let seen = Collected()
        viaCast.readMultipleBlock(
            readConfiguration: NFCISO15693ReadMultipleBlocksConfiguration(
                range: NSRange(location: 0, length: 2), chunkSize: 1)
        ) { _, error in seen.add("legacy \((error as? NFCReaderError)?.code.rawValue ?? 0)") }
        #expect(seen.all == ["legacy 1"])
        #expect(iso15693.asNFCFeliCaTag() == nil)
    }
}
