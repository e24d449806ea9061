import Testing

@testable import OpenNFCTags

/// The procedure's memory grows as pages become known: every operation holds at and past the grown end.
@Suite struct Type2MemoryTests {
    @Test func forgettingAPagePastWhatIsKnownIsANoOp() {
        var m = Type2Memory()
        m.forget(page: 40)  // nothing known yet
        m.store([1, 2, 3, 4, 5, 6, 7, 8], fromPage: 4)
        m.forget(page: 200)  // past the grown end
        m.forget(page: Type2Memory.pageCount)  // past the memory
        #expect(m.page(4) == [1, 2, 3, 4])
        #expect(m.page(5) == [5, 6, 7, 8])
        #expect(m.page(200) == nil)
        m.forget(page: 5)
        #expect(m.page(5) == nil)
        #expect(m.isKnown(page: 4))
        #expect(!m.isKnown(page: 3))
        #expect(m[4 * 4] == 1)
        #expect(m[4 * 4000] == nil)
    }
}
