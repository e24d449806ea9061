import Foundation
import OpenNFCBytes

/// `opennfc-bench <mode> [options]`: release-build benchmarks that print one JSON object on stdout.
///
/// Each mode lives in its own file and is listed in ``benchModes``; add a line there to add a mode.
struct BenchMode: Sendable {
    var name: String
    var summary: String
    /// Runs the benchmark with the arguments after the mode name and returns the JSON to print.
    var run: @Sendable ([String]) throws -> JSONValue
}

/// The modes, in the order `--help` lists them.
let benchModes: [BenchMode] = [
    ndefBenchmark,
    sessionsBenchmark,
    isodepBenchmark,
    pcscBenchmark,
    soakBenchmark,
    watchBenchmark,
    airBenchmark,
]

@MainActor func benchUsage() -> String {
    var s = "Usage: opennfc-bench <mode> [options]\n\nModes:\n"
    for m in benchModes { s += "  " + m.name.padding(toLength: 12, withPad: " ", startingAt: 0) + m.summary + "\n" }
    return s
}

let benchArguments = Array(CommandLine.arguments.dropFirst())
guard let modeName = benchArguments.first, !["-h", "--help", "help"].contains(modeName) else {
    FileHandle.standardOutput.write(Data(benchUsage().utf8))
    exit(benchArguments.isEmpty ? 64 : 0)
}
guard let mode = benchModes.first(where: { $0.name == modeName }) else {
    FileHandle.standardError.write(Data("Error: unknown mode '\(modeName)'\n\(benchUsage())".utf8))
    exit(64)
}
do {
    let result = try mode.run(Array(benchArguments.dropFirst()))
    FileHandle.standardOutput.write(Data((result.pretty + "\n").utf8))
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
