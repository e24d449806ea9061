import OpenNFCRF
import Testing

@testable import OpenNFCTags

/// The NTAG21x / Ultralight EV1 procedures behind `opennfc password`, `dump` and `restore`, as exact transcripts
/// (NTAG213/215/216 datasheet §8.8, §10).
@Suite struct NTAGPasswordTests {
    @Test func setWritesTheSecretFirstAndAUTH0Last() throws {
        let f = ScriptedFrontend([
            .send("30 29", "04 00 00 FF 00 05 00 00 00 00 00 00 00 00 00 00"),  // READ CFG0 (CFG0, CFG1, PWD, PACK)
            .send("A2 2B 12 34 56 78", .ack),  // WRITE PWD
            .send("A2 2C 80 80 00 00", .ack),  // WRITE PACK
            .send("A2 2A 83 05 00 00", .ack),  // WRITE CFG1: PROT, AUTHLIM 3; the factory 05 in byte 1 kept
            .send("A2 29 04 00 00 10", .ack),  // WRITE CFG0: AUTH0 = 0x10, MIRROR byte kept
        ])
        let pw = try NTAGPassword(target: ntagTarget, chip: .ntag213, frontend: f)
        let c = try pw.set(
            password: [0x12, 0x34, 0x56, 0x78], pack: [0x80, 0x80], auth0: 0x10, protectReads: true,
            authenticationLimit: 3)
        #expect(c.auth0 == 0x10 && c.protectsReads && c.authenticationLimit == 3 && !c.configurationLocked)
        #expect(f.isComplete)
    }

    @Test func authenticateReturnsPACKAndAWrongPasswordIsARejection() throws {
        let f = ScriptedFrontend([
            .send("1B 12 34 56 78", "80 80"),  // PWD_AUTH → PACK
            .send("1B 00 00 00 00", .nak(0)),  // PWD_AUTH, wrong password → NAK 0
        ])
        let pw = try NTAGPassword(target: ntagTarget, chip: .ntag215, frontend: f)
        #expect(try pw.authenticate(password: [0x12, 0x34, 0x56, 0x78]) == [0x80, 0x80])
        #expect { try pw.authenticate(password: [0, 0, 0, 0]) } throws: {
            ($0 as? TagError)?.code == .commandRejected && ($0 as? TagError)?.nak == 0
        }
        #expect(f.isComplete)
    }

    @Test func removeTurnsProtectionOffBeforeTheFactorySecret() throws {
        let f = ScriptedFrontend([
            .send("1B 12 34 56 78", "80 80"),  // PWD_AUTH
            .send("30 83", "04 00 00 04 80 00 00 00 00 00 00 00 00 00 00 00"),  // READ CFG0 of NTAG215
            .send("A2 83 04 00 00 FF", .ack),  // WRITE CFG0: AUTH0 = FF (off)
            .send("A2 84 00 00 00 00", .ack),  // WRITE CFG1: PROT and AUTHLIM cleared
            .send("A2 85 FF FF FF FF", .ack),  // WRITE PWD: factory
            .send("A2 86 00 00 00 00", .ack),  // WRITE PACK: factory
        ])
        try NTAGPassword(target: ntagTarget, chip: .ntag215, frontend: f).remove(password: [0x12, 0x34, 0x56, 0x78])
        #expect(f.isComplete)
    }

    @Test func lockedConfigurationAndOtherChipsAreRefused() throws {
        let f = ScriptedFrontend([
            .send("30 29", "04 00 00 FF 40 00 00 00 00 00 00 00 00 00 00 00")  // READ CFG0: CFGLCK set
        ])
        let pw = try NTAGPassword(target: ntagTarget, chip: .ntag213, frontend: f)
        #expect {
            try pw.set(password: [1, 2, 3, 4], pack: [0, 0], auth0: 4, protectReads: false, authenticationLimit: 0)
        } throws: { ($0 as? TagError)?.code == .readOnly }
        #expect(f.isComplete)
        #expect { try NTAGPassword(target: ntagTarget, chip: .generic, frontend: f) } throws: {
            ($0 as? TagError)?.code == .unsupported
        }
    }
}

@Suite struct Type2MemoryProcedureTests {
    /// NTAG213 (45 pages) through a frontend of 64-byte answers: FAST_READ in runs of 16 pages; pages from AUTH0 =
    /// 0x20 are read-protected, found one page at a time after the refused run.
    @Test func readFindsTheFirstProtectedPage() throws {
        let zeros16 = [UInt8](repeating: 0, count: 64)
        var steps: [ScriptedFrontend.Step] = [
            .send("3A 00 0F", zeros16),  // FAST_READ pages 0–15
            .send("3A 10 1F", zeros16),  // FAST_READ pages 16–31
            .send("3A 20 2C", .nak(0)),  // FAST_READ pages 32–44: protected → NAK, the chip goes mute
            .activate,
        ]
        steps += [.send("3A 20 20", .nak(0)), .activate]  // FAST_READ page 32 alone: protected
        let f = ScriptedFrontend(maxResponseSize: 64, steps)
        let image = try Type2MemoryReader(target: ntagTarget, chip: .ntag213, frontend: f).read()
        #expect(image.pages.count == 45)
        #expect(image.firstProtectedPage == 0x20)
        #expect(image.pages[31] != nil && image.pages[32] == nil && image.pages[44] == nil)
        #expect(f.isComplete)
    }

    @Test func restorePlanMakesTheTagEmptyFirstAndPage4Last() throws {
        let f = ScriptedFrontend([])
        let w = Type2MemoryWriter(target: ntagTarget, frontend: f)
        var current: [[UInt8]?] = Array(repeating: [0, 0, 0, 0], count: 45)
        var wanted: [[UInt8]] = Array(repeating: [0, 0, 0, 0], count: 45)
        current[3] = [0xE1, 0x10, 0x12, 0x00]
        wanted[3] = [0xE1, 0x10, 0x12, 0x00]
        current[4] = [0x01, 0x03, 0xA0, 0x0C]
        wanted[4] = [0x01, 0x03, 0xA0, 0x0C]
        wanted[5] = [0x34, 0x03, 0x05, 0xD1]
        wanted[6] = [0x01, 0x01, 0x55, 0x00]
        let plan = try w.plan(current: current, wanted: wanted, userPages: 4...39)
        #expect(plan.map(\.page) == [4, 5, 6, 4])
        #expect(plan.first?.bytes == [0x03, 0x00, 0xFE, 0x00])
        #expect(plan.last?.bytes == [0x01, 0x03, 0xA0, 0x0C])
        // Only the changed page: one write.
        wanted[5] = [0, 0, 0, 0]
        wanted[6] = [0, 0, 0, 0]
        wanted[4] = [0x03, 0x00, 0xFE, 0x00]
        #expect(try w.plan(current: current, wanted: wanted, userPages: 4...39).map(\.page) == [4])
        // The CC can only gain bits.
        current[3] = [0xE1, 0x10, 0x12, 0x0F]
        #expect { try w.plan(current: current, wanted: wanted, userPages: 4...39) } throws: {
            ($0 as? TagError)?.code == .readOnly
        }
    }
}
