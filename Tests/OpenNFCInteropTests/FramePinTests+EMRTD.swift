import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// eMRTD full-read frame pins: the specimen passport (BAC, Chip Authentication over AES, Active Authentication, six
/// data groups with the default photo) read by `PassportReader` with short APDUs (the simulated iPhone) and with
/// extended length (a frontend that carries long answers, the chip's EF.ATR/INFO stating 4096-byte buffers).
/// docs/PROCEDURES.md ("eMRTD") derives both counts.
@Suite struct EMRTDFramePinTests {
    static func lengths(_ tag: EMRTDTag, _ r: PassportReadResult) -> (com: Int, dg14: Int, rest: [Int]) {
        let files = tag.document.files
        let rest = r.dataGroups.keys.filter { $0 != 14 }.map { files[.dataGroup($0)]!.count } + [files[.sod]!.count]
        return (files[.com]!.count, files[.dataGroup(14)]!.count, rest)
    }

    /// Short APDUs: BAC without the PACE probe is 3 APDUs, each file 2 + ⌈(L − 4)/c⌉ with c = 231 under BAC's 3DES
    /// (EF.COM, DG14) and 223 under Chip Authentication's AES (the rest), CA over AES 2, AA 1.
    @Test func fullReadWithShortAPDUs() throws {
        let (bench, tag) = try EMRTDInteropTests.issue(.passport) { $0.pace = [] }
        let r = try EMRTDInteropTests.read(bench, tag, usePACE: false)
        #expect(r.passed)
        #expect(r.extendedLength == nil, "the iPhone carries short answers only: EF.ATR/INFO is not read")
        func cost(_ length: Int, _ chunk: Int) -> Int { 2 + (length - 4 + chunk - 1) / chunk }
        let l = Self.lengths(tag, r)
        let expected = 3 + cost(l.com, 231) + cost(l.dg14, 231) + 2 + 1 + l.rest.map { cost($0, 223) }.reduce(0, +)
        #expect(bench.frames == expected)
        #expect(r.apduCount == expected)
        #expect(expected == 36, "pinned: the specimen passport with its default photo")
    }

    /// Extended length: SELECT MF + READ EF.ATR/INFO 2, BAC 3, each file 1 + ⌈L/c⌉ with c = 4071 under 3DES and
    /// 4063 under AES (the largest Le whose protected answer fits 4096 − 2 bytes), CA 2, AA 1.
    @Test func fullReadWithExtendedLength() throws {
        let (bench, tag) = try EMRTDInteropTests.issue(.passport, capabilities: .unlimited) { $0.pace = [] }
        let r = try EMRTDInteropTests.read(bench, tag, usePACE: false)
        EMRTDInteropTests.expectEverythingVerified(r, tag)
        #expect(r.extendedLength == ExtendedLengthInfo(maxCommandLength: 4096, maxResponseLength: 4096))
        func cost(_ length: Int, _ chunk: Int) -> Int { 1 + (length + chunk - 1) / chunk }
        let l = Self.lengths(tag, r)
        let expected =
            2 + 3 + cost(l.com, 4071) + cost(l.dg14, 4071) + 2 + 1 + l.rest.map { cost($0, 4063) }.reduce(0, +)
        #expect(bench.frames == expected)
        #expect(r.apduCount == expected)
        #expect(expected == 24, "pinned: the specimen passport with its default photo")
    }

