/// Appends big-endian integers and byte runs to a growing buffer; the encoding side of ``ByteReader``.
public struct ByteWriter: Sendable {
    public private(set) var bytes: [UInt8]

    public init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    public var count: Int { bytes.count }

    public mutating func write(_ byte: UInt8) { bytes.append(byte) }

    public mutating func write(uint16 v: UInt16) {
        bytes.append(UInt8(v >> 8))
        bytes.append(UInt8(v & 0xFF))
    }

    public mutating func write(uint24 v: UInt32) {
        precondition(v <= 0xFF_FFFF, "value does not fit in 24 bits")
        bytes.append(UInt8(v >> 16 & 0xFF))
        bytes.append(UInt8(v >> 8 & 0xFF))
        bytes.append(UInt8(v & 0xFF))
    }

    public mutating func write(uint32 v: UInt32) {
        bytes.append(UInt8(v >> 24))
        bytes.append(UInt8(v >> 16 & 0xFF))
        bytes.append(UInt8(v >> 8 & 0xFF))
        bytes.append(UInt8(v & 0xFF))
    }

    public mutating func write<C: Collection>(contentsOf c: C) where C.Element == UInt8 {
        bytes.append(contentsOf: c)
    }

    /// Overwrites a byte already written (for length fields filled in after their content).
    public mutating func set(_ byte: UInt8, at index: Int) { bytes[index] = byte }
}
