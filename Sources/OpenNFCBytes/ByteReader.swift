/// A cursor over bytes that never reads past its end: every read either succeeds or throws a ``ByteReader/Error``
/// naming the byte offset (relative to the start of the whole buffer) where the data ran out.
///
/// Reads return slices of the underlying array, never copies, so decoders stay allocation-free.
package struct ByteReader: Sendable {
    /// Reading past the end: `needed` bytes were wanted at `offset`, only `available` remained.
    package struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        package var offset: Int
        package var needed: Int
        package var available: Int
        package init(offset: Int, needed: Int, available: Int) {
            self.offset = offset
            self.needed = needed
            self.available = available
        }
        package var description: String {
            "needed \(needed) byte(s) at byte \(offset), only \(available) available"
        }
    }

    package let bytes: ArraySlice<UInt8>
    /// Absolute index into `bytes` of the next byte to read.
    package private(set) var index: Int

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes[...]
        self.index = self.bytes.startIndex
    }

    package init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    /// Offset of the cursor from the start of the slice given at init.
    package var offset: Int { index - bytes.startIndex }
    /// Bytes left to read.
    package var remaining: Int { bytes.endIndex - index }
    package var isAtEnd: Bool { index >= bytes.endIndex }

    package func peekUInt8() -> UInt8? { isAtEnd ? nil : bytes[index] }

    package mutating func readUInt8() throws(Error) -> UInt8 {
        guard index < bytes.endIndex else { throw Error(offset: offset, needed: 1, available: 0) }
        defer { index += 1 }
        return bytes[index]
    }

    /// Big-endian unsigned 16-bit integer.
    package mutating func readUInt16() throws(Error) -> UInt16 {
        let s = try readBytes(2)
        return UInt16(s[s.startIndex]) << 8 | UInt16(s[s.startIndex + 1])
    }

    /// Big-endian unsigned 24-bit integer.
    package mutating func readUInt24() throws(Error) -> UInt32 {
        let s = try readBytes(3)
        return UInt32(s[s.startIndex]) << 16 | UInt32(s[s.startIndex + 1]) << 8 | UInt32(s[s.startIndex + 2])
    }

    /// Big-endian unsigned 32-bit integer.
    package mutating func readUInt32() throws(Error) -> UInt32 {
        let s = try readBytes(4)
        var v: UInt32 = 0
        for b in s { v = v << 8 | UInt32(b) }
        return v
    }

    /// The next `count` bytes as a slice (no copy).
    package mutating func readBytes(_ count: Int) throws(Error) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw Error(offset: offset, needed: count, available: remaining)
        }
        defer { index += count }
        return bytes[index..<index + count]
    }

    /// Everything that is left.
    package mutating func readRest() -> ArraySlice<UInt8> {
        defer { index = bytes.endIndex }
        return bytes[index...]
    }

    package mutating func skip(_ count: Int) throws(Error) {
        _ = try readBytes(count)
    }
}
