import Foundation
import OpenCoreNFCTesting
import OpenNFCDemo
import Testing

/// The seed flows, as tests: the same code `opennfc demo` runs.
@Suite struct SeedFlowTests {
    func text(_ o: SeedFlows.Outcome) -> String { o.lines.joined(separator: "\n") }

    @Test func inventoryScannerAddsARowPerScan() throws {
        let t = text(try SeedFlows.inventoryScanner())
        #expect(t.contains("row added: https://example.com/item/1"))
        #expect(t.contains("row added: https://example.com/item/2"))
        #expect(t.components(separatedBy: "didInvalidateWithError: 204").count == 3)
        #expect(t.contains("shown: [Ready to Scan] Hold your iPhone near the item to learn more about it."))
    }

    @Test func writeAndLock() throws {
        let t = text(try SeedFlows.writeAndLock())
        #expect(t.contains("didDetect: 2 tags"))
        #expect(t.contains("message: More than 1 tag is detected. Please remove all tags and try again."))
        #expect(t.contains("queryNDEFStatus: .readWrite, capacity 492 bytes"))
        #expect(t.contains("writeNDEF: ok"))
        #expect(t.contains("message: Update success!"))
        #expect(t.contains("writeLock: ok"))
        #expect(t.contains("queryNDEFStatus: .readWrite") && t.contains("message: The tag is now read-only."))
    }

    @Test func selectApplication() throws {
        let t = text(try SeedFlows.selectApplication())
        #expect(t.contains("ISO 7816 tag, initialSelectedAID F00102030405"))
        #expect(t.contains("GET DATA: 1234 SW1 SW2 = 90 00"))
        #expect(t.contains("MIFARE tag, family 4"))
        #expect(t.contains("SW1 SW2 = 91 AF"))
    }

    @Test func errorPaths() throws {
        let t = text(try SeedFlows.errorPaths())
        #expect(t.contains("didInvalidateWithError: 200"))
        #expect(t.contains("didInvalidateWithError: 201"))
        #expect(t.contains("writeNDEF: 402"))
        #expect(t.contains("writeNDEF: 400"))
        #expect(t.contains("writeNDEF: 100"))
        #expect(t.contains("re-read after the interrupted write"))
    }
}

extension SeedFlowTests {
    @Test func backgroundReading() throws {
        let t = text(try SeedFlows.backgroundReading())
        #expect(t.contains("notification: NFC Tag: Open “museum.example.com” in the app"))
        #expect(t.contains("app: opens /room/3 from a tag: 2 records, title Room 3"))
        #expect(t.contains("notification: Unlock to open"))
        #expect(t.contains("user: Safari opens https://tickets.example.org/today"))
        #expect(t.contains("notification: NFC tag detected: No usable data found"))
        #expect(t.contains("notifications shown: 3"), "none while the camera is in use")
        #expect(try SeedFlows.all().map(\.title).last == "Background tag reading")
    }
}
