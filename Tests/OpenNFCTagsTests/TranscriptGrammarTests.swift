import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// The reader side reads the same transcript grammar as the card side (``Transcript``: hex, `ACK`, `NAK <n>`,
/// `TIMEOUT`), so a transcript recorded from a virtual chip can be replayed against a procedure as is.
@Suite struct TranscriptGrammarTests {
    @Test func aFactoryNTAG213ReadsAsInTheStepForm() throws {
        let f = ScriptedFrontend(
            transcript: """
                30 03 -> \(ntag213FactoryPages3to6)   # READ page 3: CC, Lock Control TLV, empty NDEF TLV
                """)
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 137, messageLength: 0))
        #expect(f.isComplete)
    }

    @Test func nakAndTimeoutAreTheCardSidesWords() throws {
        let f = ScriptedFrontend(
            transcript: """
                3050 -> NAK 0     # READ past the end: NAK 0 (NTAG213/215/216 datasheet §9.3)
                3004 -> TIMEOUT   # a muted tag answers nothing until it is re-activated
                ACTIVATE -> ACK
                """)
        #expect(try f.exchange([0x30, 0x50]) == .nak(0))
        #expect(throws: RFError(.timeout)) { try f.exchange([0x30, 0x04]) }
        _ = try f.activate(ntagTarget, isoDEP: false)
        #expect(f.isComplete)
    }

    @Test func theGrammarParsesEveryAnswerWord() throws {
        let lines = try Transcript.parse(
            """
            # a comment line
            A2 04 03 00 FE 00 -> ACK
            30 50 -> NAK 0
            30 04 -> TIMEOUT
            ACTIVATE -> UID 04A1B2C3D4E5F6 ATQA 0044 SAK 00
            60 -> 00 04 04 02 01 00 0F 03   # GET_VERSION
            """)
        #expect(
            lines.map(\.answer) == [
                .ack, .nak(0), .timeout, .text("UID 04A1B2C3D4E5F6 ATQA 0044 SAK 00"), .frame(h("0004040201000F03")),
            ])
        #expect(lines.map(\.number) == [2, 3, 4, 5, 6])
        #expect(lines.last?.comment == "GET_VERSION")
        #expect(Transcript.Answer(.success(.nak(4))).description == "NAK 4")
        #expect(Transcript.Answer(.failure(RFError(.linkLost))) == .timeout)
        #expect(throws: Transcript.SyntaxError.self) { try Transcript.parse("30 03 ACK") }
        #expect(throws: Transcript.SyntaxError.self) { try Transcript.parse("zz -> ACK") }
    }
}
