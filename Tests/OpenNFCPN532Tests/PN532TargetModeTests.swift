import Foundation
import OpenNFCBytes
import OpenNFCPN532
import OpenNFCPN532Emulator
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// Target mode end to end: our driver puts the virtual PN532 in card emulation over a pseudo-terminal and answers
/// its APDUs from a virtual Type 4 tag; a reader (the reader procedures over a second virtual field) reads and
/// writes that tag's NDEF through the PN532's emulated card.
@Suite struct PN532TargetModeTests {
    @Test func aVirtualType4TagPresentedThroughThePN532() throws {
        let message = h("D1010F5402656E68656C6C6F2C20504E353332")
        let presented = try Type4Tag.factory(uid: h("04C1C2C3C4C5C6"), holding: message)
        let served = try ServedPN532([])
        defer { served.stop() }
        let frontend = try PN532DeviceString(parsing: served.path).open()
        defer { frontend.driver.transport.close() }

        // The emulation runs on its own thread (the host program); the reader is this test's thread.
        nonisolated(unsafe) let host = frontend
        nonisolated(unsafe) let tag = presented
        let finished = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var outcome: Result<Int, any Error>?
        Thread {
            do {
                let n = try host.emulateCard(PN532CardEmulation(uid3: h("B00B1E"), waitMilliseconds: 10_000)) {
                    apdu in
                    switch tag.receive(apdu, tearAfter: nil) {
                    case .data(let d): return d
                    default: return nil
                    }
                }
                outcome = .success(n)
            } catch {
                outcome = .failure(error)
            }
            finished.signal()
        }.start()

        #expect(served.chip.waitForTargetMode(seconds: 10))
        // The reader's side: a second field with the PN532's emulated card in it.
        let card = served.chip.emulatedCard
        let readerField = VirtualField(clock: VirtualClock(), timing: .instant)
        readerField.place(card)
        let reader = VirtualFieldFrontend(field: readerField)
        let target = try #require(try reader.poll([.nfcA]).first)
        #expect(target.identifier == h("08B00B1E") && target.selRes == 0x20)
        let active = try reader.activate(target, isoDEP: true)
        let ndef = Type4NDEF(target: active, frontend: reader)
        #expect(try ndef.readMessage() == message)
        let new = h("D101055402656E6F6B")
        try ndef.writeMessage(new)
        card.release()
        #expect(finished.wait(timeout: .now() + 10) == .success)
        guard case .success(let n)? = outcome else {
            Issue.record("emulation failed: \(String(describing: outcome))")
            return
        }
        #expect(n >= 4)
        // The write reached the presented tag through TgGetData / TgSetData.
        let direct = VirtualField(clock: VirtualClock(), timing: .instant)
        direct.place(presented)
        let r = VirtualFieldFrontend(field: direct)
        let t = try r.activate(try #require(try r.poll([.nfcA]).first), isoDEP: true)
        #expect(try Type4NDEF(target: t, frontend: r).readMessage() == new)
    }
}
