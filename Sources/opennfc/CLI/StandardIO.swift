import Foundation

/// stdout / stderr of the process. stdout is flushed after every write so that line-by-line protocols
/// (`tag send -`) answer at once.
struct StandardIO: TextOutput {
    mutating func out(_ s: String) {
        FileHandle.standardOutput.write(Data(s.utf8))
    }
    mutating func err(_ s: String) {
        FileHandle.standardError.write(Data(s.utf8))
    }
}

/// Plain process-wide print helpers for command bodies.
enum Console {
    static func out(_ s: String) { FileHandle.standardOutput.write(Data(s.utf8)) }
    static func err(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }
}
