import OpenNFCPCSC
import OpenNFCRF
import OpenNFCTestSupport
import Testing

/// The frontend mapping, tested like a tag procedure: exact APDUs, one comment per command.
@Suite struct PCSCFrontendTests {
    let reader = "Virtual PCD 00 00"

    func frontend(
        _ card: FakePCSCBinding.Card, reader: String = "Virtual PCD 00 00"
    ) throws -> (PCSCFrontend, FakePCSCBinding) {
        let fake = FakePCSCBinding(readers: [reader])
        fake.insert(card, into: reader)
        return (PCSCFrontend(context: try PCSCContext(binding: fake)), fake)
    }

    @Test func part3OnlyReaderMapsReadAndWrite() throws {
        let tag = FakeType2Card(passThrough: .none)
        let (f, fake) = try frontend(tag.card)
        let targets = try f.poll([.nfcA])
        #expect(targets.count == 1)
        let t = targets[0]
        #expect(t.identifier == h("04A1B2C3D4E580"))
        #expect(t.sensRes == 0x0044)
        #expect(t.selRes == 0x00)
        #expect(!t.isISODEP)
        #expect(f.card(for: t)?.kind == .storage(standard: 0x03, cardName: 0x0003))
        // The poll's shared connection is released.
        #expect(fake.openConnections == 0)

        _ = try f.activate(t)
        #expect(f.activeProfile is StorageCardProfile)
        #expect(f.capabilities.rawFrames == false)
        #expect(try f.exchange([0x30, 0x04]) == .frame(h("0309D101055402656E6869FE00000000")))
        #expect(try f.exchange([0xA2, 0x05, 0x01, 0x02, 0x03, 0x04]) == .ack)
        #expect(try f.exchange([0xA2, 0x01, 0x01, 0x02, 0x03, 0x04]) == .nak(0))
        #expect {
            _ = try f.exchange([0x60])
        } throws: { error in
            let e = error as! RFError
            return e.code == .unsupported && e.detail.contains("raw pass-through")
        }
        f.deactivate()
        #expect(fake.openConnections == 0)
        #expect(
            fake.transcript.map(\.command) == [
                h("FFCA000000"),  // GET DATA UID (poll)
                h("FF00000003D44260"),  // pass-through probe: GET_VERSION (refused: 6A 81)
                h("FFC20000028100 00"),  // transparent-session probe: start (refused: 6A 81)
                h("FFB0000410"),  // READ BINARY page 4
                h("FFD6000504 01020304"),  // UPDATE BINARY page 5
                h("FFD6000104 01020304"),  // UPDATE BINARY page 1 (refused)
            ])
    }

    @Test func aReaderAnswering6300ToTheProbeHasNoPassThrough() throws {
        // `63 00` to `FF 00 00 00 … D4 42 60` is the reader refusing the form, not the tag staying silent (a PN532
        // says that as `D5 43 01`): Part 3 it is, and the tag is not reset as if it had gone mute.
        let tag = FakeType2Card(passThrough: .refusing63)
        let (f, fake) = try frontend(tag.card, reader: "Generic Contactless Reader 0")
        _ = try f.activate(try f.poll([.nfcA])[0])
        #expect(f.activeProfile is StorageCardProfile)
        #expect(try f.exchange([0x30, 0x04]) == .frame(h("0309D101055402656E6869FE00000000")))
        #expect(
            fake.transcript.map(\.command) == [
                h("FFCA000000"),  // GET DATA UID (poll)
                h("FF00000003D44260"),  // pass-through probe: 63 00
                h("FFC20000028100 00"),  // transparent-session probe: refused (6A 81)
                h("FFB0000410"),  // READ BINARY page 4
            ])
    }

    @Test func acr122uStylePassThroughCarriesNativeFrames() throws {
        let tag = FakeType2Card(passThrough: .acr122u)
        let (f, fake) = try frontend(tag.card)
        let t = try f.poll([.nfcA])[0]
        _ = try f.activate(t)
        #expect(f.activeProfile is ACR122UPassThroughProfile)
        #expect(f.activeVersion?.chipName == "NTAG215")
        #expect(f.capabilities.rawFrames)
        fake.clearTranscript()
        #expect(try f.exchange([0x60]) == .frame(h("0004040201001103")))
        #expect(try f.exchange([0x30, 0x03]) == .frame(h("E1103E000309D101055402656E6869FE")))
        #expect(try f.exchange([0x1B, 0xFF, 0xFF, 0xFF, 0xFF]) == .frame([0x00, 0x00]))
        #expect(try f.exchange([0xA2, 0x06, 0xAA, 0xBB, 0xCC, 0xDD]) == .ack)
        #expect(try f.exchange([0xA2, 0x02, 0xAA, 0xBB, 0xCC, 0xDD]) == .nak(0))
        #expect(throws: RFError(.timeout, "the tag did not answer (PN532 status 01)")) {
            try f.exchange([0x3C, 0x00])
        }
        #expect(
            fake.transcript.map(\.command) == [
                h("FF00000003D44260"),  // GET_VERSION
                h("FF00000004D4423003"),  // READ page 3
                h("FF00000007D4421BFFFFFFFF"),  // PWD_AUTH
                h("FF00000008D442A206AABBCCDD"),  // WRITE page 6
                h("FF00000008D442A202AABBCCDD"),  // WRITE page 2 (NAK)
                h("FF00000004D4423C00"),  // READ_SIG (silent here)
            ])
    }

    @Test func anAnswerAboveTheProfilesLimitIsNamedNotATimeout() throws {
        // FAST_READ of all 135 pages of an NTAG215: 540 bytes, more than the ACR122U profile's 252-byte frames.
        let tag = FakeType2Card(passThrough: .acr122u, fastRead: true)
        let (f, _) = try frontend(tag.card)
        _ = try f.activate(try f.poll([.nfcA])[0])
        #expect(
            throws: RFError(
                .frameTooLong,
                "answer of 540 bytes exceeds the frontend's 252-byte limit (ACR122U pass-through (PN532 InCommunicateThru))"
            )
        ) {
            try f.exchange([0x3A, 0x00, 0x86])
        }
        // 63 pages (252 bytes) still come back whole.
        #expect(try f.exchange([0x3A, 0x00, 0x3E]) == .frame(Array(tag.memory.withLock { $0 }[0..<252])))
    }

    @Test func plainUltralightIsResetAfterTheProbe() throws {
        let tag = FakeType2Card(passThrough: .acr122u, version: nil, pages: 16)
        let (f, fake) = try frontend(tag.card)
        _ = try f.activate(try f.poll([.nfcA])[0])
        #expect(f.activeProfile is ACR122UPassThroughProfile)
        #expect(f.activeVersion == nil)
        #expect(fake.resetCount == 1)
        // The tag answers again after the reset.
        #expect(try f.exchange([0x30, 0x00]).description.count == 32)
    }

    @Test func readerNameSelectsTheACSProfiles() throws {
        let acr122 = "ACS ACR122U PICC Interface 00 00"
        let (f, fake) = try frontend(FakeType2Card(passThrough: .acr122u).card, reader: acr122)
        _ = try f.activate(try f.poll([.nfcA])[0])
        #expect(f.activeProfile is ACR122UPassThroughProfile)
        #expect(fake.transcript.count == 2)

        let acr1252 = "ACS ACR1252 1S CL Reader [ACR1252 Dual Reader PICC] 00 00"
        let (g, fake2) = try frontend(FakeType2Card(passThrough: .acr1252u).card, reader: acr1252)
        _ = try g.activate(try g.poll([.nfcA])[0])
        #expect(g.activeProfile is ACR1252UPassThroughProfile)
        #expect(g.activeVersion?.chipName == "NTAG215")
        fake2.clearTranscript()
        #expect(throws: RFError.self) { try g.exchange([0x3A, 0x04, 0x04]) }  // the fake chip has no FAST_READ
        #expect(fake2.transcript.map(\.command) == [h("FF000000033A0404")])  // FAST_READ 4..4
    }

    @Test func isoDEPCardPassesAPDUsAndWrapsNativeCommands() throws {
        let (f, fake) = try frontend(fakeISODEPCard())
        let t = try f.poll([.nfcA])[0]
        #expect(t.isISODEP)
        #expect(t.ats == [0x03, 0x08, 0x80])
        #expect(t.identifier == h("04112233445566"))
        _ = try f.activate(t)
        #expect(f.activeProfile is ISODEPProfile)
        #expect(try f.exchange(h("00A4040007D276000085010100")) == .frame([0x90, 0x00]))
        #expect(try f.exchange([0x60]) == .frame(h("AF04010101001805")))
        #expect(
            fake.transcript.map(\.command) == [
                h("FFCA000000"),  // GET DATA UID
                h("00A4040007D276000085010100"),  // SELECT NDEF application
                h("9060000000"),  // DESFire GetVersion, ISO-wrapped
            ])
    }

    @Test func cardRemovedMidCommandIsLinkLost() throws {
        let (f, fake) = try frontend(FakeType2Card(passThrough: .acr122u).card)
        _ = try f.activate(try f.poll([.nfcA])[0])
        fake.removeCardDuringNextCommand(on: reader)
        #expect {
            _ = try f.exchange([0x30, 0x04])
        } throws: { error in
            let e = error as! RFError
            return e.code == .linkLost && e.detail.contains("left the reader")
        }
        #expect(throws: RFError.self) { try f.exchange([0x30, 0x04]) }
        #expect(try f.poll([.nfcA]).isEmpty)
        #expect(fake.openConnections == 0)
    }

    @Test func pcscdStoppingAndReaderUnplugAreFrontendFailures() throws {
        let (f, fake) = try frontend(FakeType2Card(passThrough: .none).card)
        _ = try f.activate(try f.poll([.nfcA])[0])
        fake.unplugReader(reader)
        #expect {
            _ = try f.exchange([0x30, 0x04])
        } throws: { error in
            let e = error as! RFError
            return e.code == .frontendFailure && e.detail.contains("unplugged")
        }
        fake.serviceRunning = false
        #expect {
            _ = try f.poll([.nfcA])
        } throws: { error in
            let e = error as! RFError
            return e.code == .frontendFailure && e.detail.contains("pcscd")
        }
    }

    /// A frontend bound to one reader (`--device pcsc:NAME`) polls without listing readers, so the first call to meet
    /// a stopping pcscd is `SCardGetStatusChange`; an unrelated status from it still reads "pcscd stopped".
    @Test func pcscdStoppingUnderANamedReadersWaitSaysPCSCD() throws {
        let fake = FakePCSCBinding(readers: [reader])
        let f = PCSCFrontend(context: try PCSCContext(binding: fake), reader: reader)
        #expect(try f.waitForTargets([.nfcA], timeoutMilliseconds: 0) == [])
        fake.stopService(statusChangeFailsWith: 0x8010_006A)
        #expect {
            _ = try f.waitForTargets([.nfcA], timeoutMilliseconds: 50)
        } throws: { error in
            let e = error as! RFError
            return e.code == .frontendFailure && e.detail.contains("(pcscd) stopped") && !e.detail.contains("failed")
        }
    }

    /// Another application holding the tag: activation waits at most `busyWaitMilliseconds` for it to let go, then
    /// reports it by name; once the tag is free, the same target activates.
    @Test func activationWaitsForAnotherApplicationThenSaysWhoHoldsTheTag() throws {
        let (f, fake) = try frontend(FakeType2Card(passThrough: .none).card)
        f.busyWaitMilliseconds = 20
        let t = try f.poll([.nfcA])[0]
        let other = try PCSCContext(binding: fake).connect(reader: reader, share: .shared)
        #expect {
            _ = try f.activate(t)
        } throws: { error in
            let e = error as! RFError
            return e.code == .frontendFailure && e.detail.contains("SCARD_E_SHARING_VIOLATION")
        }
        other.disconnect(.leave)
        #expect(try f.activate(t) == t)
        #expect(fake.openConnections == 1)
    }

    @Test func sessionHoldsTheCardExclusively() throws {
        let (f, fake) = try frontend(FakeType2Card(passThrough: .none).card)
        let t = try f.poll([.nfcA])[0]
        _ = try f.activate(t)
        let other = try PCSCContext(binding: fake)
        #expect {
            _ = try other.connect(reader: reader, share: .shared)
        } throws: { ($0 as! PCSCError).code == .sharingViolation }
        // Polling again while active keeps the same target (no second connection attempt).
        #expect(try f.poll([.nfcA]) == [t])
        // Deactivation resets the tag and frees the reader.
        f.deactivate()
        #expect(fake.resetCount == 1)
        #expect(fake.openConnections == 0)
        #expect(try f.poll([.nfcA]) == [t])
        #expect(try f.poll([.nfcF]).isEmpty)
    }

    @Test func swappedCardGetsANewHandle() throws {
        let (f, fake) = try frontend(FakeType2Card(passThrough: .none).card)
        let first = try f.poll([.nfcA])[0]
        fake.removeCard(from: reader)
        fake.insert(FakeType2Card(passThrough: .none).card, into: reader)
        let second = try f.poll([.nfcA])[0]
        #expect(second.handle != first.handle)
        #expect(throws: RFError.self) { try f.activate(first) }
    }

    @Test func unknownNamedReader() throws {
        let fake = FakePCSCBinding(readers: [reader])
        let f = PCSCFrontend(context: try PCSCContext(binding: fake), reader: "ACS ACR122U 00 00")
        #expect {
            _ = try f.poll([.nfcA])
        } throws: { ($0 as! RFError).detail.contains("opennfc readers") }
        #expect(f.capabilities.rawFrames)
    }

    @Test func worksUnderInstrumentation() throws {
        let (f, _) = try frontend(FakeType2Card(passThrough: .acr122u).card)
        let counted = InstrumentedFrontend(f)
        _ = try counted.activate(try counted.poll([.nfcA])[0])
        _ = try counted.exchange([0x30, 0x04])
        _ = try counted.exchange([0x30, 0x08])
        #expect(counted.counts.framesSent == 2)
        #expect(counted.counts.bytesReceived == 32)
    }
}
