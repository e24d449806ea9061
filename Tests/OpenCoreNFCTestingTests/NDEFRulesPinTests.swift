import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCSystem
import Testing

/// The NDEF session and the NDEF operations (audit items N1–N10), each through the public API on a `VirtualPhone`
/// with the real reader procedures over virtual chips. Decisions are listed in docs/DIFFERENCES.md.
@Suite struct NDEFRulesPinTests {
    /// Connects to the first detected tag and runs `body` with it (read-write mode).
    private func withConnectedTag(
        _ phone: VirtualPhone, _ body: @escaping @Sendable (NFCNDEFReaderSession, any NFCNDEFTag) -> Void
    ) -> NDEFTagRecorder {
        let app = NDEFTagRecorder()
        app.onDetect = { session, tags in
            nonisolated(unsafe) let tags = tags
            session.connect(to: tags[0]) { error in
                #expect(error == nil)
                body(session, tags[0])
            }
        }
        Pin.beginNDEFSession(phone, app)
        return app
    }

    @Test func N1_restartPollingDoesNothingInReadOnlyMode() {
        let phone = VirtualPhone()
        phone.put(Pin.ntag(holding: Pin.uri("once.example")))
        let app = NDEFMessageRecorder()
        let session = Pin.beginNDEFSession(phone, app)
        #expect(app.events == [.becameActive, .detectedNDEFs(1)])
        session.restartPolling()
        phone.settle()
        // The tag is still in the field; a new polling round would read it again.
        #expect(app.events == [.becameActive, .detectedNDEFs(1)])
        #expect(!phone.transcriptText([.system]).contains("restarts polling"))
        // Read-only mode restarts polling by itself once the tag has left.
        phone.removeAllTags()
        phone.put(Pin.ntag(Pin.uidB, holding: Pin.uri("next.example")))
        #expect(app.events == [.becameActive, .detectedNDEFs(1), .detectedNDEFs(1)])
        #expect(app.messages.map(Pin.host) == ["once.example", "next.example"])
    }

    @Test func N2_afterRestartPollingEarlierNDEFTagsAreUnavailableAndGive100() {
        let phone = VirtualPhone()
        phone.put(Pin.ntag(holding: Pin.uri("stale.example")))
        let app = NDEFTagRecorder()
        let rounds = Shared<[[any NFCNDEFTag]]>([])
        app.onDetect = { _, tags in rounds.update { $0.append(tags) } }
        let session = Pin.beginNDEFSession(phone, app)
        session.restartPolling()
        phone.settle()
        #expect(app.events == [.becameActive, .detectedTags(1), .detectedTags(1)])
        let (old, new) = (rounds.value[0][0], rounds.value[1][0])
        #expect(!old.isAvailable)
        #expect(new.isAvailable)
        let codes = Shared<[Int]>([])
        session.connect(to: old) { e in codes.update { $0.append(Pin.code(e)) } }
        old.queryNDEFStatus { _, _, e in codes.update { $0.append(Pin.code(e)) } }
        old.readNDEF { _, e in codes.update { $0.append(Pin.code(e)) } }
        phone.settle()
        #expect(codes.value == [100, 100, 100])
    }

    @Test func N3_severalTagsInReadOnlyModeGiveOneDidDetectNDEFsEachInFieldOrder() {
        for order in [["a", "b", "c"], ["c", "a", "b"]] {
            let phone = VirtualPhone()
            let uids = ["a": Pin.uidA, "b": Pin.uidB, "c": Pin.uidC]
            for (position, name) in order.enumerated() {
                phone.put(Pin.ntag(uids[name]!, holding: Pin.uri("\(name).example")), at: position)
            }
            let app = NDEFMessageRecorder()
            Pin.beginNDEFSession(phone, app)
            #expect(app.events == [.becameActive, .detectedNDEFs(1), .detectedNDEFs(1), .detectedNDEFs(1)])
            #expect(app.messages.map(Pin.host) == order.map { "\($0).example" })
        }
    }

