import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// The `--trace` describers as the families register them (``TagFamilies/frameDescribers``): each frame mode asks the
/// families whose frames travel in it, in the order docs/ADDING-A-TAG-FAMILY.md gives (the first name wins).
@Suite struct FrameDescriptionTests {
    static func names(_ mode: RFFrameMode) -> [String] {
        (FrameDescription.describers[mode] ?? []).map { String(describing: $0) }
    }

    @Test func everyModeAsksItsFamiliesInOrder() {
        #expect(Self.names(.nfcA) == ["Type1Trace", "Type2Trace", "MIFAREPlusTrace"])
        #expect(Self.names(.type1) == ["Type1Trace"])
        #expect(Self.names(.isoDEP) == ["MIFAREPlusTrace", "Type4Trace", "DESFireTrace"])
        #expect(Self.names(.felica) == ["Type3Trace"])
        #expect(Self.names(.nfcV) == ["Type5Trace"])
        #expect(Set(FrameDescription.describers.keys) == Set(RFFrameMode.allCases))
    }

    @Test func aDescriberIsAskedUnderEveryModeItDeclaresAndNoOther() {
        for d in TagFamilies.frameDescribers {
            for mode in RFFrameMode.allCases {
                let asked = (FrameDescription.describers[mode] ?? []).contains { $0 == d }
                #expect(asked == d.frameModes.contains(mode), "\(d) under \(mode)")
            }
        }
    }

    /// The first describer that names a frame wins: a 7-byte Topaz READ is named as Type 1 on NFC-A, where Type 2
    /// also looks; an ISO-DEP frame no family claims stays unnamed.
    @Test func theFirstNameWins() {
        #expect(FrameDescription.describe(command: h("01 08 00 11 22 33 44"), mode: .nfcA) != nil)
        #expect(
            FrameDescription.describe(command: h("01 08 00 11 22 33 44"), mode: .nfcA)
                == FrameDescription.describe(command: h("01 08 00 11 22 33 44"), mode: .type1))
        #expect(FrameDescription.describe(command: h("FF"), mode: .isoDEP) == nil)
    }
}
