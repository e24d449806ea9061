import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// `NFCISO15693Tag` through a tag reader session polling `.iso15693` on the simulated iPhone, against every virtual
/// Type 5 chip: every command, its frame on the air (the Address flag and the UID as Core NFC sets them), and its
/// error paths (102 with `NFCISO15693TagResponseErrorKey`, 100 when the tag leaves, 104 when not connected, the
/// parameter checks).
@Suite struct ISO15693TagTests {
    typealias Step =
        @Sendable (
            _ session: NFCTagReaderSession, _ tag: any NFCISO15693Tag, _ log: @escaping @Sendable (String) -> Void
        )
        -> Void

    static func uid(_ p: ISO15693ChipProfile) -> [UInt8] {
        Array((p.uidPrefix + [0x0A, 0x0B, 0x0C, 0x0D, 0x0E]).prefix(8))
    }

    /// `ok`, or the error's code with the ISO 15693 error code and the unexpected-length mark when present.
    static func outcome(_ e: (any Error)?) -> String {
        guard let e else { return "ok" }
        guard let r = e as? NFCReaderError else { return "\(e)" }
        var s = "\(r.code.rawValue)"
        if let code = r.userInfo[NFCISO15693TagResponseErrorKey] as? Int { s += " iso \(String(format: "%02X", code))" }
        if r.userInfo[NFCTagResponseUnexpectedLengthErrorKey] != nil { s += " length" }
        return s
    }

    /// Runs `steps` one after the other on the first ISO 15693 tag a session polling `.iso15693` delivers (each
    /// step logs one line and then calls on), connecting first unless told not to; returns the lines.
    static func run(
        _ phone: VirtualPhone, connect: Bool = true, _ steps: [Step]
    ) -> [String] {
        let app = TagSessionRecorder()
        let log = LogBox()
        app.onDetect = { session, tags in
            guard case .iso15693(let tagObject) = tags.first else {
                log.append("no ISO 15693 tag: \(tags.count)")
                session.invalidate()
                return
            }
            nonisolated(unsafe) let tag = tagObject
            @Sendable func next(_ i: Int) {
                guard i < steps.count else {
                    session.invalidate()
                    return
                }
                steps[i](session, tag) { line in
                    log.append(line)
                    next(i + 1)
                }
            }
            if connect {
                session.connect(to: tags[0]) { e in
                    log.append("connect \(outcome(e))")
                    next(0)
                }
            } else {
                next(0)
            }
        }
        phone.run { NFCTagReaderSession(configuration: .init(pollingOption: .iso15693), delegate: app).begin() }
        phone.settle()
        return log.lines
    }

    static let hd = NFCISO15693RequestFlag.highDataRate

    /// The Option flag for the chips whose writes need it (TI Tag-it HF-I Plus stays silent without it).
    static func writeFlags(_ p: ISO15693ChipProfile) -> NFCISO15693RequestFlag {
        p.writesNeedOption ? [.highDataRate, .option] : .highDataRate
    }

