import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// The reader procedures of `OpenNFCTags/ICAO` against the virtual eMRTD chips of `OpenNFCSimulation`, end to end
/// through a virtual field: two independent readings of ICAO Doc 9303 meeting only here.
@Suite struct EMRTDInteropTests {
    static let today = EMRTDTestPKI.Day(year: 2026, month: 1, day: 15)
    static let now = DERTime(year: 2026, month: 1, day: 15, hour: 12).secondsSince1970

    /// A document issued by the card side from the specimen holder, in the field of a fresh bench.
    static func issue(
        _ kind: EMRTDDocument.Kind, capabilities: RFCapabilities = .simulatedIPhone,
        _ configure: (inout EMRTDIssueOptions) -> Void = { _ in }
    ) throws -> (FieldBench, EMRTDTag) {
        var options = EMRTDIssueOptions(kind: kind, today: today)
        configure(&options)
        return try place(try EMRTDIssuer.issue(kind, holder: .specimen(kind), options: options), capabilities)
    }

    /// A fresh chip of `document` alone in the field of a fresh bench (the simulated iPhone unless said), activated.
    static func place(_ document: EMRTDDocument, _ capabilities: RFCapabilities = .simulatedIPhone) throws -> (
        FieldBench, EMRTDTag
    ) {
        let kind = document.kind
        let tag = EMRTDTag(
            document: document, activation: try EMRTDTag.defaultActivation(kind: kind, uid: [0x11, 0x22, 0x33, 0x44]),
            random: SeededRandomSource(seed: 9))
        let bench = FieldBench(capabilities: capabilities)
        _ = try bench.activate(tag, polling: RFPollRequest([.nfcA, .nfcB]))
        bench.frontend.resetCounts()
        return (bench, tag)
    }

    static func mrzPassword(_ tag: EMRTDTag) -> PACEPassword {
        .mrz(keyInformation: tag.document.mrz!.keyInformation)
    }

    static func read(
        _ bench: FieldBench, _ tag: EMRTDTag, password: PACEPassword? = nil, usePACE: Bool = true,
        cscas: [[UInt8]]? = nil
    ) throws -> PassportReadResult {
        let anchors = try (cscas ?? [tag.document.pki.cscaCertificate]).map { try Certificate(der: $0) }
        var options = PassportReadOptions(
            password: password ?? mrzPassword(tag), cscas: CSCAList(certificates: anchors), now: now,
            random: SeededRandomSource(seed: 3))
        options.usePACE = usePACE
        return try PassportReader.read(transport: FrontendTransport(frontend: bench.frontend), options: options)
    }

