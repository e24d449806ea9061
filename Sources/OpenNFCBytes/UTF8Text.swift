/// Strict UTF-8 decoding of a file's text (RFC 3629 §3): a byte sequence that is not well-formed UTF-8 is an error
/// naming its byte offset and line, never decoded as U+FFFD replacement characters.
package enum UTF8Text {
    /// Where the text stops being UTF-8.
    package struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// The offset of the first byte of the ill-formed sequence.
        package var offset: Int
        /// Its line, counting from 1.
        package var line: Int
        /// The byte at `offset`.
        package var byte: UInt8

        package init(offset: Int, line: Int, byte: UInt8) {
            self.offset = offset
            self.line = line
            self.byte = byte
        }

        package var description: String {
            "not UTF-8 text: the bytes from byte \(offset) (line \(line), \(Hex.encode([byte]))h) are not valid UTF-8"
        }
    }

    /// The text of `bytes`, or where it is not UTF-8.
    package static func decode(_ bytes: [UInt8]) throws(Invalid) -> String {
        var iterator = bytes.makeIterator()
        var decoder = Unicode.UTF8()
        var scalars = String.UnicodeScalarView()
        var offset = 0
        var line = 1
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let u):
                scalars.append(u)
                if u == "\n" { line += 1 }
                offset += UTF8.width(u)
            case .emptyInput:
                return String(scalars)
            case .error:
                throw Invalid(offset: offset, line: line, byte: bytes[offset])
            }
        }
    }
}
