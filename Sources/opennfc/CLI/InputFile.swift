import OpenNFCBytes
import OpenNFCSimulation

/// The files a command reads and writes, through ``FileAccess`` (OpenNFCBytes): every failure is one `Error:`
/// line naming the file and the reason in words, and a written file is replaced atomically or not at all.
enum InputFile {
    /// The bytes of the file at `path`, or a failure `cannot read the <what> '<path>': <reason>`.
    static func bytes(_ path: String, what: String) throws -> [UInt8] {
        do {
            return try FileAccess.contents(of: path)
        } catch {
            throw CLIError.failure("cannot read the \(what) '\(path)': \(error.reason)")
        }
    }

    /// Writes `bytes` to `path` atomically, or fails with `cannot write '<path>': <reason>`.
    static func write(_ bytes: [UInt8], to path: String) throws {
        do {
            try FileAccess.writeAtomically(bytes, to: path)
        } catch {
            throw CLIError.failure("cannot write '\(path)': \(error.reason)")
        }
    }
}
