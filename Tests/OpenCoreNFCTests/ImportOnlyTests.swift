import OpenCoreNFC
import Testing

// This file imports OpenCoreNFC and nothing that brings Foundation: the delegate below is the README's example,
// written as for iOS with `import CoreNFC`, and must compile as it is (NSObject, Data, URL come through the module).

final class READMEScanner: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    var session: NFCNDEFReaderSession?
    var uris: [URL] = []
    var codes: [NFCReaderError.Code] = []
    func scan() {
        session = NFCNDEFReaderSession(delegate: self, queue: nil, invalidateAfterFirstRead: true)
        session?.alertMessage = "Hold your iPhone near the item to learn more about it."
        session?.begin()
    }
    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        if let url = messages.first?.records.first?.wellKnownTypeURIPayload() { uris.append(url) }
    }
    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        if let code = (error as? NFCReaderError)?.code { codes.append(code) }
    }
}

@Suite struct ImportOnlyTests {
    @Test func foundationTypesComeThroughTheModule() {
        let payload = NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.com")
        let data: Data? = payload?.payload
        #expect(data?.first == 0x04)  // "https://" prefix code, NFC Forum RTD-URI table
        #expect(READMEScanner().uris.isEmpty)
    }
}
