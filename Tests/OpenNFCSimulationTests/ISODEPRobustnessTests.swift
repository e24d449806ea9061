import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// Hostile input never traps a virtual card: every frame gets an answer of at least a status (or, torn, none), and
/// memory sizes never change.
@Suite struct ISODEPRobustnessTests {
    /// A frame that is often almost valid: a known CLA/INS with random parameters and lengths, or pure noise.
    static func frame(_ rng: inout SeededGenerator) -> [UInt8] {
        let classes: [UInt8] = [0x00, 0x90, 0x80, 0x01, 0x0C, 0x10, 0xFF]
        let codes: [UInt8] = [
            0xA4, 0xB0, 0xB1, 0xD6, 0xD7, 0x60, 0xAF, 0x5A, 0x6A, 0x6F, 0xBD, 0x3D, 0xCA, 0xCD, 0xDA, 0xDF, 0xF5, 0x61,
            0x6D,
        ]
        let kind = Int.random(in: 0..<4, using: &rng)
        let length = Int.random(in: 0...300, using: &rng)
        var f = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
        switch kind {
        case 0:  // an ISO command
            if f.count < 5 { f += [0, 0, 0, 0, 0] }
            f[0] = classes.randomElement(using: &rng)!
            f[1] = codes.randomElement(using: &rng)!
            f[4] = UInt8(max(0, min(255, f.count - 5 - Int.random(in: -1...1, using: &rng))) & 0xFF)
        case 1:  // a native DESFire command
            if f.isEmpty { f = [0] }
            f[0] = codes.randomElement(using: &rng)!
            f = Array(f.prefix(Int.random(in: 1...20, using: &rng)))
        case 2:  // an extended-length frame
            if f.count < 7 { f += [0, 0, 0, 0, 0, 0, 0] }
            f[0] = 0x00
            f[4] = 0x00
        default: break  // noise
        }
        return f
    }

    func sweep(_ tag: any VirtualTag, sizes: () -> [Int], seed: UInt64) {
        var rng = SeededGenerator(seed: seed)
        let before = sizes()
        var answered = 0
        for i in 0..<5_000 {
            if i % 500 == 0 { tag.reset() }
            let f = Self.frame(&rng)
            let tear: Int? = i % 97 == 0 ? Int.random(in: 0...8, using: &rng) : nil
            switch tag.receive(f, tearAfter: tear) {
            case .data(let bytes):
                #expect(tear == nil)
                #expect(!bytes.isEmpty)
                answered += 1
            case .silence:
                #expect(tear != nil)
            case .ack, .nak:
                Issue.record("an ISO-DEP card answered with a 4-bit frame")
            }
        }
        #expect(answered > 4_900)
        #expect(sizes() == before)
    }

    @Test func type4SurvivesHostileFrames() throws {
        let applet = ISO7816ClosureApplet(aid: [0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x02]) { _ in .status(.success) }
        let tag = try Type4Tag.factory(
            uid: testUID, holding: nfcpyURIMessage,
            configuration: Type4Configuration(ccWriteAccess: 0x00, extendedLength: true, answersBothNDEFNames: true),
            applets: [applet])
        sweep(tag, sizes: { [tag.ndefFile.count, tag.capabilityContainerFile.count] }, seed: 0x4E46_4331)
    }

    @Test func desfireSurvivesHostileFrames() throws {
        let tag = try DESFireEV1Tag.ndefFormatted(uid: testUID, holding: nfcpyURIMessage)
        sweep(tag, sizes: { [tag.applications.first?.files.first?.contents.count ?? 0] }, seed: 0x4445_5346)
    }
}
