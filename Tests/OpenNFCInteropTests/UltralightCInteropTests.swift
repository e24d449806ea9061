import OpenNFCCrypto
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// The reader's Ultralight C procedures (OpenNFCTags) against the virtual MF0ICU2 (OpenNFCSimulation).
@Suite struct UltralightCInteropTests {
    static let key: [UInt8] = Array(0x10...0x1F)

    /// An NDEF-formatted Ultralight C holding `message`, protected from page 4 on (reads too) with ``key``.
    static func protectedTag(holding message: [UInt8]? = nil) throws -> Type2Tag {
        let t =
            try message.map { try Type2Tag.factory(.ultralightC, uid: uid7, holding: $0) }
            ?? Type2Tag.factory(.ultralightC, uid: uid7)
        try t.setUltralightCKey(key)
        try t.setUltralightCAccess(auth0: 0x04, protectReads: true)
        t.random = SeededRandomSource(seed: 99)
        return t
    }

    static func authenticate(_ bench: InteropBench, _ identified: IdentifiedTag, key: [UInt8]) throws(TagError) {
        try UltralightCAuthentication(
            target: identified.target, frontend: bench.frontend, random: SeededRandomSource(seed: 5)
        ).authenticate(key: key)
    }

    @Test func identificationTellsUltralightCFromUltralight() throws {
        let bench = InteropBench()
        let (c, _) = try bench.connect(try Type2Tag.factory(.ultralightC, uid: uid7))
        #expect(c.kind == .type2(.ultralightC))
        let (u, _) = try bench.connect(try Type2Tag.factory(.ultralight, uid: uid7))
        #expect(u.kind == .type2(.ultralight))
    }

    @Test func formatWriteReadOnAFactoryChip() throws {
        let bench = InteropBench()
        let chip = try Type2Tag.factory(.ultralightC, uid: uid7, ndefFormatted: false)
        var (_, p) = try bench.connect(chip)
        try p.format()
        let message = ndefMessage(length: 137, seed: 3)
        try p.writeMessage(message)
        (_, p) = try bench.connect(chip)
        #expect(try p.readMessage() == message)
        #expect(Array(chip.memory[12..<16]) == [0xE1, 0x10, 0x12, 0x00])
    }

    @Test func protectedPagesNeedTheKeyThenNDEFWorksAsOnAnyType2Tag() throws {
        let bench = InteropBench()
        let old = ndefMessage(length: 40, seed: 1)
        let chip = try Self.protectedTag(holding: old)
        var (id, p) = try bench.connect(chip)
        // Unauthenticated, READ 3 wraps at AUTH0 = 4 (pages 3, 0, 1, 2): the reader keeps only page 3, and its READ
        // of page 4 is refused, naming the page and the password, not mistaken for a tag without NDEF.
        #expect {
            _ = try p.readMessage()
        } throws: {
            ($0 as? TagError)?.code == .commandRejected && "\($0)".contains("READ page 4 refused")
        }

        (id, p) = try bench.connect(chip)
        #expect(
            tagErrorCode { try Self.authenticate(bench, id, key: UltralightCAuthentication.factoryKey) }
                == .commandRejected)

        (id, p) = try bench.connect(chip)
        try Self.authenticate(bench, id, key: Self.key)
        #expect(bench.frames == 2)
        #expect(try p.readMessage() == old)
        let new = ndefMessage(length: 137, seed: 2)
        try p.writeMessage(new)
        (id, p) = try bench.connect(chip)
        try Self.authenticate(bench, id, key: Self.key)
        #expect(try p.readMessage() == new)
    }

    @Test func changeKeyAndProtectThroughTheReader() throws {
        let bench = InteropBench()
        let chip = try Type2Tag.factory(.ultralightC, uid: uid7)
        var (id, _) = try bench.connect(chip)
        let auth = UltralightCAuthentication(
            target: id.target, frontend: bench.frontend, random: SeededRandomSource(seed: 1))
        try auth.authenticate(key: UltralightCAuthentication.factoryKey)
        try auth.changeKey(to: Self.key)
        try auth.configure(auth0: 0x04, protectReads: true)
        #expect(chip.ultralightCKeyPages == Self.key)
        #expect(chip.auth0 == 4 && chip.readProtection)
        // The new key counts from the next activation.
        var p: any NDEFTagProcedure
        (id, p) = try bench.connect(chip)
        #expect(
            tagErrorCode { try Self.authenticate(bench, id, key: UltralightCAuthentication.factoryKey) }
                == .commandRejected)
        (id, p) = try bench.connect(chip)
        try Self.authenticate(bench, id, key: Self.key)
        #expect(try p.readMessage() == [])
        #expect(tagErrorCode { try auth.configure(auth0: 2, protectReads: false) } == .unsupported)
    }

    @Test func tearAfterEveryFrameOfAnAuthenticatedWrite() throws {
        let old = ndefMessage(length: 60, seed: 1)
        let new = ndefMessage(length: 137, seed: 2)
        var outcomes: Set<TearingInteropTests.Outcome> = []
        var n = 1
        while n < 200 {
            var completed = false
            for fault in TearSweep.faults(n) {
                let bench = InteropBench()
                let chip = try Self.protectedTag(holding: old)
                var (id, p) = try bench.connect(chip)
                try Self.authenticate(bench, id, key: Self.key)
                let attempt = TearSweep.attempt(on: bench.field, frame: n, fault: fault) { () throws(TagError) in
                    try p.writeMessage(new)
                }
                if let e = attempt.error {
                    #expect(e.code == .rf, "frame \(n): \(e)")
                } else if attempt.pastTheEnd {
                    completed = true
                }
                (id, p) = try bench.connect(chip)
                try Self.authenticate(bench, id, key: Self.key)
                outcomes.insert(TearingInteropTests.classify(p, old: old, new: new, context: "frame \(n), \(fault)"))
            }
            if completed { break }
            n += 1
        }
        #expect(n > 30 && n < 200)
        #expect(outcomes == [.old, .empty, .new])
    }
}
