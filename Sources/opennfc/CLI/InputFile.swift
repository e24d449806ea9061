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

    /// The text of the file at `path`: strict UTF-8, a byte that is not is a failure naming its offset and line
    /// (`the <what> '<path>' is not UTF-8 text: byte 12 (line 2) is FFh, …`), never a replacement character.
    static func text(_ path: String, what: String) throws -> String {
        let data = try bytes(path, what: what)
        do throws(UTF8Text.Invalid) {
            return try UTF8Text.decode(data)
        } catch {
            throw CLIError.failure("the \(what) '\(path)' is \(error)")
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
