/// The data area of a Type 2 tag as a sequence of usable byte addresses: bytes 16 … 16 + size − 1, minus the lock
/// and reserved areas that Lock Control and Memory Control TLVs declare (T2T §4.7, §4.8).
///
/// A TLV's tag, length and value flow around those areas: the byte after address `a` is the next address that is not
/// reserved. Addresses are byte addresses on the tag (page × 4 + byte).
struct Type2AddressSpace: Hashable {
    /// First byte of the data area (page 4).
    static let dataStart = 16
    /// One past the last byte of the data area.
    var dataEnd: Int
    /// Reserved byte ranges (lock bytes and memory-control areas), in declaration order.
    var reserved: [Range<Int>] = []

    func isReserved(_ a: Int) -> Bool { reserved.contains { $0.contains(a) } }

    /// The first usable address at or after `a` (may be `dataEnd`).
    func usable(from a: Int) -> Int {
        var a = a
        while a < dataEnd, let r = reserved.first(where: { $0.contains(a) }) { a = r.upperBound }
        return min(a, dataEnd)
    }

    /// The usable address after `a`.
    func next(_ a: Int) -> Int { usable(from: a + 1) }

    /// The usable address `n` usable bytes after `a` (n ≥ 0), or `dataEnd` when the area ends first.
    func advance(_ a: Int, by n: Int) -> Int {
        var a = a
        for _ in 0..<n {
            if a >= dataEnd { return dataEnd }
            a = next(a)
        }
        return a
    }

    /// `count` usable addresses starting at `a` (fewer when the area ends first).
    func addresses(from a: Int, count: Int) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(count)
        var a = usable(from: a)
        while out.count < count, a < dataEnd {
            out.append(a)
            a = next(a)
        }
        return out
    }

    /// Number of usable bytes from `a` (inclusive) to the end of the data area.
    func usableCount(from a: Int) -> Int {
        var n = 0
        var a = usable(from: a)
        while a < dataEnd {
            n += 1
            a = next(a)
        }
        return n
    }
}

/// A dynamic lock area declared by a Lock Control TLV (T2T §4.7).
struct Type2LockArea: Hashable {
    /// Byte address of the first lock byte.
    var address: Int
    /// Number of lock bits (1–256).
    var bits: Int
    /// Bytes each lock bit protects.
    var bytesPerBit: Int

    var byteCount: Int { (bits + 7) / 8 }
    var range: Range<Int> { address..<(address + byteCount) }

    /// The value each lock byte takes with every bit of this area set.
    var lockedBytes: [UInt8] {
        (0..<byteCount).map { i in
            let remaining = bits - i * 8
            return remaining >= 8 ? 0xFF : UInt8((1 << remaining) - 1)
        }
    }

    /// Decodes the 3-byte value of a Lock Control TLV: position (page nibble · byte nibble), bit count (0 = 256),
    /// log2 of bytes locked per bit (high nibble) and log2 of bytes per page (low nibble).
    init(lockControl v: [UInt8]) {
        let pageAddress = Int(v[0] >> 4)
        let byteOffset = Int(v[0] & 0x0F)
        let pageSize = 1 << Int(v[2] & 0x0F)
        address = pageAddress * pageSize + byteOffset
        bits = v[1] == 0 ? 256 : Int(v[1])
        bytesPerBit = 1 << Int(v[2] >> 4)
    }

    init(address: Int, bits: Int, bytesPerBit: Int) {
        self.address = address
        self.bits = bits
        self.bytesPerBit = bytesPerBit
    }

    /// The NFC Forum default when no Lock Control TLV is present: lock bytes right after the data area,
    /// ⌈(size − 48) ÷ 8⌉ bits, 8 bytes per bit (T2T §4.7.1). Nil for a 48-byte (static only) tag.
    static func defaultArea(dataAreaSize: Int) -> Type2LockArea? {
        guard dataAreaSize > 48 else { return nil }
        return Type2LockArea(
            address: Type2AddressSpace.dataStart + dataAreaSize, bits: (dataAreaSize - 48 + 7) / 8, bytesPerBit: 8)
    }
}

/// Decodes the 3-byte value of a Memory Control TLV into the reserved byte range it declares (T2T §4.8).
func type2ReservedRange(memoryControl v: [UInt8]) -> Range<Int> {
    let pageSize = 1 << Int(v[2] & 0x0F)
    let address = Int(v[0] >> 4) * pageSize + Int(v[0] & 0x0F)
    let size = v[1] == 0 ? 256 : Int(v[1])
    return address..<(address + size)
}
