import OpenNFCPCSC
import OpenNFCTestSupport
import Testing

@Suite struct PCSCContextTests {
    let reader = "Virtual PCD 00 00"

    @Test func serviceDownSaysStartPCSCD() {
        let fake = FakePCSCBinding(readers: [reader])
        fake.serviceRunning = false
        #expect {
            _ = try PCSCContext(binding: fake)
        } throws: { error in
            let e = error as! PCSCError
            return e.code == .serviceUnavailable && e.function == "SCardEstablishContext" && e.detail.contains("pcscd")
        }
    }

    @Test func noReaders() throws {
        let context = try PCSCContext(binding: FakePCSCBinding())
        #expect(try context.readers() == [])
        #expect {
            _ = try context.requireReaders()
        } throws: { error in
            let e = error as! PCSCError
            return (e.code == .noReaders || e.code == .readerHeldByKernelDriver) && !e.detail.isEmpty
        }
    }

    @Test func arrivalAndRemovalThroughStatusChange() throws {
        let fake = FakePCSCBinding(readers: [reader, "Virtual PCD 00 01"])
        let context = try PCSCContext(binding: fake)
        #expect(try context.readers() == [reader, "Virtual PCD 00 01"])
        var states = try context.states(of: [reader])
        #expect(states[0].eventState.contains(.empty))
        // Nothing changes: the wait ends (the fake never blocks) and reports a timeout, not a hang.
        states[0].acknowledge()
        #expect(try context.waitForChange(&states, timeoutMilliseconds: 5000) == false)
        #expect(try context.waitForCard(on: reader, timeoutMilliseconds: 5000) == nil)

        fake.insert(FakeType2Card(passThrough: .none).card, into: reader)
        #expect(try context.waitForChange(&states, timeoutMilliseconds: 5000) == true)
        #expect(states[0].eventState.contains(.present))
        #expect(states[0].eventState.contains(.changed))
        #expect(states[0].atr == ultralightATR)
        #expect(try context.waitForCard(on: reader, timeoutMilliseconds: 5000) == ultralightATR)

        states[0].acknowledge()
        fake.removeCard(from: reader)
        #expect(try context.waitForChange(&states, timeoutMilliseconds: 5000) == true)
        #expect(states[0].eventState.contains(.empty))
        #expect(try context.waitForRemoval(on: reader, timeoutMilliseconds: 5000))
    }

    @Test func unknownReaderInStatusChange() throws {
        let context = try PCSCContext(binding: FakePCSCBinding(readers: [reader]))
        let states = try context.states(of: ["No Such Reader"])
        #expect(states[0].eventState.contains(.unknown))
        #expect {
            _ = try context.waitForCard(on: "No Such Reader", timeoutMilliseconds: 10)
        } throws: { ($0 as! PCSCError).code == .unknownReader }
    }

    @Test func exclusiveConnectionKeepsOthersOff() throws {
        let fake = FakePCSCBinding(readers: [reader])
        fake.insert(FakeType2Card(passThrough: .none).card, into: reader)
        let a = try PCSCContext(binding: fake)
        let b = try PCSCContext(binding: fake)
        let card = try a.connect(reader: reader, share: .exclusive)
        #expect(card.atr == ultralightATR)
        #expect(try a.states(of: [reader])[0].eventState.contains(.exclusive))
        #expect {
            _ = try b.connect(reader: reader, share: .shared)
        } throws: { error in
            let e = error as! PCSCError
            return e.code == .sharingViolation && e.detail.contains("another application")
        }
        card.disconnect()
        let shared = try b.connect(reader: reader, share: .shared)
        shared.disconnect()
        #expect(fake.openConnections == 0)
    }

    @Test func transmitAndItsFailures() throws {
        let fake = FakePCSCBinding(readers: [reader])
        fake.insert(FakeType2Card(passThrough: .none).card, into: reader)
        let context = try PCSCContext(binding: fake)
        let card = try context.connect(reader: reader)
        let uid = try card.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
        #expect(uid.isSuccess)
        #expect(uid.data == h("04A1B2C3D4E580"))
        #expect(uid.description == "04A1B2C3D4E580 9000")

        // The tag leaves during the command: pcscd answers success with no bytes.
        fake.removeCardDuringNextCommand(on: reader)
        #expect {
            _ = try card.transmit([0xFF, 0xB0, 0x00, 0x04, 0x10])
        } throws: { error in
            let e = error as! PCSCError
            return e.code == .cardRemoved && e.status == PCSCStatus.success && e.detail.contains("empty response")
        }
        // The next command reports the removal the way pcscd does.
        #expect {
            _ = try card.transmit([0xFF, 0xB0, 0x00, 0x04, 0x10])
        } throws: { ($0 as! PCSCError).code == .cardRemoved }
    }

    @Test func readerUnpluggedAndServiceStopped() throws {
        let fake = FakePCSCBinding(readers: [reader])
        fake.insert(FakeType2Card(passThrough: .none).card, into: reader)
        let context = try PCSCContext(binding: fake)
        let card = try context.connect(reader: reader)
        fake.unplugReader(reader)
        #expect {
            _ = try card.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
        } throws: { error in
            let e = error as! PCSCError
            return e.code == .readerUnavailable && e.detail.contains("unplugged")
        }
        fake.plugReader(reader)
        fake.insert(FakeType2Card(passThrough: .none).card, into: reader)
        let again = try context.connect(reader: reader)
        fake.serviceRunning = false
        #expect {
            _ = try again.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
        } throws: { ($0 as! PCSCError).code == .serviceUnavailable }
    }

    /// pcsc-lite 1.9.9 can answer `SCardGetStatusChange` with an unrelated status when pcscd stops under it
    /// (SCARD_W_SECURITY_VIOLATION, `0x8010006A`). Both the no-wait query and the wait ask the service whether it is
    /// still there and, when it is not, say that pcscd stopped.
    @Test func unexplainedStatusWhilePCSCDStopsSaysSo() throws {
        let fake = FakePCSCBinding(readers: [reader])
        let context = try PCSCContext(binding: fake)
        var states = try context.states(of: [reader])
        fake.stopService(statusChangeFailsWith: 0x8010_006A)
        let stopped: (any Error) -> Bool = { error in
            let e = error as! PCSCError
            return e.code == .serviceUnavailable && e.status == 0x8010_006A && e.detail.contains("(pcscd) stopped")
        }
        #expect { _ = try context.states(of: [reader]) } throws: { stopped($0) }
        #expect { _ = try context.waitForChange(&states, timeoutMilliseconds: 10) } throws: { stopped($0) }
        // Started again, the same context answers as before.
        fake.serviceRunning = true
        #expect(try context.states(of: [reader]).count == 1)
    }

    @Test func controlCodes() throws {
        let fake = FakePCSCBinding(readers: [reader])
        fake.insert(FakeType2Card(passThrough: .none).card, into: reader)
        // ACR1252U firmware version through the escape command (ACS ACR1252U reference manual, Direct Transmit); code = SCARD_CTL_CODE(3500).
        #expect(fake.controlCode(function: 3500) == 0x4200_0DAC)
        fake.setControlResponse(Array("E1000000".utf8), forCode: 0x4200_0DAC)
        let card = try PCSCContext(binding: fake).connect(reader: reader)
        #expect(try card.control(function: 3500, [0xE0, 0x00, 0x00, 0x18, 0x00]) == Array("E1000000".utf8))
    }
}
