import Foundation
import OpenNFCBytes
import OpenNFCPN532Emulator
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// Target mode from the programs people run: `opennfc emulate --device pn532:…` presenting a tag file, and a Core
/// NFC program's `CardSession` (`opencorenfc-example card` with `OPENCORENFC_DEVICE=pn532:…`), each through a
/// virtual PN532 on a pseudo-terminal; the reader is the reader procedures over a second virtual field holding the
/// chip's emulated card.
@Suite(.serialized) struct PN532TargetModeProcessTests {
    static let message = h("D1010F5402656E68656C6C6F2C20504E353332")

    /// A reader on its own field with the PN532's emulated card in it, activated as ISO-DEP.
    static func reader(_ served: ServedPN532) throws -> (VirtualFieldFrontend, RFTarget, PN532EmulatedCard) {
        let card = served.chip.emulatedCard
        let field = VirtualField(clock: VirtualClock(), timing: .instant)
        field.place(card)
        let reader = VirtualFieldFrontend(field: field)
        let target = try #require(try reader.poll([.nfcA]).first)
        return (reader, try reader.activate(target, isoDEP: true), card)
    }

    @Test func opennfcEmulatePresentsATagFileThroughThePN532() throws {
        let dir = try TestProcess.temporaryDirectory("opennfc-pn532-target")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("type4.json").path
        try TagFile.write(try Type4Tag.factory(uid: h("04C1C2C3C4C5C6"), holding: Self.message), path: file)
        let served = try ServedPN532([])
        defer { served.stop() }
        let emulate = try WatchedProcess(
            TestProcess.executable("opennfc", override: "OPENNFC_BIN"),
            ["emulate", "--device", "pn532:\(served.path)", "--save", file])
        defer { emulate.stop() }
        #expect(served.chip.waitForTargetMode(seconds: 30), "\(emulate.stderrText)")
        let (reader, target, card) = try Self.reader(served)
        // The chip answers as the card: UID 08 and the tag's last three UID bytes, SAK 20.
        #expect(target.identifier == h("08C1C2C3") && target.selRes == 0x20)
        let ndef = Type4NDEF(target: target, frontend: reader)
        #expect(try ndef.readMessage() == Self.message)
        let new = h("D101055402656E6F6B")
        try ndef.writeMessage(new)
        card.release()
        #expect(emulate.waitForStderr("The reader left after", seconds: 30), "\(emulate.stderrText)")
        kill(emulate.process.processIdentifier, SIGTERM)
        let out = emulate.finish(within: 60)
        #expect(
            out.status == 0 && out.stderr.contains("Saved \(file)"),
            "status \(out.status), \(out.finished ? "exited" : "killed after 60 s"): \(out.stderr)")
        // --save wrote what the reader changed.
        let saved = try TagFile.read(path: file)
        let direct = VirtualField(clock: VirtualClock(), timing: .instant)
        direct.place(saved)
        let r = VirtualFieldFrontend(field: direct)
        let t = try r.activate(try #require(try r.poll([.nfcA]).first), isoDEP: true)
        #expect(try Type4NDEF(target: t, frontend: r).readMessage() == new)
    }

    @Test func opennfcEmulateRefusesATagThatIsNotISODEP() throws {
        let dir = try TestProcess.temporaryDirectory("opennfc-pn532-target")
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("ntag.json").path
        try TagFile.write(try Type2Tag.factory(.ntag215, uid: h("04A1B2C3D4E580"), holding: Self.message), path: file)
        let out = try TestProcess.run(
            TestProcess.executable("opennfc", override: "OPENNFC_BIN"),
            ["emulate", "--device", "pn532:/dev/null", file], timeout: 60)
        #expect(out.status != 0)
        #expect(out.stderr.contains("is not an ISO-DEP card"), "\(out.stderr)")
    }

    /// The app's card session through target mode: SELECT of the app's AID and GET DATA reach the example's
    /// handler; another AID is answered 6A 82 by the phone's rules.
    @Test func aCoreNFCCardSessionAnswersAReaderThroughThePN532() throws {
        let dir = try TestProcess.temporaryDirectory("opennfc-pn532-hce")
        defer { try? FileManager.default.removeItem(at: dir) }
        let entitlements = try ExampleCardApp.writeEntitlements(in: dir)
        let served = try ServedPN532([])
        defer { served.stop() }
        let app = try WatchedProcess(
            TestProcess.executable("opencorenfc-example"), ["card"],
            environment: ["OPENCORENFC_DEVICE": "pn532:\(served.path)", "OPENCORENFC_ENTITLEMENTS": entitlements.path])
        defer { app.stop() }
        #expect(app.waitForStderr("emulating", seconds: 30), "\(app.stderrText)")
        #expect(served.chip.waitForTargetMode(seconds: 30), "\(app.stderrText)")
        let (reader, target, card) = try Self.reader(served)
        #expect(target.identifier == h("084F434E") && target.selRes == 0x20)
        // The historical bytes are the app's AID prefix.
        #expect(target.ats.map { Array($0.suffix(6)) } == h("F04C4F59414C"))
        func send(_ apdu: String) throws -> [UInt8] {
            guard case .frame(let a) = try reader.exchange(h(apdu)) else { return [] }
            return a
        }
        #expect(try send("00A4040007A000000003101000") == [0x6A, 0x82])
        #expect(try send("00A4040006F04C4F59414C00") == [0x90, 0x00])
        #expect(try send("80CA000000") == Array("MEMBER-0042".utf8) + [0x90, 0x00])
        card.release()
        #expect(app.waitForStderr("reader deselected", seconds: 30), "\(app.stderrText)")
        #expect(app.stderrText.contains("reader detected"))
        // SIGTERM ends the program (no handler of its own: the default action), as from a shell.
        kill(app.process.processIdentifier, SIGTERM)
        let ended = app.finish(within: 30)
        #expect(ended.finished, "SIGTERM did not end the program: \(ended.stderr)")
        #expect(app.process.terminationReason == .uncaughtSignal && ended.status == SIGTERM)
    }
}
