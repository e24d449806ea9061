import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// The interop bench of a Type 5 tag (``FieldBench``).
typealias Type5Bench = FieldBench

extension FieldBench {
    /// A Type 5 tag alone in the field: poll NFC-V, activate, and the T5T procedure over the instrumented frontend
    /// (frame counts start after activation).
    func connectType5(_ tag: any VirtualTag) throws -> Type5NDEF {
        let target = try activate(tag, polling: RFPollRequest([.nfcV]))
        frontend.resetCounts()
        return Type5NDEF(uid: target.identifier, frontend: frontend)
    }
}

func type5UID(_ p: ISO15693ChipProfile) -> [UInt8] { Array((p.uidPrefix + [0x10, 0x20, 0x30, 0x40, 0x50]).prefix(8)) }

/// Every Type 5 procedure against every virtual Type 5 chip.
@Suite struct Type5InteropTests {
    /// format → write the largest message → read it back → make read-only → writes refused by the procedure and by
    /// the chip, with fresh activations in between so every read comes from the chip.
    @Test(arguments: ISO15693ChipProfile.all)
    func lifecycle(profile: ISO15693ChipProfile) throws {
        let bench = Type5Bench()
        let chip = try ISO15693Tag(profile: profile, uid: type5UID(profile))
        var p = try bench.connectType5(chip)
        #expect(try p.detect().status == .notSupported)
        try p.format()
        p = try bench.connectType5(chip)
        let formatted = try p.detect()
        #expect(formatted.status == .readWrite && formatted.messageLength == 0)
        #expect(try p.readMessage() == [])

        let message = ndefMessage(length: formatted.capacity, seed: 3)
        try p.writeMessage(message)
        p = try bench.connectType5(chip)
        #expect(try p.readMessage() == message)
        #expect(chip.ndefMessage == message)
        #expect(tagErrorCode { try p.writeMessage(ndefMessage(length: formatted.capacity + 1)) } == .capacityExceeded)
        #expect(tagErrorCode { try p.writeMessage([]) } == .emptyMessage)

        try p.makeReadOnly()
        #expect(try p.detect().status == .readOnly)
        #expect(tagErrorCode { try p.writeMessage(ndefMessage(length: 5)) } == .readOnly)
        p = try bench.connectType5(chip)
        #expect(
            try p.detect()
                == NDEFDetection(status: .readOnly, capacity: formatted.capacity, messageLength: message.count))
        #expect(try p.readMessage() == message)
        let areaBlocks =
            (Int(chip.memory[0] == 0xE2 ? Int(chip.memory[6]) << 8 | Int(chip.memory[7]) : Int(chip.memory[2])) * 8 + 3)
            / 4
        #expect(chip.lockedBlocks == Set(0..<areaBlocks))
        // The chip itself refuses a raw write to block 1 now: error 12 (block locked).
        let option: UInt8 = profile.writesNeedOption ? 0x40 : 0x00
        let raw = [0x22 | option, 0x21] + type5UID(profile).reversed() + [0x01, 0, 0, 0, 0]
        #expect(try bench.frontend.exchange(raw) == .frame([0x01, 0x12]))
    }

    @Test(arguments: ISO15693ChipProfile.all)
    func smallMessagesRoundTripAndOverwrite(profile: ISO15693ChipProfile) throws {
        let bench = Type5Bench()
        let chip = try ISO15693Tag.factory(profile, uid: type5UID(profile))
        for (i, length) in [3, 20, 300, 44, 3].enumerated() where length + 8 <= profile.userBytes {
            var p = try bench.connectType5(chip)
            let message = ndefMessage(length: length, seed: UInt8(i))
            try p.writeMessage(message)
            p = try bench.connectType5(chip)
            #expect(try p.readMessage() == message)
            #expect(try p.detect().messageLength == length)
        }
    }

    /// A tag taken away after every frame of a write reads as the old message, an empty one, or the new one, never
    /// anything else (NFC Forum T5T §7.5.3's order).
    @Test(arguments: [ISO15693ChipProfile.icodeSLIX, .st25dv04k, .tagitHFIPlus])
    func aWriteTornAfterAnyFrameLeavesOldEmptyOrNew(profile: ISO15693ChipProfile) throws {
        let old = ndefMessage(length: 60, seed: 1)
        let new = ndefMessage(length: 90, seed: 2)
        let probe = Type5Bench()
        let reference = try ISO15693Tag.factory(profile, uid: type5UID(profile), holding: old)
        try probe.connectType5(reference).writeMessage(new)
        let writeFrames = probe.frames
        #expect(writeFrames > 3)
        for n in 1...writeFrames {
            for fault in TearSweep.faults(n, tornAfter: [2]) {
                let bench = Type5Bench()
                let chip = try ISO15693Tag.factory(profile, uid: type5UID(profile), holding: old)
                let p = try bench.connectType5(chip)
                let completed =
                    TearSweep.attempt(on: bench.field, frame: n, fault: fault) { () throws(TagError) in
                        try p.writeMessage(new)
                    }.error == nil
                let after = try bench.connectType5(chip).readMessage()
                #expect(after == old || after == [] || after == new, "\(fault)")
                if completed { #expect(after == new, "\(fault)") }
            }
        }
    }

    @Test func errorCodesOfTheTagReachTheProcedure() throws {
        let bench = Type5Bench()
        let chip = try ISO15693Tag.factory(.icodeSLIX, uid: type5UID(.icodeSLIX))
        chip.lockedBlocks = [3]
        let p = try bench.connectType5(chip)
        do {
            try p.writeMessage(ndefMessage(length: 40))
            Issue.record("the write went through a locked block")
        } catch {
            #expect(error.code == .commandRejected && error.iso15693Error == 0x12)
        }
    }
}
