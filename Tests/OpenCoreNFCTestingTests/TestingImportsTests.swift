import OpenCoreNFC
import OpenCoreNFCTesting
import Testing

// Only the two public products are imported here: the chips and durations an app developer's test names must come
// with OpenCoreNFCTesting.
@Suite struct TestingImportsTests {
    @Test func chipsAndDurationsComeWithTheTestingProduct() throws {
        let phone = VirtualPhone()
        let tag = try Type2Tag.factory(.ntag213, uid: [0x04, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06])
        let handle = phone.put(tag)
        phone.advance(by: .milliseconds(10))
        phone.remove(handle)
        #expect(tag.chip == "ntag213")
        #expect(phone.transcript.contains { $0.description.contains("ntag213") })
    }
}
