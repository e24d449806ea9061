import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// The tag session, connections and commands (audit items T1–T18), each through the public API on a `VirtualPhone`
/// with the real reader procedures over virtual chips. Decisions are listed in docs/DIFFERENCES.md.
@Suite struct TagRulesPinTests {
    /// A tag session on a phone whose field holds `tags`; `onTags` runs with the first detection.
    private func session(
        _ configuration: AppConfiguration = Pin.configuration(aids: ["F00102030405"]), tags: [any VirtualTag],
        phone given: VirtualPhone? = nil,
        onTags: @escaping @Sendable (NFCTagReaderSession, [NFCTag]) -> Void = { _, _ in }
    ) -> (VirtualPhone, TagSessionRecorder, NFCTagReaderSession) {
        let phone = given ?? VirtualPhone(configuration: configuration)
        for (i, tag) in tags.enumerated() { phone.put(tag, at: i) }
        let app = TagSessionRecorder()
        app.onFirstDetect { session, found in
            onTags(session, found)
        }
        let session = Pin.beginTagSession(phone, app)
        return (phone, app, session)
    }

    /// Connects and hands the first tag to `body` on the session queue.
    private func connected(
        _ configuration: AppConfiguration = Pin.configuration(aids: ["F00102030405"]), tag: any VirtualTag,
        _ body: @escaping @Sendable (NFCTagReaderSession, NFCTag) -> Void
    ) -> (VirtualPhone, TagSessionRecorder, NFCTagReaderSession) {
        session(configuration, tags: [tag]) { session, tags in
            nonisolated(unsafe) let tags = tags
            session.connect(to: tags[0]) { error in
                #expect(error == nil)
                body(session, tags[0])
            }
        }
    }

    @Test func T1_connectingTheConnectedTagDoesNothingAndConnectingAnotherReleasesTheFirst() {
        let log = Shared<[String]>([])
        let activations = Shared<[Int]>([])
        let given = VirtualPhone(configuration: Pin.configuration(), recordsFrames: true)
        let system = given.system
        let (phone, _, session) = session(tags: [Pin.ntag(Pin.uidA), Pin.ntag(Pin.uidB)], phone: given) {
            session, tags in
            nonisolated(unsafe) let tags = tags
            guard case .miFare(let aObject) = tags[0], case .miFare(let bObject) = tags[1] else { return }
            nonisolated(unsafe) let a = aObject
            nonisolated(unsafe) let b = bObject
            @Sendable func count() -> Int { system.transcript.filter { $0.text.hasPrefix("activated") }.count }
            session.connect(to: tags[0]) { e in
                activations.update { $0.append(count()) }
                session.connect(to: tags[0]) { e2 in
                    activations.update { $0.append(count()) }
                    log.update { $0.append("connect A \(Pin.code(e)), again \(Pin.code(e2))") }
                    session.connect(to: tags[1]) { e3 in
                        log.update { $0.append("connect B \(Pin.code(e3))") }
                        a.sendMiFareCommand(commandPacket: Data([0x30, 0x00])) { _, e in
                            log.update { $0.append("A \(Pin.code(e))") }
                        }
                        b.sendMiFareCommand(commandPacket: Data([0x30, 0x00])) { d, e in
                            log.update { $0.append("B \(Pin.code(e)) \(d.count)") }
                        }
                    }
                }
            }
        }
        phone.settle()
        #expect(log.value == ["connect A 0, again 0", "connect B 0", "A 104", "B 0 16"])
        // The second connect to A sent nothing: no new activation.
        #expect(activations.value.count == 2 && activations.value[0] == activations.value[1])
        if case .miFare(let connected)? = session.connectedTag {
            #expect([UInt8](connected.identifier) == Pin.uidB)
        } else {
            Issue.record("connectedTag is not tag B")
        }
    }

