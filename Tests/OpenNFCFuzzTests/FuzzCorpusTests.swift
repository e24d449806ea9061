import Foundation
import OpenNFCFuzzTargets
import Testing

/// Every committed corpus input (`Fuzz/Corpus/<target>/`: the seeds and every input a campaign found crashing, kept
/// as `finding-*`) runs through its target in the ordinary suite, so a regression traps here without libFuzzer.
@Suite struct FuzzCorpusTests {
    static let corpusRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus").path

    static func inputs(_ target: String) -> [(String, [UInt8])] {
        let dir = corpusRoot + "/" + target
        let names = (try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().compactMap { name in
            FileManager.default.contents(atPath: dir + "/" + name).map { (name, [UInt8]($0)) }
        }
    }

    @Test(arguments: FuzzTargets.all.map(\.name))
    func committedCorpusReplays(target name: String) throws {
        let target = try #require(FuzzTargets.named(name))
        let inputs = Self.inputs(name)
        #expect(!inputs.isEmpty, "Fuzz/Corpus/\(name) holds no inputs: run `scripts/fuzz --seeds`")
        for (_, bytes) in inputs { target.run(bytes) }
    }

    @Test func everyTargetHasSeedsAndAUniqueName() {
        let names = FuzzTargets.all.map(\.name)
        #expect(Set(names).count == names.count)
        for t in FuzzTargets.all { #expect(!t.seeds().isEmpty, "\(t.name) has no seeds") }
    }
}