    @Test func N4_readOnlyModeSkipsUnformattedAndEmptyTagsSilently() {
        let phone = VirtualPhone()
        phone.put(try! Type2Tag.factory(.ntag213, uid: Pin.uidA, ndefFormatted: false), at: 0)
        phone.put(Pin.ntag(Pin.uidB), at: 1)  // formatted, empty NDEF TLV
        phone.put(Pin.ntag(Pin.uidC, holding: Pin.uri("only.example")), at: 2)
        let app = NDEFMessageRecorder()
        Pin.beginNDEFSession(phone, app)
        #expect(app.events == [.becameActive, .detectedNDEFs(1)])
        #expect(app.messages.map(Pin.host) == ["only.example"])
        // With invalidateAfterFirstRead the skipped tags do not end the session either: the real one does (204).
        let phone2 = VirtualPhone()
        phone2.put(try! Type2Tag.factory(.ntag213, uid: Pin.uidA, ndefFormatted: false), at: 0)
        phone2.put(Pin.ntag(Pin.uidB), at: 1)
        let once = NDEFMessageRecorder()
        Pin.beginNDEFSession(phone2, once, once: true)
        #expect(once.events == [.becameActive])
        phone2.put(Pin.ntag(Pin.uidC, holding: Pin.uri("late.example")), at: 2)
        #expect(
            once.events == [
                .becameActive, .detectedNDEFs(1), .invalidated(.readerSessionInvalidationErrorFirstNDEFTagRead),
            ])
    }

    @Test func N5_ndefSessionsReadType1Type2Type4AndDESFireTags() throws {
        let tags: [any VirtualTag] = [
            try Type1Tag.factory(.topaz512, uid: [0x12, 0x34, 0x56, 0x78], holding: Pin.uri("t1.example")),
            Pin.ntag(holding: Pin.uri("t2.example")),
            try Type2Tag.factory(.ultralightEV1_48, uid: Pin.uidB, holding: Pin.uri("ul.example")),
            try Type4Tag.factory(uid: [0x02, 0x01, 0x02, 0x03], holding: Pin.uri("t4.example")),
            try DESFireEV1Tag.ndefFormatted(uid: [0x04, 1, 2, 3, 4, 5, 6], holding: Pin.uri("df.example")),
        ]
        for tag in tags {
            let phone = VirtualPhone()
            phone.put(tag)
            let app = NDEFMessageRecorder()
            Pin.beginNDEFSession(phone, app, once: true)
            #expect(
                app.events == [
                    .becameActive, .detectedNDEFs(1), .invalidated(.readerSessionInvalidationErrorFirstNDEFTagRead),
                ], "\(tag.chip)")
            #expect(Pin.host(app.messages.first) != "-", "\(tag.chip)")
        }
    }

    @Test func N6_mifareClassicIsNeverDeliveredToNDEFSessions() {
        // Read-write mode: only the NTAG is offered.
        let phone = VirtualPhone()
        phone.put(ClassicStandIn(), at: 0)
        phone.put(Pin.ntag(holding: Pin.uri("ntag.example")), at: 1)
        let app = NDEFTagRecorder()
        let identifiers = Shared<[String]>([])
        app.onDetect = { _, tags in
            identifiers.value = tags.map { ($0 as? any NFCMiFareTag)?.identifier.map { String($0) }.joined() ?? "?" }
        }
        Pin.beginNDEFSession(phone, app)
        #expect(app.events == [.becameActive, .detectedTags(1)])
        #expect(identifiers.value == [Pin.uidA.map { String($0) }.joined()])
        // Read-only mode: a Classic alone gives nothing, and no error; the session runs to its timeout.
        let phone2 = VirtualPhone()
        phone2.put(ClassicStandIn())
        let reader = NDEFMessageRecorder()
        Pin.beginNDEFSession(phone2, reader)
        phone2.advance(by: .seconds(60))
        #expect(reader.events == [.becameActive, .invalidated(.readerSessionInvalidationErrorSessionTimeout)])
    }

    @Test func N7_readNDEFOnAnUnformattedTagIs102AndOnAnEmptyOne403() {
        for (tag, expected) in [
            (try! Type2Tag.factory(.ntag213, uid: Pin.uidA, ndefFormatted: false), 102), (Pin.ntag(Pin.uidB), 403),
            (Pin.ntag(Pin.uidC, holding: Pin.uri("ok.example")), 0),
        ] {
            let phone = VirtualPhone()
            phone.put(tag)
            let result = Shared<(Int, String)>((-1, ""))
            _ = withConnectedTag(phone) { session, tag in
                tag.readNDEF { message, error in
                    result.value = (Pin.code(error), Pin.host(message))
                    session.invalidate()
                }
            }
            #expect(result.value.0 == expected)
            #expect(result.value.1 == (expected == 0 ? "ok.example" : "-"))
        }
    }

    @Test func N8_writesAndLocksOnUnformattedTagsAre401AndLocksOnReadOnlyTags400() {
        nonisolated(unsafe) let message = NFCNDEFMessage(data: Data(Pin.uri("w.example")))!
        // Unformatted: writeNDEF and writeLock both 401.
        let blank = VirtualPhone()
        let blankTag = try! Type2Tag.factory(.ntag213, uid: Pin.uidA, ndefFormatted: false)
        blank.put(blankTag)
        let codes = Shared<[String]>([])
        _ = withConnectedTag(blank) { session, tag in
            nonisolated(unsafe) let tag = tag
            tag.writeNDEF(message) { e in
                codes.update { $0.append("write \(Pin.code(e))") }
                tag.writeLock { e in
                    codes.update { $0.append("lock \(Pin.code(e))") }
                    session.invalidate()
                }
            }
        }
        #expect(codes.value == ["write 401", "lock 401"])
        #expect(!blankTag.isNDEFFormatted)
        // Read-only: lock once (success), then writeLock and writeNDEF both 400.
        let phone = VirtualPhone()
        phone.put(Pin.ntag(holding: Pin.uri("r.example")))
        let log = Shared<[String]>([])
        _ = withConnectedTag(phone) { session, tag in
            nonisolated(unsafe) let tag = tag
            tag.writeLock { e in
                log.update { $0.append("lock \(Pin.code(e))") }
                tag.writeLock { e in
                    log.update { $0.append("lock again \(Pin.code(e))") }
                    tag.writeNDEF(message) { e in
                        log.update { $0.append("write \(Pin.code(e))") }
                        session.invalidate()
                    }
                }
            }
        }
        #expect(log.value == ["lock 0", "lock again 400", "write 400"])
    }

    @Test func N9_queryNDEFStatusIsNotSupportedOnUnformattedTagsAnd1WithoutAnNDEFMapping() {
        let phone = VirtualPhone()
        phone.put(try! Type2Tag.factory(.ntag213, uid: Pin.uidA, ndefFormatted: false))
        let result = Shared<String>("")
        _ = withConnectedTag(phone) { session, tag in
            tag.queryNDEFStatus { status, capacity, error in
                result.value = "\(status.rawValue) \(capacity) \(Pin.code(error))"
                session.invalidate()
            }
        }
        #expect(result.value == "\(NFCNDEFStatus.notSupported.rawValue) 0 0")
        // MIFARE Classic has no NDEF mapping here (Crypto1 is not supported): a tag session's query fails with 1.
        let classic = VirtualPhone()
        classic.put(ClassicStandIn())
        let app = TagSessionRecorder()
        let answer = Shared<String>("")
        app.onDetect = { session, tags in
            guard case .miFare(let tagObject) = tags[0] else { return }
            nonisolated(unsafe) let tag = tagObject
            session.connect(to: tags[0]) { _ in
                tag.queryNDEFStatus { status, capacity, error in
                    answer.value = "\(status.rawValue) \(capacity) \(Pin.code(error))"
                }
            }
        }
        Pin.beginTagSession(classic, app)
        #expect(answer.value == "\(NFCNDEFStatus.notSupported.rawValue) 0 1")
    }

    @Test func N10_writingAMessageThatCannotBeEncodedIs3AndSendsNothing() {
        let phone = VirtualPhone(recordsFrames: true)
        let ntag = Pin.ntag(holding: Pin.uri("keep.example"))
        phone.put(ntag)
        // A record type of 256 bytes cannot be encoded (NDEF 1.0 §3.2.6: TYPE_LENGTH is one byte).
        nonisolated(unsafe) let tooLong = NFCNDEFPayload(
            format: .nfcExternal, type: Data(repeating: 0x61, count: 256), identifier: Data(), payload: Data([1]))
        let result = Shared(-1)
        let framesBefore = Shared(0)
        let framesAfter = Shared(0)
        _ = withConnectedTag(phone) { session, tag in
            framesBefore.value = phone.system.transcript.filter { $0.kind == .rf }.count
            tag.writeNDEF(NFCNDEFMessage(records: [tooLong])) { e in
                result.value = Pin.code(e)
                framesAfter.value = phone.system.transcript.filter { $0.kind == .rf }.count
                session.invalidate()
            }
        }
        #expect(result.value == 3)
        #expect(framesAfter.value == framesBefore.value)
        #expect(TagFile.ndefMessage(of: ntag) == Pin.uri("keep.example"))
    }
}
