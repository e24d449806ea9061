/// A cursor over bytes that never reads past its end: every read either succeeds or throws a ``ByteReader/Error``
/// naming the byte offset (relative to the start of the whole buffer) where the data ran out.
///
/// Reads return slices of the underlying array, never copies, so decoders stay allocation-free.
public struct ByteReader: Sendable {
    /// Reading past the end: `needed` bytes were wanted at `offset`, only `available` remained.
    public struct Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        public var offset: Int
        public var needed: Int
        public var available: Int
        public init(offset: Int, needed: Int, available: Int) {
            self.offset = offset
            self.needed = needed
            self.available = available
        }
        public var description: String {
            "needed \(needed) byte(s) at byte \(offset), only \(available) available"
        }
    }

    public let bytes: ArraySlice<UInt8>
    /// Absolute index into `bytes` of the next byte to read.
    public private(set) var index: Int

    public init(_ bytes: [UInt8]) {
        self.bytes = bytes[...]
        self.index = self.bytes.startIndex
    }

    public init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    /// Offset of the cursor from the start of the slice given at init.
    public var offset: Int { index - bytes.startIndex }
    /// Bytes left to read.
    public var remaining: Int { bytes.endIndex - index }
    public var isAtEnd: Bool { index >= bytes.endIndex }

    public func peekUInt8() -> UInt8? { isAtEnd ? nil : bytes[index] }

    public mutating func readUInt8() throws(Error) -> UInt8 {
        guard index < bytes.endIndex else { throw Error(offset: offset, needed: 1, available: 0) }
        defer { index += 1 }
        return bytes[index]
    }

    /// Big-endian unsigned 16-bit integer.
    public mutating func readUInt16() throws(Error) -> UInt16 {
        let s = try readBytes(2)
        return UInt16(s[s.startIndex]) << 8 | UInt16(s[s.startIndex + 1])
    }

    /// Big-endian unsigned 24-bit integer.
    public mutating func readUInt24() throws(Error) -> UInt32 {
        let s = try readBytes(3)
        return UInt32(s[s.startIndex]) << 16 | UInt32(s[s.startIndex + 1]) << 8 | UInt32(s[s.startIndex + 2])
    }

    /// Big-endian unsigned 32-bit integer.
    public mutating func readUInt32() throws(Error) -> UInt32 {
        let s = try readBytes(4)
        var v: UInt32 = 0
        for b in s { v = v << 8 | UInt32(b) }
        return v
    }

    /// The next `count` bytes as a slice (no copy).
    public mutating func readBytes(_ count: Int) throws(Error) -> ArraySlice<UInt8> {
        guard count >= 0, count <= remaining else {
            throw Error(offset: offset, needed: count, available: remaining)
        }
        defer { index += count }
        return bytes[index..<index + count]
    }

    /// Everything that is left.
    public mutating func readRest() -> ArraySlice<UInt8> {
        defer { index = bytes.endIndex }
        return bytes[index...]
    }

    public mutating func skip(_ count: Int) throws(Error) {
        _ = try readBytes(count)
    }
}