    @Test(arguments: ISO15693ChipProfile.all)
    func theIOS13CommandsReadWriteAndLockEveryChip(profile: ISO15693ChipProfile) throws {
        let phone = VirtualPhone(recordsFrames: true)
        let chip = try ISO15693Tag.factory(profile, uid: Self.uid(profile))
        phone.put(chip)
        let w = Self.writeFlags(profile)
        let lines = Self.run(
            phone,
            [
                { _, t, log in
                    log(
                        "identifier \(hex(t.identifier)) mfg \(t.icManufacturerCode) serial \(hex(t.icSerialNumber))"
                    )
                },
                { _, t, log in
                    t.writeSingleBlock(requestFlags: w, blockNumber: 5, dataBlock: Data([1, 2, 3, 4])) {
                        log("write \(Self.outcome($0))")
                    }
                },
                { _, t, log in
                    t.readSingleBlock(requestFlags: Self.hd, blockNumber: 5) { d, e in
                        log("read \(hex(d)) \(Self.outcome(e))")
                    }
                },
                { _, t, log in
                    t.readMultipleBlocks(requestFlags: Self.hd, blockRange: NSRange(location: 4, length: 3)) { b, e in
                        log("read multiple \(b.map { hex($0) }.joined(separator: " ")) \(Self.outcome(e))")
                    }
                },
                { _, t, log in
                    t.lockBlock(requestFlags: w, blockNumber: 5) { log("lock \(Self.outcome($0))") }
                },
                { _, t, log in
                    t.readSingleBlock(requestFlags: [.highDataRate, .option], blockNumber: 5) { d, e in
                        log("read with status \(hex(d)) \(Self.outcome(e))")
                    }
                },
                { _, t, log in
                    t.getMultipleBlockSecurityStatus(requestFlags: Self.hd, blockRange: NSRange(location: 4, length: 3))
                    { s, e in
                        log("security \(s.map(\.intValue)) \(Self.outcome(e))")
                    }
                },
                { _, t, log in
                    t.writeSingleBlock(requestFlags: w, blockNumber: 5, dataBlock: Data([9, 9, 9, 9])) {
                        log("write locked \(Self.outcome($0))")
                    }
                },
                { _, t, log in
                    t.lockBlock(requestFlags: w, blockNumber: 5) { log("lock again \(Self.outcome($0))") }
                },
                { _, t, log in
                    t.readSingleBlock(requestFlags: Self.hd, blockNumber: UInt8(min(255, profile.blockCount))) { d, e in
                        log("read past the end \(d.count) \(Self.outcome(e))")
                    }
                },
            ])
        let uid = Self.uid(profile)
        #expect(
            lines == [
                "connect ok",
                "identifier \(hex(Data(uid))) mfg \(uid[1]) serial \(hex(Data(uid[2...])))",
                "write ok", "read 01020304 ok",
                "read multiple \(hex(Data(chip.memory[16..<20]))) 01020304 "
                    + "\(hex(Data(chip.memory[24..<28]))) ok",
                "lock ok", "read with status 0101020304 ok", "security [0, 1, 0] ok", "write locked 102 iso 12",
                "lock again 102 iso 11",
                profile.blockCount > 255 ? "read past the end 4 ok" : "read past the end 0 102 iso 10",
            ])
        #expect(Array(chip.memory[20..<24]) == [1, 2, 3, 4] && chip.lockedBlocks.contains(5))
        // The frames on the air: high data rate + Address flag (+ Option), the command, the UID LSB first.
        let air = phone.transcriptText([.rf])
        let lsb = uid.reversed().map { String(format: "%02X", $0) }.joined(separator: " ")
        #expect(air.contains("→ \(String(format: "%02X", 0x22 | w.rawValue)) 21 \(lsb) 05 01 02 03 04"))
        #expect(air.contains("→ 22 23 \(lsb) 04 02"))
    }

    @Test(arguments: ISO15693ChipProfile.all)
    func stateAFIDSFIDAndSystemInformationOnEveryChip(profile: ISO15693ChipProfile) throws {
        let phone = VirtualPhone()
        let chip = try ISO15693Tag.factory(profile, uid: Self.uid(profile))
        phone.put(chip)
        let w = Self.writeFlags(profile)
        @Sendable func info(_ i: NFCISO15693SystemInfo) -> String {
            "uid \(hex(i.uniqueIdentifier)) dsfid \(i.dataStorageFormatIdentifier) afi \(i.applicationFamilyIdentifier) "
                + "size \(i.blockSize) blocks \(i.totalBlocks) ic \(i.icReference)"
        }
        let lines = Self.run(
            phone,
            [
                { _, t, log in
                    t.getSystemInfo(requestFlags: Self.hd) { (r: Result<NFCISO15693SystemInfo, any Error>) in
                        switch r {
                        case .success(let i): log(info(i))
                        case .failure(let e): log("system info \(Self.outcome(e))")
                        }
                    }
                },
                { _, t, log in t.writeAFI(requestFlags: w, afi: 0x3D) { log("write AFI \(Self.outcome($0))") } },
                { _, t, log in t.writeDSFID(requestFlags: w, dsfid: 0x01) { log("write DSFID \(Self.outcome($0))") } },
                { _, t, log in t.lockAFI(requestFlags: w) { log("lock AFI \(Self.outcome($0))") } },
                { _, t, log in t.writeAFI(requestFlags: w, afi: 0x00) { log("write AFI again \(Self.outcome($0))") } },
                { _, t, log in t.lockAFI(requestFlags: w) { log("lock AFI again \(Self.outcome($0))") } },
                { _, t, log in t.lockDSFID(requestFlags: w) { log("lock DSFID \(Self.outcome($0))") } },
                { _, t, log in
                    t.getSystemInfo(requestFlags: Self.hd) { (r: Result<NFCISO15693SystemInfo, any Error>) in
                        log(
                            (try? r.get()).map {
                                "dsfid \($0.dataStorageFormatIdentifier) afi \($0.applicationFamilyIdentifier)"
                            } ?? "-")
                    }
                },
                { _, t, log in t.select(requestFlags: Self.hd) { log("select \(Self.outcome($0))") } },
                { _, t, log in
                    t.readSingleBlock(requestFlags: [.highDataRate, .select], blockNumber: 0) { d, e in
                        log("select-mode read \(d.count) \(Self.outcome(e))")
                    }
                },
                { _, t, log in t.resetToReady(requestFlags: Self.hd) { log("reset to ready \(Self.outcome($0))") } },
                { _, t, log in
                    t.readSingleBlock(requestFlags: [.highDataRate, .select], blockNumber: 0) { d, e in
                        log("select-mode read when ready \(d.count) \(Self.outcome(e))")
                    }
                },
                { _, t, log in t.stayQuiet { log("stay quiet \(Self.outcome($0))") } },
                { _, t, log in
                    t.readSingleBlock(requestFlags: Self.hd, blockNumber: 0) { d, e in
                        log("addressed read when quiet \(d.count) \(Self.outcome(e))")
                    }
                },
            ])
        let lsb = hex(Data(Self.uid(profile).reversed()))
        let size = profile.blockCount > 256 ? -1 : 4
        let blocks = profile.blockCount > 256 ? -1 : profile.blockCount
        let ic = profile.icReference.map(Int.init) ?? -1
        #expect(
            lines == [
                "connect ok", "uid \(lsb) dsfid 0 afi 0 size \(size) blocks \(blocks) ic \(ic)", "write AFI ok",
                "write DSFID ok", "lock AFI ok", "write AFI again 102 iso 12", "lock AFI again 102 iso 11",
                "lock DSFID ok", "dsfid 1 afi 61", "select ok", "select-mode read 4 ok", "reset to ready ok",
                "select-mode read when ready 0 102", "stay quiet ok", "addressed read when quiet 4 ok",
            ])
        #expect(chip.afi == 0x3D && chip.afiLocked && chip.dsfid == 1 && chip.dsfidLocked && chip.state == .quiet)
    }

    @Test(arguments: ISO15693ChipProfile.all)
    func extendedAndIOS14CommandsOnEveryChip(profile: ISO15693ChipProfile) throws {
        let phone = VirtualPhone(recordsFrames: true)
        let chip = try ISO15693Tag.factory(profile, uid: Self.uid(profile))
        phone.put(chip)
        let w = Self.writeFlags(profile)
        let last = profile.blockCount - 1
        let ext = profile.hasExtendedCommands
        @Sendable func pair(_ r: Result<(NFCISO15693ResponseFlag, Data), any Error>) -> String {
            switch r {
            case .success(let (flags, data)): return "flags \(flags.rawValue) data \(hex(data))"
            case .failure(let e): return Self.outcome(e)
            }
        }
        let lines = Self.run(
            phone,
            [
                { _, t, log in
                    t.extendedWriteSingleBlock(requestFlags: w, blockNumber: last, dataBlock: Data([5, 6, 7, 8])) {
                        log("ext write \(Self.outcome($0))")
                    }
                },
                { _, t, log in
                    t.extendedReadSingleBlock(requestFlags: Self.hd, blockNumber: last) { d, e in
                        log("ext read \(hex(d)) \(Self.outcome(e))")
                    }
                },
                { _, t, log in
                    t.extendedWriteMultipleBlocks(
                        requestFlags: w, blockRange: NSRange(location: last - 2, length: 2),
                        dataBlocks: [Data([1, 1, 1, 1]), Data([2, 2, 2, 2])]
                    ) { log("ext write multiple \(Self.outcome($0))") }
                },
                { _, t, log in
                    t.extendedReadMultipleBlocks(
                        requestFlags: Self.hd, blockRange: NSRange(location: last - 2, length: 3)
                    ) { b, e in
                        log("ext read multiple \(b.map { hex($0) }.joined(separator: " ")) \(Self.outcome(e))")
                    }
                },
                { _, t, log in
                    t.extendedLockBlock(requestFlags: w, blockNumber: last) { log("ext lock \(Self.outcome($0))") }
                },
                { _, t, log in
                    t.extendedGetMultipleBlockSecurityStatus(
                        requestFlags: Self.hd, blockRange: NSRange(location: last - 1, length: 2)
                    ) { r in
                        log(
                            "ext security \((try? r.get())?.blockSecurityStatus.description ?? Self.outcome(r.failure))"
                        )
                    }
                },
                { _, t, log in
                    t.writeMultipleBlocks(
                        requestFlags: w, blockRange: NSRange(location: 8, length: 2),
                        dataBlocks: [Data([3, 3, 3, 3]), Data([4, 4, 4, 4])]
                    ) { log("write multiple \(Self.outcome($0))") }
                },
                { _, t, log in
                    t.fastReadMultipleBlocks(requestFlags: Self.hd, blockRange: NSRange(location: 0, length: 2)) { r in
                        log("fast read \(Self.outcome(r.failure))")
                    }
                },
                { _, t, log in
                    t.extendedFastReadMultipleBlocks(requestFlags: Self.hd, blockRange: NSRange(location: 0, length: 2))
                    {
                        r in log("ext fast read \(Self.outcome(r.failure))")
                    }
                },
                { _, t, log in
                    t.customCommand(
                        requestFlags: Self.hd, customCommandCode: 0xAB, customRequestParameters: Data([0x01])
                    ) {
                        d, e in log("custom \(d.count) \(Self.outcome(e))")
                    }
                },
                { _, t, log in
                    t.authenticate(requestFlags: Self.hd, cryptoSuiteIdentifier: 0, message: Data([1, 2])) {
                        log("authenticate \(pair($0))")
                    }
                },
                { _, t, log in
                    t.keyUpdate(requestFlags: Self.hd, keyIdentifier: 1, message: Data([3])) {
                        log("key update \(pair($0))")
                    }
                },
                { _, t, log in
                    t.challenge(requestFlags: Self.hd, cryptoSuiteIdentifier: 0, message: Data([4])) {
                        log("challenge \(Self.outcome($0))")
                    }
                },
                { _, t, log in t.readBuffer(requestFlags: Self.hd) { log("read buffer \(pair($0))") } },
                { _, t, log in
                    // Raw: the app sets the flags and inserts the UID itself.
                    let uid = Data(t.identifier.reversed())
                    t.sendRequest(requestFlags: 0x22, commandCode: 0x20, data: uid + Data([0x00])) { r in
                        switch r {
                        case .success(let (f, d)): log("raw read flags \(f.rawValue) data \(hex(d ?? Data()))")
                        case .failure(let e): log("raw read \(Self.outcome(e))")
                        }
                    }
                },
                { _, t, log in
                    t.sendRequest(requestFlags: 0x02, commandCode: 0x3F, data: nil) { r in
                        switch r {
                        case .success(let (f, d)): log("raw unknown flags \(f.rawValue) data \(hex(d ?? Data()))")
                        case .failure(let e): log("raw unknown \(Self.outcome(e))")
                        }
                    }
                },
            ])
        let cc = hex(Data(chip.memory[0..<4]))
        #expect(
            lines == [
                "connect ok",
                ext ? "ext write ok" : "ext write 102 iso 01",
                ext ? "ext read 05060708 ok" : "ext read  102 iso 01",
                ext ? "ext write multiple ok" : "ext write multiple 102 iso 01",
                ext ? "ext read multiple 01010101 02020202 05060708 ok" : "ext read multiple  102 iso 01",
                ext ? "ext lock ok" : "ext lock 102 iso 01",
                ext ? "ext security [0, 1]" : "ext security 102 iso 01",
                profile.hasWriteMultiple ? "write multiple ok" : "write multiple 102 iso 01",
                "fast read 102 iso 01", "ext fast read 102 iso 01",
                // AB is GET NXP SYSTEM INFORMATION on the SLIX2, which takes no parameter: 02 there.
                profile.custom == .icodeSLIX2 ? "custom 0 102 iso 02" : "custom 0 102 iso 01",
                "authenticate flags 1 data 01", "key update flags 1 data 01", "challenge 102 iso 01",
                "read buffer flags 1 data 01", "raw read flags 0 data \(cc)", "raw unknown flags 1 data 01",
            ])
        let mfg = String(format: "%02X", profile.uidPrefix[1])
        let lsb = Self.uid(profile).reversed().map { String(format: "%02X", $0) }.joined(separator: " ")
        // ISO/IEC 15693-3 §10.5: the IC manufacturer code follows a custom command code, then the UID.
        #expect(phone.transcriptText([.rf]).contains("→ 22 AB \(mfg) \(lsb) 01"))
    }

    @Test func parametersAreCheckedBeforeAnythingIsSent() throws {
        // Without background reading, which would read the tag's NDEF as it is put down.
        let phone = VirtualPhone(recordsFrames: true, backgroundTagReading: false)
        phone.put(try ISO15693Tag.factory(.st25dv04k, uid: Self.uid(.st25dv04k)))
        let lines = Self.run(
            phone,
            [
                { _, t, log in
                    t.readMultipleBlocks(requestFlags: Self.hd, blockRange: NSRange(location: 0, length: 0)) { _, e in
                        log("empty range \(Self.outcome(e))")
                    }
                },
                { _, t, log in
                    t.readMultipleBlocks(requestFlags: Self.hd, blockRange: NSRange(location: 255, length: 2)) { _, e in
                        log("past block 255 \(Self.outcome(e))")
                    }
                },
                { _, t, log in
                    t.extendedReadMultipleBlocks(requestFlags: Self.hd, blockRange: NSRange(location: 65535, length: 2))
                    {
                        _, e in log("past block 65535 \(Self.outcome(e))")
                    }
                },
                { _, t, log in
                    t.extendedReadSingleBlock(requestFlags: Self.hd, blockNumber: 65536) { _, e in
                        log("block 65536 \(Self.outcome(e))")
                    }
                },
                { _, t, log in
                    t.writeMultipleBlocks(
                        requestFlags: Self.hd, blockRange: NSRange(location: 1, length: 2),
                        dataBlocks: [Data([1, 2, 3, 4])]
                    ) { log("one block for two \(Self.outcome($0))") }
                },
                { _, t, log in
                    t.writeMultipleBlocks(
                        requestFlags: Self.hd, blockRange: NSRange(location: 1, length: 2),
                        dataBlocks: [Data([1, 2, 3, 4]), Data([1, 2])]
                    ) { log("uneven blocks \(Self.outcome($0))") }
                },
                { _, t, log in
                    t.writeSingleBlock(requestFlags: Self.hd, blockNumber: 1, dataBlock: Data()) {
                        log("empty block \(Self.outcome($0))")
                    }
                },
                { _, t, log in
                    t.customCommand(requestFlags: Self.hd, customCommandCode: 0x20, customRequestParameters: Data()) {
                        _, e in log("custom 20 \(Self.outcome(e))")
                    }
                },
                { _, t, log in
                    t.sendRequest(requestFlags: 0x100, commandCode: 0x20, data: nil) { r in
                        log("flags 256 \(Self.outcome(r.failure))")
                    }
                },
                { _, t, log in
                    t.writeSingleBlock(requestFlags: Self.hd, blockNumber: 1, dataBlock: Data(count: 250)) {
                        log("a 260-byte request \(Self.outcome($0))")
                    }
                },
            ])
        #expect(
            lines == [
                "connect ok", "empty range 5", "past block 255 5", "past block 65535 5", "block 65536 5",
                "one block for two 4", "uneven blocks 4", "empty block 4", "custom 20 5", "flags 256 5",
                "a 260-byte request 105",
            ])
        // None of these reached the air (only identification's GET SYSTEM INFORMATION did).
        let air = phone.transcriptText([.rf])
        for command in ["→ 22 23", "→ 22 33", "→ 22 30", "→ 22 24", "→ 22 21", "→ 22 20", "→ 00 20"] {
            #expect(!air.contains(command), "\(command)")
        }
    }

    @Test func aTagNotConnectedIs104AndATagThatLeftIs100() async throws {
        let phone = VirtualPhone()
        let handle = phone.put(try ISO15693Tag.factory(.icodeSLIX2, uid: Self.uid(.icodeSLIX2)))
        let app = TagSessionRecorder()
        let found = LockedTag()
        app.onDetect = { _, tags in found.tag = tags.first }
        let session = phone.run {
            let s = NFCTagReaderSession(configuration: .init(pollingOption: .iso15693), delegate: app)
            s.begin()
            return s
        }
        phone.settle()
        guard let tag = found.tag, case .iso15693(let t5) = tag else {
            Issue.record("no ISO 15693 tag")
            return
        }
        await #expect {
            _ = try await t5.readSingleBlock(requestFlags: Self.hd, blockNumber: 0)
        } throws: { ($0 as? NFCReaderError)?.code == .readerTransceiveErrorTagNotConnected }
        try await session.connect(to: tag)
        let block = try await t5.readSingleBlock(requestFlags: Self.hd, blockNumber: 0)
        #expect(hex(block) == "E1402701")
        let info = try await t5.systemInfo(requestFlags: Self.hd)
        #expect(info.totalBlocks == 80 && info.icReference == 1)
        #expect(
            try await t5.readMultipleBlocks(requestFlags: Self.hd, blockRange: NSRange(location: 0, length: 2)).count
                == 2)
        do {
            _ = try await t5.fastReadMultipleBlocks(requestFlags: Self.hd, blockRange: NSRange(location: 0, length: 1))
            Issue.record("an error answer fails the command")
        } catch let e as NFCReaderError {
            #expect(e.code == .readerTransceiveErrorTagResponseError)
            #expect(e.userInfo[NFCISO15693TagResponseErrorKey] as? Int == 0x01)
            #expect(e.errorUserInfo["ISO15693TagResponseErrorCode"] as? Int == 0x01)
        }
        phone.remove(handle)
        await #expect {
            try await t5.writeSingleBlock(requestFlags: Self.hd, blockNumber: 3, dataBlock: Data([1, 2, 3, 4]))
        } throws: { ($0 as? NFCReaderError)?.code == .readerTransceiveErrorTagConnectionLost }
        #expect(!t5.isAvailable)
        session.invalidate()
    }

    @available(*, deprecated, message: "exercises the deprecated iOS 13 forms")
    @Test func theDeprecatedFormsStillWork() throws {
        let phone = VirtualPhone()
        let chip = try ISO15693Tag.factory(.icodeSLIX, uid: Self.uid(.icodeSLIX))
        phone.put(chip)
        let lines = Self.run(
            phone,
            [
                { _, t, log in
                    t.getSystemInfo(requestFlags: Self.hd) { dsfid, afi, size, blocks, ic, e in
                        log("\(dsfid) \(afi) \(size) \(blocks) \(ic) \(Self.outcome(e))")
                    }
                },
                { _, t, log in t.lockDFSID(requestFlags: Self.hd) { log("lockDFSID \(Self.outcome($0))") } },
            ])
        #expect(lines == ["connect ok", "0 0 4 28 1 ok", "lockDFSID ok"])
        #expect(chip.dsfidLocked)
    }

    @Test func backgroundReadingReadsAType5Tag() throws {
        var c = AppConfiguration()
        c.associatedDomains = ["applinks:t5.example"]
        let phone = VirtualPhone(configuration: c)
        phone.put(
            try ISO15693Tag.factory(.st25dv64k, uid: Self.uid(.st25dv64k), holding: RealStackTests.uri("t5.example/a")))
        #expect(phone.notifications.map(\.uri) == ["https://t5.example/a"])
        #expect(phone.notifications.first?.destination == .app)
    }
}

/// The tag a session delivered, handed from the session queue to the test.
final class LockedTag: @unchecked Sendable {
    private let lock = NSLock()
    private var _tag: NFCTag?
    var tag: NFCTag? {
        get { lock.withLock { _tag } }
        set { lock.withLock { _tag = newValue } }
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let e) = self { return e }
        return nil
    }
}