    @Test func T2_connectingATagFromAnotherSessionIs3() {
        let phone = VirtualPhone(configuration: Pin.configuration())
        phone.put(Pin.ntag())
        let first = TagSessionRecorder()
        let stale = Shared<NFCTag?>(nil)
        first.onDetect = { session, tags in
            stale.value = tags[0]
            session.invalidate()
        }
        Pin.beginTagSession(phone, first)
        let second = TagSessionRecorder()
        let code = Shared(-1)
        second.onDetect = { session, _ in
            session.connect(to: stale.value!) { e in
                code.value = Pin.code(e)
                session.invalidate()
            }
        }
        Pin.beginTagSession(phone, second)
        #expect(
            second.events == [
                .becameActive, .detectedTags(1), .invalidated(.readerSessionInvalidationErrorUserCanceled),
            ])
        #expect(code.value == 3)
        // The same rule for NDEF sessions.
        let ndef = NDEFTagRecorder()
        let ndefCode = Shared(-1)
        let firstNDEF = Shared<(any NFCNDEFTag)?>(nil)
        ndef.onDetect = { session, tags in
            if let old = firstNDEF.value {
                session.connect(to: old) { ndefCode.value = Pin.code($0) }
            } else {
                firstNDEF.value = tags[0]
                session.invalidate()
            }
        }
        Pin.beginNDEFSession(phone, ndef)
        Pin.beginNDEFSession(phone, ndef)
        #expect(ndef.events.filter { $0 == .detectedTags(1) }.count == 2)
        #expect(ndefCode.value == 3)
    }

    @Test func T3_connectedTagIsNilBeforeConnectingAfterRestartPollingAndAfterTagLoss() {
        let phone = VirtualPhone(configuration: Pin.configuration())
        let handle = phone.put(Pin.ntag())
        let app = TagSessionRecorder()
        let tags = Shared<[NFCTag]>([])
        app.onDetect = { _, found in tags.update { $0 += found } }
        let session = Pin.beginTagSession(phone, app)
        #expect(session.connectedTag == nil)
        session.connect(to: tags.value[0]) { _ in }
        phone.settle()
        #expect(session.connectedTag != nil)
        session.restartPolling()
        phone.settle()
        #expect(session.connectedTag == nil)
        #expect(tags.value.count == 2)
        session.connect(to: tags.value[1]) { _ in }
        phone.settle()
        #expect(session.connectedTag != nil)
        phone.remove(handle)
        #expect(session.connectedTag == nil)
        #expect(!tags.value[1].isAvailable)
    }

    @Test func T4_afterDidDetectNoFurtherTagIsDeliveredUntilRestartPolling() {
        let phone = VirtualPhone(configuration: Pin.configuration())
        phone.put(Pin.ntag(Pin.uidA), at: 0)
        let app = TagSessionRecorder()
        let counts = Shared<[Int]>([])
        app.onDetect = { _, found in counts.update { $0.append(found.count) } }
        let session = Pin.beginTagSession(phone, app)
        phone.put(Pin.ntag(Pin.uidB), at: 1)
        phone.advance(by: .seconds(5))
        #expect(counts.value == [1])
        session.restartPolling()
        phone.settle()
        #expect(counts.value == [1, 2])
    }

    @Test func T5_tagSessionConnectAsyncWorksAtRuntime() async throws {
        let phone = VirtualPhone(configuration: Pin.configuration())
        phone.put(Pin.ntag(holding: Pin.uri("async.example")))
        let app = TagSessionRecorder()
        let found = Shared<NFCTag?>(nil)
        app.onDetect = { _, tags in found.value = tags[0] }
        let session = Pin.beginTagSession(phone, app)
        let tag = try #require(found.value)
        try await session.connect(to: tag)
        guard case .miFare(let mifare) = tag else {
            Issue.record("not a MIFARE tag")
            return
        }
        let page0 = try await mifare.sendMiFareCommand(commandPacket: Data([0x30, 0x00]))
        #expect([UInt8](page0.prefix(3)) == Array(Pin.uidA.prefix(3)))
        let (status, capacity) = try await mifare.queryNDEFStatus()
        #expect(status == .readWrite && capacity > 0)
        session.invalidate()
        await #expect(throws: NFCReaderError.self) { try await session.connect(to: tag) }
    }

    @Test func T6_commandsOnAnUnconnectedTagAre104() throws {
        let codes = Shared<[String]>([])
        _ = session(tags: [Pin.type4()]) { _, tags in
            guard case .iso7816(let tag) = tags[0] else { return }
            tag.sendCommand(apdu: Pin.apdu(ins: 0x01)) { _, _, _, e in codes.update { $0.append("7816 \(Pin.code(e))") }
            }
            tag.queryNDEFStatus { _, _, e in codes.update { $0.append("query \(Pin.code(e))") } }
        }
        _ = session(tags: [Pin.ntag()]) { _, tags in
            guard case .miFare(let tag) = tags[0] else { return }
            tag.sendMiFareCommand(commandPacket: Data([0x30, 0])) { _, e in
                codes.update { $0.append("mifare \(Pin.code(e))") }
            }
            tag.readNDEF { _, e in codes.update { $0.append("read \(Pin.code(e))") } }
        }
        let desfire = try DESFireEV1Tag.ndefFormatted(uid: [0x04, 1, 2, 3, 4, 5, 6], holding: Pin.uri("d"))
        _ = session(Pin.configuration(), tags: [desfire]) { _, tags in
            guard case .miFare(let tag) = tags[0] else { return }
            tag.sendMiFareISO7816Command(Pin.apdu(ins: 0xB0)) { _, _, _, e in
                codes.update { $0.append("desfire 7816 \(Pin.code(e))") }
            }
        }
        #expect(codes.value == ["7816 104", "query 104", "mifare 104", "read 104", "desfire 7816 104"])
    }

    @Test func T7_commandsAndConnectAfterInvalidationAre103() {
        let iso = Shared<(any NFCISO7816Tag)?>(nil)
        let isoTag = Shared<NFCTag?>(nil)
        let (phone, _, session) = connected(tag: Pin.type4()) { session, tag in
            guard case .iso7816(let t) = tag else { return }
            (iso.value, isoTag.value) = (t, tag)
            session.invalidate()
        }
        let codes = Shared<[String]>([])
        iso.value!.sendCommand(apdu: Pin.apdu(ins: 0x01)) { _, _, _, e in
            codes.update { $0.append("sendCommand \(Pin.code(e))") }
        }
        session.connect(to: isoTag.value!) { e in codes.update { $0.append("connect \(Pin.code(e))") } }
        phone.settle()
        let mifare = Shared<(any NFCMiFareTag)?>(nil)
        let (phone2, _, _) = connected(Pin.configuration(), tag: Pin.ntag()) { session, tag in
            guard case .miFare(let t) = tag else { return }
            mifare.value = t
            session.invalidate()
        }
        mifare.value!.sendMiFareCommand(commandPacket: Data([0x30, 0])) { _, e in
            codes.update { $0.append("sendMiFareCommand \(Pin.code(e))") }
        }
        phone2.settle()
        #expect(codes.value == ["sendCommand 103", "connect 103", "sendMiFareCommand 103"])
    }

    @Test func T8_invalidLeOrDataLengthFailTheSendWith5Or4() {
        let results = Shared<[String]>([])
        let (phone, _, _) = connected(tag: Pin.type4()) { session, tag in
            guard case .iso7816(let t) = tag else { return }
            let cases: [(String, NFCISO7816APDU)] = [
                ("Le 0", Pin.apdu(ins: 0x01, le: 0)), ("Le -2", Pin.apdu(ins: 0x01, le: -2)),
                ("Le 65537", Pin.apdu(ins: 0x01, le: 65537)),
                ("data 65536", Pin.apdu(ins: 0x01, data: [UInt8](repeating: 0, count: 65536), le: -1)),
                ("Le -1", Pin.apdu(ins: 0x01, le: -1)), ("Le 65536", Pin.apdu(ins: 0x01, le: 65536)),
            ]
            for (name, apdu) in cases {
                t.sendCommand(apdu: apdu) { _, sw1, _, e in
                    results.update { $0.append("\(name) \(Pin.code(e)) \(String(format: "%02X", sw1))") }
                }
            }
        }
        phone.settle()
        // Le 65536 asks for an extended APDU, which this card does not take (67 00), but the APDU itself is valid.
        #expect(
            results.value == [
                "Le 0 5 00", "Le -2 5 00", "Le 65537 5 00", "data 65536 4 00", "Le -1 0 90", "Le 65536 0 67",
            ])
    }

    @Test func T9_anAPDULongerThanTheFrontendTakesIs105() {
        let results = Shared<[String]>([])
        let (phone, _, _) = connected(tag: Pin.type4()) { _, tag in
            guard case .iso7816(let t) = tag else { return }
            // 5 + 255 + 1 = 261 bytes: the longest short APDU, which the simulated iPhone sends.
            t.sendCommand(apdu: Pin.apdu(ins: 0x01, data: [UInt8](repeating: 1, count: 255))) { _, sw1, _, e in
                results.update { $0.append("261 bytes \(Pin.code(e)) \(String(format: "%02X", sw1))") }
            }
            // 300 bytes of data: an extended APDU of 307 bytes.
            t.sendCommand(apdu: Pin.apdu(ins: 0x01, data: [UInt8](repeating: 1, count: 300), le: -1)) { _, _, _, e in
                results.update { $0.append("307 bytes \(Pin.code(e))") }
            }
        }
        phone.settle()
        #expect(results.value == ["261 bytes 0 90", "307 bytes 105"])
    }

    @Test func T10_aResponseShorterThanTheStatusWordIs102WithTheUnexpectedLengthKey() {
        let result = Shared<(Int, Bool?)>((-1, nil))
        let (phone, _, _) = connected(tag: ShortAnswerCard()) { _, tag in
            guard case .iso7816(let t) = tag else { return }
            t.sendCommand(apdu: Pin.apdu(ins: 0xB0)) { _, _, _, e in
                let info = (e as? NFCReaderError)?.errorUserInfo[NFCTagResponseUnexpectedLengthErrorKey] as? Bool
                result.value = (Pin.code(e), info)
            }
        }
        phone.settle()
        #expect(result.value.0 == 102)
        #expect(result.value.1 == true)
    }

    @Test func T11_resultAndAsyncFormsGiveANilPayloadForEmptyData() async throws {
        let forms = Shared<[String]>([])
        let isoBox = Shared<(any NFCISO7816Tag)?>(nil)
        let (phone, _, _) = connected(tag: Pin.type4()) { _, tag in
            guard case .iso7816(let t) = tag else { return }
            isoBox.value = t
            t.sendCommand(apdu: Pin.apdu(ins: 0xCA)) { result in
                if case .success(let r) = result { forms.update { $0.append("result empty \(r.payload == nil)") } }
            }
            t.sendCommand(apdu: Pin.apdu(ins: 0x01)) { result in
                if case .success(let r) = result {
                    forms.update { $0.append("result data \(r.payload.map { hex($0) } ?? "nil")") }
                }
            }
        }
        phone.settle()
        let t = try #require(isoBox.value)
        let empty: NFCISO7816ResponseAPDU = try await t.sendCommand(apdu: Pin.apdu(ins: 0xCA))
        let full: NFCISO7816ResponseAPDU = try await t.sendCommand(apdu: Pin.apdu(ins: 0x01))
        let (data, sw1, _) = try await t.sendCommand(apdu: Pin.apdu(ins: 0xCA))
        #expect(forms.value == ["result empty true", "result data 01"])
        #expect(empty.payload == nil && empty.statusWord1 == 0x90)
        #expect(full.payload == Data([0x01]))
        #expect(data == Data() && sw1 == 0x90)
        // The MIFARE forms of an ISO 7816 command, on a DESFire (GetVersion's first frame is not empty).
        let desfire = try DESFireEV1Tag.ndefFormatted(uid: [0x04, 1, 2, 3, 4, 5, 6], holding: Pin.uri("d"))
        let mBox = Shared<(any NFCMiFareTag)?>(nil)
        let (phone2, _, _) = connected(Pin.configuration(), tag: desfire) { _, tag in
            if case .miFare(let m) = tag { mBox.value = m }
        }
        phone2.settle()
        let m = try #require(mBox.value)
        // ISO-wrapped SelectApplication of the PICC (AID 000000) answers 91 00 without data, GetVersion answers its
        // first 7 bytes and 91 AF (NXP MF3ICD81, "ISO/IEC 7816-4 wrapping of native commands").
        let selectPICC = Pin.apdu(ins: 0x5A, data: [0, 0, 0], le: 256, cla: 0x90)
        let selected: NFCISO7816ResponseAPDU = try await m.sendMiFareISO7816Command(selectPICC)
        #expect(selected.payload == nil && selected.statusWord1 == 0x91 && selected.statusWord2 == 0x00)
        let version: NFCISO7816ResponseAPDU = try await m.sendMiFareISO7816Command(Pin.apdu(ins: 0x60, cla: 0x90))
        #expect(version.payload?.count == 7 && version.statusWord2 == 0xAF)
        let resultForm = Shared<String>("")
        m.sendMiFareISO7816Command(selectPICC) { result in
            if case .success(let r) = result { resultForm.value = "\(r.payload == nil) \(r.statusWord1)" }
        }
        phone2.settle()
        #expect(resultForm.value == "true 145")
    }

    @Test func T12_sendMiFareCommandReturnsAnACKAs0AAndFailsANAKWith100() {
        let log = Shared<[String]>([])
        let tagBox = Shared<(any NFCMiFareTag)?>(nil)
        let (phone, app, session) = connected(Pin.configuration(), tag: Pin.ntag()) { _, tag in
            guard case .miFare(let t) = tag else { return }
            tagBox.value = t
            // WRITE page 4: ACK.
            t.sendMiFareCommand(commandPacket: Data([0xA2, 0x04, 1, 2, 3, 4])) { d, e in
                log.update { $0.append("write \(hex(d)) \(Pin.code(e))") }
            }
            // PWD_AUTH with a wrong password (the factory PWD is FFFFFFFF): NAK 0.
            t.sendMiFareCommand(commandPacket: Data([0x1B, 0x12, 0x34, 0x56, 0x78])) { d, e in
                log.update { $0.append("wrong PWD_AUTH \(hex(d)) \(Pin.code(e))") }
            }
        }
        phone.settle()
        #expect(log.value == ["write 0A 0", "wrong PWD_AUTH  100"])
        // After the NAK the chip is back in IDLE: the link is gone until polling restarts.
        let t = tagBox.value!
        #expect(!t.isAvailable)
        #expect(session.connectedTag == nil)
        // The Result and async forms fail the same way, on a protected page: lock page 4 (static lock bits of page 2,
        // NTAG213 datasheet §8.5.2), then write it.
        let again = Shared<NFCTag?>(nil)
        app.onDetect = { session, tags in
            nonisolated(unsafe) let tags = tags
            again.value = tags[0]
            session.connect(to: tags[0]) { _ in
                guard case .miFare(let mObject) = tags[0] else { return }
                nonisolated(unsafe) let m = mObject
                m.sendMiFareCommand(commandPacket: Data([0xA2, 0x02, 0, 0, 0x10, 0x00])) { result in
                    if case .success(let d) = result { log.update { $0.append("lock \(hex(d))") } }
                    m.sendMiFareCommand(commandPacket: Data([0xA2, 0x04, 9, 9, 9, 9])) { result in
                        if case .failure(let e) = result {
                            log.update { $0.append("protected write \(Pin.code(e))") }
                        }
                    }
                }
            }
        }
        session.restartPolling()
        phone.settle()
        #expect(log.value.suffix(2) == ["lock 0A", "protected write 100"])
    }

    @Test func T12_aNAKThrows100FromTheAsyncForm() async throws {
        let box = Shared<(any NFCMiFareTag)?>(nil)
        let (phone, _, _) = connected(Pin.configuration(), tag: Pin.ntag()) { _, tag in
            if case .miFare(let t) = tag { box.value = t }
        }
        phone.settle()
        let t = try #require(box.value)
        let ack = try await t.sendMiFareCommand(commandPacket: Data([0xA2, 0x05, 0, 0, 0, 0]))
        #expect(ack == Data([0x0A]))
        // WRITE to page 0 (the UID, read-only: NTAG213 datasheet §8.5.1) is refused with a NAK.
        do {
            _ = try await t.sendMiFareCommand(commandPacket: Data([0xA2, 0x00, 0, 0, 0, 0]))
            Issue.record("a NAK must fail the command")
        } catch let e as NFCReaderError {
            #expect(e.code == .readerTransceiveErrorTagConnectionLost)
        }
    }

    @Test func T13_sendMiFareCommandWithAnEmptyPacketIs4AndAnOversizedOne105() {
        let codes = Shared<[Int]>([])
        let (phone, _, _) = connected(Pin.configuration(), tag: Pin.ntag()) { _, tag in
            guard case .miFare(let t) = tag else { return }
            t.sendMiFareCommand(commandPacket: Data()) { _, e in codes.update { $0.append(Pin.code(e)) } }
            t.sendMiFareCommand(commandPacket: Data(repeating: 0x30, count: 262)) { _, e in
                codes.update { $0.append(Pin.code(e)) }
            }
            // Still connected and working.
            t.sendMiFareCommand(commandPacket: Data([0x30, 0x00])) { _, e in codes.update { $0.append(Pin.code(e)) } }
        }
        phone.settle()
        #expect(codes.value == [4, 105, 0])
    }

    @Test func T14_initialSelectedAIDKeepsThePlistEntrysLetterCase() throws {
        for entry in ["f00102030405", "F00102030405"] {
            let aid = Shared("")
            _ = session(Pin.configuration(aids: [entry]), tags: [Pin.type4()]) { _, tags in
                if case .iso7816(let t) = tags[0] { aid.value = t.initialSelectedAID }
            }
            #expect(aid.value == entry)
        }
        let desfire = try DESFireEV1Tag.ndefFormatted(uid: [0x04, 1, 2, 3, 4, 5, 6], holding: Pin.uri("d"))
        let aid = Shared("")
        _ = session(Pin.configuration(aids: ["d2760000850101"]), tags: [desfire]) { _, tags in
            if case .iso7816(let t) = tags[0] { aid.value = t.initialSelectedAID }
        }
        #expect(aid.value == "d2760000850101")
    }

    @Test func T15_historicalBytesComeFromTheTypeAATSAndApplicationDataIsNilOnTypeA() throws {
        let seen = Shared<[String]>([])
        _ = session(tags: [Pin.type4()]) { _, tags in
            guard case .iso7816(let t) = tags[0] else { return }
            seen.update {
                $0.append(
                    "7816 hb \(t.historicalBytes.map { hex($0) } ?? "nil") app \(t.applicationData.map { hex($0) } ?? "nil") "
                        + "proprietary \(t.proprietaryApplicationDataCoding)")
            }
        }
        let desfire = try DESFireEV1Tag.ndefFormatted(uid: [0x04, 1, 2, 3, 4, 5, 6], holding: Pin.uri("d"))
        _ = session(Pin.configuration(), tags: [desfire, Pin.ntag()]) { _, tags in
            for case .miFare(let m) in tags {
                seen.update { $0.append("\(m.mifareFamily.rawValue) hb \(m.historicalBytes.map { hex($0) } ?? "nil")") }
            }
        }
        // Type4Tag's ATS is 06 77 77 71 02 80 (historical byte 80); DESFire EV1's 06 75 77 81 02 80; NTAG has none.
        #expect(
            seen.value == [
                "7816 hb 80 app nil proprietary false", "\(NFCMiFareFamily.desfire.rawValue) hb 80",
                "\(NFCMiFareFamily.ultralight.rawValue) hb nil",
            ])
    }

    @Test func T16_desktopProfileChecksLaterSelectsOnlyWhenAIDsAreDeclared() {
        nonisolated(unsafe) let selectApplet = Pin.apdu(ins: 0xA4, data: Pin.appletAID, p1: 4)
        nonisolated(unsafe) let selectNDEF = Pin.apdu(
            ins: 0xA4, data: [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01], p1: 4)
        var results: [String] = []
        for aids in [[], ["F00102030405"]] {
            let log = Shared<[String]>([])
            let initial = Shared("")
            let (phone, _, _) = connected(Pin.configuration(aids: aids, profile: .desktop), tag: Pin.type4()) {
                _, tag in
                guard case .iso7816(let t) = tag else { return }
                initial.value = t.initialSelectedAID
                t.sendCommand(apdu: selectNDEF) { _, sw1, _, e in log.update { $0.append("ndef \(Pin.code(e)) \(sw1)") }
                }
                t.sendCommand(apdu: selectApplet) { _, sw1, _, e in
                    log.update { $0.append("applet \(Pin.code(e)) \(sw1)") }
                }
            }
            phone.settle()
            results.append("[\(initial.value)] " + log.value.joined(separator: ", "))
        }
        // No AIDs: delivered unselected, every SELECT allowed. Declared AIDs: the iPhone rule (undeclared → 2).
        #expect(results == ["[] ndef 0 144, applet 0 144", "[F00102030405] ndef 2 0, applet 0 144"])
    }

    @Test func T17_mifareClassicArrivesInTagSessionsAsAnUnknownFamilyMiFareTag() {
        let seen = Shared<[String]>([])
        _ = session(Pin.configuration(), tags: [ClassicStandIn()]) { _, tags in
            for tag in tags {
                switch tag {
                case .miFare(let m):
                    seen.update {
                        $0.append(
                            "miFare \(m.mifareFamily == .unknown) \(hex(m.identifier)) \(m.type == .miFare) "
                                + "\(m.historicalBytes == nil)")
                    }
                default: seen.update { $0.append("other") }
                }
            }
        }
        #expect(seen.value == ["miFare true C1A551C0 true true"])
    }

    @Test func T18_aSecondSessionQueuesAndNeverGets203() {
        let phone = VirtualPhone()
        let apps = (0..<4).map { _ in NDEFMessageRecorder() }
        let sessions = apps.map { Pin.beginNDEFSession(phone, $0) }
        for (i, session) in sessions.enumerated() {
            #expect(apps[i].events == [.becameActive], "session \(i)")
            session.invalidate()
            phone.settle()
        }
        let codes = apps.flatMap(\.events).compactMap { e -> NFCReaderError.Code? in
            if case .invalidated(let c) = e { return c }
            return nil
        }
        #expect(codes == Array(repeating: .readerSessionInvalidationErrorUserCanceled, count: 4))
        #expect(!codes.contains(.readerSessionInvalidationErrorSystemIsBusy))
    }
}