    static func expectEverythingVerified(_ r: PassportReadResult, _ tag: EMRTDTag) {
        #expect(r.passed, "\(r)")
        #expect(r.passive?.dataGroups.values.allSatisfy { $0 == .passed } == true)
        #expect(r.passive?.sodSignature == .passed)
        #expect(r.passive?.documentSigner == .passed)
        #expect(r.chipAuthentication == .passed)
        #expect(r.activeAuthentication == .passed)
        #expect(r.mrz?.documentNumber == tag.document.mrz?.documentNumber)
        for (file, bytes) in tag.document.files {
            if case .dataGroup(let n) = file, n != 3, n != 4 { #expect(r.dataGroups[n] == bytes, "DG\(n)") }
        }
    }

    @Test func passportWithBACIsReadAndVerified() throws {
        let (bench, tag) = try Self.issue(.passport) { $0.pace = [] }
        let r = try Self.read(bench, tag)
        #expect(r.accessControl == "BAC")
        Self.expectEverythingVerified(r, tag)
        #expect(r.face?.mimeType == "image/jpeg" && r.face?.data.prefix(2) == [0xFF, 0xD8])
        #expect(r.face?.data.suffix(2) == [0xFF, 0xD9])
        #expect(r.apduCount == bench.frames)
    }

    @Test(arguments: [false, true]) func idCardWithPACEByMRZOrCAN(_ useCAN: Bool) throws {
        let (bench, tag) = try Self.issue(.idCard) { $0.can = "123456" }
        let r = try Self.read(bench, tag, password: useCAN ? .can("123456") : nil)
        #expect(r.accessControl.hasPrefix("PACE 0.4.0.127.0.7.2.2.4.2."))
        Self.expectEverythingVerified(r, tag)
    }

    @Test(arguments: [
        PACEProtocol(cipher: .aes128, parameterID: 13), PACEProtocol(cipher: .aes256, parameterID: 12),
        PACEProtocol(cipher: .tdes, parameterID: 16), PACEProtocol(cipher: .aes192, parameterID: 15),
    ])
    func paceOnlyPassportWithEveryCipher(_ proto: PACEProtocol) throws {
        let (bench, tag) = try Self.issue(.passport) {
            $0.pace = [proto]
            $0.paceOnly = true
            $0.can = "424242"
        }
        let r = try Self.read(bench, tag, password: .can("424242"))
        Self.expectEverythingVerified(r, tag)
    }

    @Test(arguments: [SMCipherName.tdes, .aes128, .aes256]) func chipAuthenticationWithEachCipher(_ c: SMCipherName)
        throws
    {
        let (bench, tag) = try Self.issue(.passport) { $0.chipAuthenticationCipher = c }
        let r = try Self.read(bench, tag, usePACE: false)
        Self.expectEverythingVerified(r, tag)
    }

    @Test func wrongMRZAndWrongCANAreAccessDenied() throws {
        let (bench, tag) = try Self.issue(.passport) { $0.pace = [] }
        let wrong = try OpenNFCTags.MRZ.keyInformation(
            documentNumber: "X0000000", dateOfBirth: "010101", dateOfExpiry: "300101")
        let e = #expect(throws: PassportError.self) { try Self.read(bench, tag, password: .mrz(keyInformation: wrong)) }
        #expect(e?.code == .accessDenied)
        // No retry counter: the right MRZ works next.
        #expect(try Self.read(bench, tag).passed)
        let (bench2, card) = try Self.issue(.idCard) { $0.can = "123456" }
        let e2 = #expect(throws: PassportError.self) { try Self.read(bench2, card, password: .can("654321")) }
        #expect(e2?.code == .accessDenied)
    }

    @Test func tamperedDataGroupIsAHashMismatch() throws {
        let (bench, tag) = try Self.issue(.passport) { $0.faults = [.tamperedDG] }
        let r = try Self.read(bench, tag)
        #expect(!r.passed)
        #expect(r.passive?.dataGroups[1]?.reason?.contains("hash mismatch on DG1") == true)
        #expect(r.passive?.sodSignature == .passed)
    }

    @Test func badSODSignature() throws {
        let (bench, tag) = try Self.issue(.passport) { $0.faults = [.badSODSignature] }
        let r = try Self.read(bench, tag)
        #expect(!r.passed)
        #expect(r.passive?.sodSignature.reason?.hasPrefix("bad SOD signature") == true)
    }

    @Test func expiredAndUnknownCSCA() throws {
        let (bench, tag) = try Self.issue(.passport) { $0.faults = [.expiredCSCA] }
        let r = try Self.read(bench, tag)
        #expect(!r.passed)
        #expect(r.passive?.documentSigner.reason?.hasPrefix("expired CSCA") == true)
        let (bench2, tag2) = try Self.issue(.passport) { $0.faults = [.unknownCSCA] }
        let r2 = try Self.read(bench2, tag2)
        #expect(!r2.passed)
        #expect(r2.passive?.documentSigner.reason?.hasPrefix("unknown CSCA") == true)
        // Without the document's own PKI as the anchor (another document's CSCA), the chain is unknown too.
        let (_, other) = try Self.issue(.passport)
        let (bench3, tag3) = try Self.issue(.passport)
        let r3 = try Self.read(bench3, tag3, cscas: [other.document.pki.cscaCertificate])
        #expect(r3.passive?.documentSigner.reason?.hasPrefix("unknown CSCA") == true)
    }

    @Test func clonedChipFailsActiveAuthentication() throws {
        let (bench, tag) = try Self.issue(.passport) { $0.faults = [.cloned] }
        let r = try Self.read(bench, tag)
        #expect(!r.passed)
        #expect(r.activeAuthentication.failed)
        #expect(r.passive?.dataGroups.values.allSatisfy { $0 == .passed } == true)
    }

    /// The document taken away after every APDU of a full read in turn: each attempt ends in a `PassportError`
    /// (never a crash or a wrong success), and the sweep reaches a complete read.
    @Test func aTearAtEveryAPDUIsAnError() throws {
        var options = EMRTDIssueOptions(kind: .passport, today: Self.today)
        options.pace = []
        let document = try EMRTDIssuer.issue(.passport, holder: .specimen(.passport), options: options)
        let completed = try TearSweep.run(frames: 1...80, faults: { [.removeAfter(frame: $0)] }) { n, fault in
            let (bench, tag) = try Self.place(document)
            let outcome = TearSweep.attempt(on: bench.field, frame: n, fault: fault) { () throws(PassportError) in
                _ = try Self.readTyped(bench, tag)
            }
            // Removed after the last APDU's answer (or later): the read had everything, so it completes.
            if outcome.error == nil {
                #expect(bench.field.framesExchanged <= n, "frame \(n): the read completed although the document left")
                return true
            }
            return false
        }
        #expect(completed)
    }

    static func readTyped(_ bench: FieldBench, _ tag: EMRTDTag) throws(PassportError) -> PassportReadResult {
        let anchors: [Certificate]
        do { anchors = [try Certificate(der: tag.document.pki.cscaCertificate)] } catch { throw error }
        var options = PassportReadOptions(
            password: mrzPassword(tag), cscas: CSCAList(certificates: anchors), now: now,
            random: SeededRandomSource(seed: 3))
        options.usePACE = false
        return try PassportReader.read(transport: FrontendTransport(frontend: bench.frontend), options: options)
    }
}
