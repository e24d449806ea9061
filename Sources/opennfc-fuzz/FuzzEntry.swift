// The fuzz driver. Built by `scripts/fuzz` with `-sanitize=fuzzer,address -DOPENNFC_FUZZ`, it is a libFuzzer
// binary: the target is named by the environment variable OPENNFC_FUZZ_TARGET. Built normally (every build, so
// warnings-as-errors covers it), it is a replay and seed tool:
//
//     opennfc-fuzz --list
//     opennfc-fuzz seeds <target|all> <corpus-root>     write the seed corpus (Fuzz/Corpus/<target>/seed-NNN)
//     opennfc-fuzz run <target> <file|dir>...          run inputs through the target, as the ordinary tests do
//     opennfc-fuzz smoke <target> <dir> <seconds>      the corpus, then seeded random mutations of it (bit flips,
//                                                      byte changes, inserts, deletes, splices) until the time is up
internal import Foundation
internal import OpenNFCBytes
internal import OpenNFCFuzzTargets

#if OPENNFC_FUZZ
    nonisolated(unsafe) private var selected: FuzzTarget?

    @_cdecl("LLVMFuzzerInitialize")
    func fuzzerInitialize(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>
    ) -> CInt {
        let name = ProcessInfo.processInfo.environment["OPENNFC_FUZZ_TARGET"] ?? ""
        guard let target = FuzzTargets.named(name) else {
            let names = FuzzTargets.all.map(\.name).joined(separator: ", ")
            FileHandle.standardError.write(Data("Error: set OPENNFC_FUZZ_TARGET to one of: \(names)\n".utf8))
            exit(64)
        }
        selected = target
        return 0
    }

    @_cdecl("LLVMFuzzerTestOneInput")
    func fuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
        let bytes = size == 0 || data == nil ? [] : Array(UnsafeBufferPointer(start: data, count: size))
        selected?.run(bytes)
        return 0
    }

    /// libFuzzer's driver entry point (compiler-rt `FuzzerInterface.h`): runs the fuzzing loop with this callback.
    @_silgen_name("LLVMFuzzerRunDriver")
    func runFuzzerDriver(
        _ argc: UnsafeMutablePointer<CInt>,
        _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
    ) -> CInt

    /// SwiftPM links an executable's entry point as `main` = `<module>_main` (so that tests can link it), which
    /// keeps libFuzzer's own `main` out: this entry point hands over to libFuzzer's driver instead.
    @_cdecl("opennfc_fuzz_main")
    func fuzzMain(
        _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    ) -> CInt {
        var count = argc
        var arguments = argv
        return withUnsafeMutablePointer(to: &arguments) { argumentsPointer in
            runFuzzerDriver(&count, argumentsPointer) { data, size in fuzzerTestOneInput(data, size) }
        }
    }
#else
    @main
    struct FuzzReplay {
        static func main() {
            var args = Array(CommandLine.arguments.dropFirst())
            guard let command = args.first else { usage() }
            args.removeFirst()
            switch command {
            case "--list":
                for t in FuzzTargets.all {
                    print("\(t.name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(t.summary)")
                }
            case "seeds":
                guard args.count == 2 else { usage() }
                let targets = args[0] == "all" ? FuzzTargets.all : [target(args[0])]
                for t in targets { writeSeeds(t, root: args[1]) }
            case "run":
                guard args.count >= 2 else { usage() }
                let t = target(args[0])
                var count = 0
                for path in args.dropFirst() {
                    for file in files(path) {
                        guard let data = FileManager.default.contents(atPath: file) else {
                            fail("cannot read \(file)")
                        }
                        t.run([UInt8](data))
                        count += 1
                    }
                }
                print("\(t.name): \(count) inputs, every invariant held")
            case "smoke":
                guard args.count == 3, let seconds = Double(args[2]) else { usage() }
                smoke(target(args[0]), corpus: files(args[1]), seconds: seconds)
            default:
                usage()
            }
        }

        /// Not coverage-guided (that is libFuzzer's job): a quick pass that a broken harness or invariant fails.
        static func smoke(_ t: FuzzTarget, corpus: [String], seconds: Double) {
            let inputs = corpus.compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
            guard !inputs.isEmpty else { fail("\(t.name): the corpus is empty") }
            for input in inputs { t.run(input) }
            var state: UInt64 = 0x9E37_79B9_7F4A_7C15
            func next(_ bound: Int) -> Int {
                state ^= state << 13
                state ^= state >> 7
                state ^= state << 17
                return Int(state % UInt64(max(1, bound)))
            }
            // The input being run, so that a trap leaves it behind (OPENNFC_FUZZ_SMOKE_LAST=path).
            let lastInput = ProcessInfo.processInfo.environment["OPENNFC_FUZZ_SMOKE_LAST"]
            let start = ContinuousClock.now
            let limit = Duration.milliseconds(Int(seconds * 1000))
            var executions = inputs.count
            while ContinuousClock.now - start < limit {
                for _ in 0..<64 {
                    var bytes = inputs[next(inputs.count)]
                    for _ in 0..<(1 + next(4)) {
                        switch next(5) {
                        case 0 where !bytes.isEmpty: bytes[next(bytes.count)] ^= UInt8(1 << next(8))
                        case 1 where !bytes.isEmpty: bytes[next(bytes.count)] = UInt8(truncatingIfNeeded: next(256))
                        case 2: bytes.insert(UInt8(truncatingIfNeeded: next(256)), at: next(bytes.count + 1))
                        case 3 where !bytes.isEmpty: bytes.remove(at: next(bytes.count))
                        default:
                            let other = inputs[next(inputs.count)]
                            bytes = Array(bytes.prefix(next(bytes.count + 1))) + other.suffix(next(other.count + 1))
                        }
                    }
                    if let lastInput { _ = try? FileAccess.write(bytes, to: lastInput, durable: false) }
                    t.run(bytes)
                    executions += 1
                }
            }
            print("\(t.name): \(executions) executions (corpus and mutations), every invariant held")
        }

        static func target(_ name: String) -> FuzzTarget {
            guard let t = FuzzTargets.named(name) else {
                fail("unknown target '\(name)' (known: \(FuzzTargets.all.map(\.name).joined(separator: ", ")))")
            }
            return t
        }

        static func files(_ path: String) -> [String] {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                fail("\(path): no such file or directory")
            }
            guard isDirectory.boolValue else { return [path] }
            let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
            return names.filter { !$0.hasPrefix(".") }.sorted().map { path + "/" + $0 }
        }

        static func writeSeeds(_ t: FuzzTarget, root: String) {
            let dir = root + "/" + t.name
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
                for (i, seed) in t.seeds().enumerated() {
                    let name = dir + "/seed-" + String(repeating: "0", count: max(0, 3 - String(i).count)) + String(i)
                    try FileAccess.write(seed, to: name)
                }
            } catch {
                fail("cannot write the seeds of \(t.name) into \(dir): \(error.localizedDescription)")
            }
            print("\(t.name): \(t.seeds().count) seeds in \(dir)")
        }

        static func usage() -> Never {
            fail(
                "usage: opennfc-fuzz --list | seeds <target|all> <corpus-root> | run <target> <file|dir>... "
                    + "| smoke <target> <dir> <seconds>", 64)
        }

        static func fail(_ message: String, _ status: Int32 = 1) -> Never {
            FileHandle.standardError.write(Data("Error: \(message)\n".utf8))
            exit(status)
        }
    }
#endif
