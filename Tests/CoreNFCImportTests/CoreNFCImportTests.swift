import CoreNFC
import Testing

// This target depends only on the `CoreNFC` product and imports nothing else that brings Core NFC or Foundation:
// the code below is written as for iOS, with the `#if canImport(CoreNFC)` guard two public apps use, and must
// compile and run unchanged.

#if canImport(CoreNFC)
    final class GuardedScanner: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
        var session: NFCNDEFReaderSession?
        var codes: [NFCReaderError.Code] = []

        func scan() {
            guard NFCNDEFReaderSession.readingAvailable else { return }
            session = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: true)
            session?.alertMessage = "Hold your iPhone near the item to learn more about it."
            session?.begin()
        }

        func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}

        func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
            if let code = (error as? NFCReaderError)?.code { codes.append(code) }
        }
    }
    let coreNFCWasImported = true
#else
    let coreNFCWasImported = false
#endif

@Suite struct CoreNFCImportTests {
    @Test func importCoreNFCBringsTheAPIAndFoundation() throws {
        #expect(coreNFCWasImported)
        // Types of Core NFC and of Foundation (Data, URL, Locale) with `import CoreNFC` alone.
        let uri = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(url: URL(string: "https://example.com/a")!))
        let text = try #require(
            NFCNDEFPayload.wellKnownTypeTextPayload(string: "Room 3", locale: Locale(identifier: "en")))
        let message = NFCNDEFMessage(records: [uri, text])
        // URI record: 3 header + type "U" + prefix code 0x04 + "example.com/a"; Text: 3 + "T" + status + "en" + text.
        #expect(message.length == (3 + 1 + 1 + 13) + (3 + 1 + 1 + 2 + 6))
        let data: Data = uri.payload
        #expect(data.first == 0x04)  // "https://" (NFC Forum RTD-URI 1.0 §3.2.2)
        let error: any Error = NFCReaderError(.readerSessionInvalidationErrorFirstNDEFTagRead)
        #expect("\(error)".hasPrefix("Error Domain=NFCError Code=204 \"First NDEF tag read\""))
        #expect(GuardedScanner().codes.isEmpty)
    }
}
