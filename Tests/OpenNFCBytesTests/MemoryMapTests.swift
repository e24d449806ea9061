import OpenNFCBytes
import Testing

/// The one hex memory map: numbers in hex, identical lines collapsed into `*` as `hexdump` and
/// `xxd -a` do, notes kept, the last line always shown.
@Suite struct MemoryMapTests {
    @Test func collapsesRunsOfIdenticalLinesAndKeepsTheLast() {
        var bytes = [UInt8](repeating: 0, count: 4 * 0x20)
        bytes[0..<4] = [0x04, 0xA1, 0x41, 0x7E]
        let map = MemoryMap(bytes: bytes, width: 4, note: { $0 == 0 ? "UID0-2, BCC0" : $0 == 0x10 ? "lock" : "" })
        #expect(
            map.lines(indent: "  ") == [
                "  00  04 A1 41 7E  ..A~  UID0-2, BCC0", "  01  00 00 00 00  ....", "  *",
                "  10  00 00 00 00  ....  lock", "  11  00 00 00 00  ....", "  *", "  1F  00 00 00 00  ....",
            ])
    }

    @Test func numbersInHexWithEnoughDigitsAndPadsAShortRow() {
        let rows = (0..<0x120).map { MemoryMap.Row(number: $0, bytes: [UInt8($0 & 0xFF)]) }
        let map = MemoryMap(rows: rows, rowWidth: 1, ascii: false)
        #expect(map.lines()[0x11F] == "011F  1F")
        let offsets = MemoryMap(bytes: Array(0..<18), width: 16, ascii: false, minimumDigits: 4, numbering: { $0 * 16 })
        #expect(offsets.lines() == ["0000  00 01 02 03 04 05 06 07 08 09 0A 0B 0C 0D 0E 0F", "0010  10 11"])
        let unread = MemoryMap(rows: [.init(number: 0x2B, bytes: nil, note: "PWD")], rowWidth: 4)
        #expect(unread.lines() == ["2B  -- -- -- --        PWD"])
    }
}
