import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// Every Type 4 procedure against the virtual Type 4 card and the virtual DESFire EV1 (ISO NDEF mapping).
@Suite struct Type4InteropTests {
    @Test func type4CardLifecycleWithAWritableCC() throws {
        let bench = InteropBench()
        let card = try Type4Tag(uid: uid7, configuration: Type4Configuration(ccWriteAccess: 0x00))
        var (tag, p) = try bench.connect(card)
        #expect(tag.kind == .iso7816)
        let d = try p.detect()
        #expect(d == NDEFDetection(status: .readWrite, capacity: 4094, messageLength: 0))
        let message = ndefMessage(length: 4094, seed: 2)
        try p.writeMessage(message)

        (_, p) = try bench.connect(card)
        #expect(try p.readMessage() == message)
        #expect(card.ndefMessage == message)
        try p.makeReadOnly()
        #expect(try p.detect().status == .readOnly)
        #expect(tagErrorCode { try p.writeMessage(ndefMessage(length: 10)) } == .readOnly)

        (_, p) = try bench.connect(card)
        #expect(try p.detect() == NDEFDetection(status: .readOnly, capacity: 4094, messageLength: 4094))
        #expect(try p.readMessage() == message)
        #expect(card.ndefAccess.write == 0xFF)
    }

    /// Card side and reader side agree on capacity: a file of 600 bytes holds 598, read back; 599 does not fit.
    @Test func capacityAgreesWithTheCardSide() throws {
        let bench = InteropBench()
        let config = Type4Configuration(ndefFileSize: 600)
        let (_, p) = try bench.connect(
            try Type4Tag.factory(uid: uid7, holding: ndefMessage(length: 598), configuration: config))
        #expect(try p.detect().capacity == 598)
        #expect(try p.readMessage() == ndefMessage(length: 598))
        #expect(throws: ISODEPCardError.self) {
            try Type4Tag.factory(uid: uid7, holding: ndefMessage(length: 599), configuration: config)
        }
    }

    @Test func aCardWhoseCCIsReadOnlyCannotBeMadeReadOnly() throws {
        let bench = InteropBench()
        let card = try Type4Tag.factory(uid: uid7, holding: ndefMessage(length: 30))
        var (_, p) = try bench.connect(card)
        #expect(tagErrorCode { try p.makeReadOnly() } == .cannotMakeReadOnly)
        (_, p) = try bench.connect(card)
        #expect(try p.detect().status == .readWrite)
        #expect(try p.readMessage() == ndefMessage(length: 30))
    }

    @Test func formatEmptiesAndOverwritesRoundTrip() throws {
        let bench = InteropBench()
        let card = try Type4Tag.factory(uid: uid7, holding: ndefMessage(length: 300))
        var (_, p) = try bench.connect(card)
        try p.format()
        (_, p) = try bench.connect(card)
        #expect(try p.readMessage() == [])
        for (i, n) in [3, 255, 256, 1000, 20].enumerated() {
            let m = ndefMessage(length: n, seed: UInt8(i))
            try p.writeMessage(m)
            (_, p) = try bench.connect(card)
            #expect(try p.readMessage() == m)
        }
    }

    @Test func mappingVersion1CardIsReadThroughTheV1Fallback() throws {
        let bench = InteropBench()
        // A card that answers only the mapping 1.0 name: the reader's v2 SELECT is refused, the v1 one (no Le) and
        // the v1 SELECT by file id (P2 00) follow: 6 detection frames, then one READ BINARY.
        let card = try Type4Tag.factory(
            uid: uid7, holding: ndefMessage(length: 40),
            configuration: Type4Configuration(mappingVersion: 0x10, answersBothNDEFNames: false))
        var (_, p) = try bench.connect(card)
        #expect(try p.readMessage() == ndefMessage(length: 40))
        #expect(bench.frames == 6 + 1)
        try p.writeMessage(ndefMessage(length: 50, seed: 4))
        (_, p) = try bench.connect(card)
        #expect(try p.readMessage() == ndefMessage(length: 50, seed: 4))
    }

    @Test func smallMLeAndMLcAndExtendedLength() throws {
        let bench = InteropBench()
        let configurations = [
            Type4Configuration(ndefFileSize: 600, mle: 0x0F, mlc: 0x01),
            Type4Configuration(ndefFileSize: 2000, mle: 0x03FF, mlc: 0x0200, extendedLength: true),
        ]
        for c in configurations {
            let card = try Type4Tag(uid: uid7, configuration: c)
            var (_, p) = try bench.connect(card)
            let m = ndefMessage(length: c.ndefFileSize - 2, seed: 6)
            try p.writeMessage(m)
            (_, p) = try bench.connect(card)
            #expect(try p.readMessage() == m)
        }
    }

    /// MLe 1023 / MLc 512 with extended-length APDUs through a frontend that carries 1100-byte frames: a 1998-byte
    /// message is written in ⌈1998 ÷ 512⌉ = 4 UPDATE BINARY + NLEN and read in ⌈1998 ÷ 1023⌉ = 2 READ BINARY.
    @Test func extendedLengthAPDUsWhenCardAndFrontendAllowThem() throws {
        let bench = InteropBench(
            capabilities: RFCapabilities(
                maxCommandSize: 1100, maxResponseSize: 1100, rawFrames: true, technologies: [.nfcA]))
        let card = try Type4Tag(
            uid: uid7,
            configuration: Type4Configuration(ndefFileSize: 2000, mle: 0x03FF, mlc: 0x0200, extendedLength: true))
        var (_, p) = try bench.connect(card)
        let m = ndefMessage(length: 1998, seed: 7)
        try p.writeMessage(m)
        #expect(bench.frames == 5 + 4 + 1)
        (_, p) = try bench.connect(card)
        #expect(try p.readMessage() == m)
        #expect(bench.frames == 5 + 2)
    }

    @Test func aCardWithoutTheNDEFApplicationIsNotSupported() throws {
        let bench = InteropBench()
        let card = try Type4Tag(uid: uid7, configuration: Type4Configuration(hostsNDEFApplication: false))
        let (_, p) = try bench.connect(card)
        #expect(try p.detect().status == .notSupported)
        #expect(tagErrorCode { _ = try p.readMessage() } == .notFormatted)
    }

    @Test func desfireEV1ThroughItsNDEFMapping() throws {
        let bench = InteropBench()
        let card = try DESFireEV1Tag.ndefFormatted(uid: uid7, holding: ndefMessage(length: 100))
        var (tag, p) = try bench.connect(card)
        guard case .desfire(let version) = tag.kind else {
            Issue.record("expected a DESFire, got \(tag.kind)")
            return
        }
        #expect(version.generation == .ev1)
        #expect(version.storageSize == 4096)
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 4094, messageLength: 100))
        #expect(try p.readMessage() == ndefMessage(length: 100))
        let m = ndefMessage(length: 4094, seed: 8)
        try p.writeMessage(m)
        (_, p) = try bench.connect(card)
        #expect(try p.readMessage() == m)
        #expect(card.ndefMessage == m)
        try p.makeReadOnly()
        (_, p) = try bench.connect(card)
        #expect(try p.detect().status == .readOnly)
        #expect(try p.readMessage() == m)
    }
}