    /// A photo larger than one extended chunk: DG2 takes ⌈L/4063⌉ READ BINARY after its SELECT, and the file comes
    /// back byte for byte.
    @Test func aLargePhotoIsReadInExtendedChunks() throws {
        // The test portrait with a 9000-byte comment segment (COM, ITU-T T.81 §B.2.4.5) after SOI.
        let comment = (0..<9000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        let portrait = FaceImage.testPortrait
        let jpeg = Array(portrait.prefix(2)) + [0xFF, 0xFE, 0x23, 0x2A] + comment + Array(portrait.dropFirst(2))
        var holder = EMRTDHolder.specimen(.passport)
        holder.photo = jpeg
        var options = EMRTDIssueOptions(kind: .passport, today: EMRTDInteropTests.today)
        options.pace = []
        let document = try EMRTDIssuer.issue(.passport, holder: holder, options: options)
        let (bench, tag) = try EMRTDInteropTests.place(document, .unlimited)
        let r = try EMRTDInteropTests.read(bench, tag, usePACE: false)
        EMRTDInteropTests.expectEverythingVerified(r, tag)
        let dg2 = tag.document.files[.dataGroup(2)]!.count
        #expect(dg2 > 2 * 4063)
        func cost(_ length: Int, _ chunk: Int) -> Int { 1 + (length + chunk - 1) / chunk }
        let l = Self.lengths(tag, r)
        let expected =
            2 + 3 + cost(l.com, 4071) + cost(l.dg14, 4071) + 2 + 1 + l.rest.map { cost($0, 4063) }.reduce(0, +)
        #expect(bench.frames == expected)
        #expect(r.face?.data == jpeg)
    }

    /// PACE with extended length: SELECT MF, EF.ATR/INFO, EF.CardAccess, PACE (5), SELECT application, then the
    /// files as above under PACE's AES keys.
    @Test func paceReadWithExtendedLength() throws {
        let (bench, tag) = try EMRTDInteropTests.issue(.idCard, capabilities: .unlimited) { $0.can = "123456" }
        let r = try EMRTDInteropTests.read(bench, tag, password: .can("123456"))
        EMRTDInteropTests.expectEverythingVerified(r, tag)
        #expect(r.extendedLength != nil)
        let files = tag.document.files
        let all = [files[.com]!.count] + r.dataGroups.keys.map { files[.dataGroup($0)]!.count } + [files[.sod]!.count]
        let expected = 3 + 5 + 1 + all.map { 1 + ($0 + 4062) / 4063 }.reduce(0, +) + 2 + 1
        #expect(bench.frames == expected)
    }
}

/// EF.CardAccess longer than one short answer (many PACEInfos): both readers read on from the current EF.
@Suite struct EMRTDCardAccessTests {
    /// 14 PACEInfos of about 20 bytes each: more than one Le = 256 READ holds.
    static let manyProtocols: [PACEProtocol] =
        (8...18).map { PACEProtocol(cipher: .aes128, parameterID: $0) } + [
            PACEProtocol(cipher: .aes256, parameterID: 13), PACEProtocol(cipher: .tdes, parameterID: 13),
            PACEProtocol(cipher: .aes192, parameterID: 13),
        ]

    @Test func aLongCardAccessIsReadWholeByThePassportReader() throws {
        let (bench, tag) = try EMRTDInteropTests.issue(.idCard) {
            $0.pace = Self.manyProtocols
            $0.can = "123456"
        }
        let file = tag.document.files[.cardAccess]!
        #expect(file.count > 256)
        let r = try EMRTDInteropTests.read(bench, tag, password: .can("123456"))
        #expect(r.accessControl.hasPrefix("PACE "))
        EMRTDInteropTests.expectEverythingVerified(r, tag)
    }

    @Test func aLongCardAccessStillAdvertisesPACE() throws {
        let (bench, tag) = try EMRTDInteropTests.issue(.idCard) { $0.pace = Self.manyProtocols }
        #expect(tag.document.files[.cardAccess]!.count > 256)
        #expect(try PACECardAccess.advertisesPACE(frontend: bench.frontend))
        // SELECT MF, the first 256 bytes by SFI, the rest by offset.
        #expect(bench.frames == 3)
    }

    /// `readWhole` on its own: a part refused or empty leaves the bytes read so far; a first READ refused is nil.
    @Test func readWholeStopsWhereTheChipStops() throws {
        let file = [0x31, 0x82, 0x01, 0x2C] + [UInt8](repeating: 0xAB, count: 300)
        var calls: [(Int, Int)] = []
        let whole = try PACECardAccess.readWhole { (offset, le) throws(TagError) in
            calls.append((offset, le))
            return (Array(file[offset..<min(file.count, offset + le)]), 0x9000)
        }
        #expect(whole == file)
        #expect(calls.map(\.0) == [0, 256] && calls.map(\.1) == [256, 48])
        let cut = try PACECardAccess.readWhole { (offset, le) throws(TagError) in
            offset == 0 ? (Array(file.prefix(le)), 0x9000) : ([], 0x6B00)
        }
        #expect(cut == Array(file.prefix(256)))
        let none = try PACECardAccess.readWhole { (_, _) throws(TagError) in ([], 0x6A82) }
        #expect(none == nil)
    }
}
