/// Appends big-endian integers and byte runs to a growing buffer; the encoding side of ``ByteReader``.
package struct ByteWriter: Sendable {
    package private(set) var bytes: [UInt8]

    package init(capacity: Int = 0) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    package var count: Int { bytes.count }

    package mutating func write(_ byte: UInt8) { bytes.append(byte) }

    package mutating func write(uint16 v: UInt16) {
        bytes.append(UInt8(v >> 8))
        bytes.append(UInt8(v & 0xFF))
    }

    package mutating func write(uint24 v: UInt32) {
        precondition(v <= 0xFF_FFFF, "value does not fit in 24 bits")
        bytes.append(UInt8(v >> 16 & 0xFF))
        bytes.append(UInt8(v >> 8 & 0xFF))
        bytes.append(UInt8(v & 0xFF))
    }

    package mutating func write(uint32 v: UInt32) {
        bytes.append(UInt8(v >> 24))
        bytes.append(UInt8(v >> 16 & 0xFF))
        bytes.append(UInt8(v >> 8 & 0xFF))
        bytes.append(UInt8(v & 0xFF))
    }

    package mutating func write<C: Collection>(contentsOf c: C) where C.Element == UInt8 {
        bytes.append(contentsOf: c)
    }

    /// Overwrites a byte already written (for length fields filled in after their content).
    package mutating func set(_ byte: UInt8, at index: Int) { bytes[index] = byte }
}
