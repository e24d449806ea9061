extension StringProtocol {
    /// The lines of a text file, split at LF, CRLF or CR, empty lines kept (so that index + 1 is the line number).
    /// Swift reads "\r\n" as one `Character`, so splitting on "\n" alone would leave a CRLF file (as Windows editors
    /// save it) in one piece: every parser of text people hand us splits here.
    package func textLines() -> [SubSequence] {
        split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
    }
}
