internal import OpenNFCBytes

/// The TLV area of an NFC Forum Type 1 or Type 2 tag as a sequence of usable byte addresses: the data area minus the
/// lock and reserved areas that Lock Control and Memory Control TLVs declare (and, on Type 1, the blocks the memory
/// map reserves), NFC Forum T1T 1.2 "TLV blocks" and T2T §4.7–§4.8.
///
/// A TLV's tag, length and value flow around those areas: the byte after address `a` is the next address that is not
/// reserved. Addresses are byte addresses on the tag.
struct TLVAddressSpace: Hashable {
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

    /// Number of usable bytes from `a` (inclusive) to the end of the data area: the bytes there minus the reserved
    /// ones, each counted once however the reserved ranges overlap (computed, not walked byte by byte: NDEF detection
    /// asks it for every TLV).
    func usableCount(from a: Int) -> Int {
        let start = usable(from: a)
        guard start < dataEnd else { return 0 }
        if reserved.isEmpty { return dataEnd - start }
        let inside = reserved.map { r -> Range<Int> in
            let upper = max(min(r.upperBound, dataEnd), start)
            return min(max(r.lowerBound, start), upper)..<upper
        }
        var reservedBytes = 0
        var covered = start  // reserved bytes below `covered` are counted
        for r in inside.sorted(by: { $0.lowerBound < $1.lowerBound }) where r.upperBound > covered {
            reservedBytes += r.upperBound - max(r.lowerBound, covered)
            covered = r.upperBound
        }
        return dataEnd - start - reservedBytes
    }
}

/// A dynamic lock area declared by a Lock Control TLV (T1T 1.2 and T2T §4.7, the same encoding).
struct TLVLockArea: Hashable {
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
}

/// Decodes the 3-byte value of a Memory Control TLV into the reserved byte range it declares (T1T 1.2, T2T §4.8).
func tlvReservedRange(memoryControl v: [UInt8]) -> Range<Int> {
    let pageSize = 1 << Int(v[2] & 0x0F)
    let address = Int(v[0] >> 4) * pageSize + Int(v[0] & 0x0F)
    let size = v[1] == 0 ? 256 : Int(v[1])
    return address..<(address + size)
}

/// Where the NDEF TLV sits in a TLV area, once found: the address space with the control TLVs' areas reserved, the
/// lock areas, the NDEF TLV's position and its stored length.
struct NDEFTLVLayout: Hashable {
    var space: TLVAddressSpace
    /// Lock areas from Lock Control TLVs, in order.
    var lockAreas: [TLVLockArea]
    /// Byte address of the NDEF TLV's tag byte (`03`).
    var tlvAddress: Int
    /// Length of the stored message.
    var messageLength: Int
    /// Whether the stored length uses the 3-byte form (`FF hi lo`).
    var longLength: Bool

    /// The NDEF TLV length field for a message of `length` bytes (1 byte below 255, else `FF hi lo`).
    static func lengthField(_ length: Int) -> [UInt8] {
        length < 0xFF ? [UInt8(length)] : [0xFF, UInt8(length >> 8), UInt8(length & 0xFF)]
    }

    /// Addresses of the length field for the given form.
    func lengthAddresses(long: Bool) -> [Int] {
        space.addresses(from: space.next(tlvAddress), count: long ? 3 : 1)
    }

    /// Address of the first value byte for the given length form.
    func valueStart(long: Bool) -> Int { space.advance(tlvAddress, by: long ? 4 : 2) }

    /// Addresses of the stored message bytes.
    var messageAddresses: [Int] { space.addresses(from: valueStart(long: longLength), count: messageLength) }

    /// Usable bytes after the NDEF TLV's tag byte, up to the end of the data area.
    var bytesAfterTag: Int { space.usableCount(from: space.next(tlvAddress)) }

    /// The largest message that fits: 1-byte length up to 254 bytes, 3-byte length up to 0xFFFE.
    var capacity: Int {
        let n = bytesAfterTag
        return max(0, max(min(n - 1, 0xFE), min(n - 3, 0xFFFE)))
    }

    /// The final content of every byte a write of `message` changes: the length field, the message, and a Terminator
    /// TLV after it when that byte lies in a `unit`-byte write unit that is written anyway (the tear-safe writes of
    /// T1T and T2T commit through the first length byte, whose address is returned as `commit`).
    func plan(_ message: [UInt8], unit: Int) -> (bytes: [Int: UInt8], commit: Int) {
        let long = message.count >= 0xFF
        let lengthAddresses = self.lengthAddresses(long: long)
        var final: [Int: UInt8] = [:]
        for (a, b) in zip(lengthAddresses, Self.lengthField(message.count)) { final[a] = b }
        let messageAddresses = space.addresses(from: valueStart(long: long), count: message.count)
        for (a, b) in zip(messageAddresses, message) { final[a] = b }
        let terminator = space.next(messageAddresses.last!)
        if terminator < space.dataEnd, Set(final.keys.map { $0 / unit }).contains(terminator / unit) {
            final[terminator] = 0xFE
        }
        return (final, lengthAddresses[0])
    }
}

/// The TLV walk of NDEF detection (T1T 1.2 and T2T §7.4.1, the same TLV rules): NULL TLVs skipped, control TLVs
/// decoded and their areas reserved from there on, proprietary and unknown TLVs skipped by their length, up to the
/// NDEF TLV. Reads bytes through `byte`, which may fetch them from the tag.
enum TLVWalk {
    /// What the walk found: the NDEF TLV, or why there is none.
    enum Result {
        case ndef(NDEFTLVLayout)
        case notNDEF(String)
    }

    /// Walks from `start` (the first TLV byte after the CC) through `space`.
    static func findNDEF(
        in space: TLVAddressSpace, from start: Int, byte: (Int) throws(TagError) -> UInt8
    ) throws(TagError) -> Result {
        var space = space
        var locks: [TLVLockArea] = []
        var a = space.usable(from: start)
        while a < space.dataEnd {
            let t: UInt8
            let length: Int
            let long: Bool
            let l: Int
            switch try TLVHeader.read(at: a, end: space.dataEnd, next: space.next, byte: byte) {
            case .null:
                a = space.next(a)
                continue
            case .terminator:
                return .notNDEF("Terminator TLV at byte \(a) before any NDEF TLV")
            case .cut(let type, long: false):
                return .notNDEF("TLV \(Hex.encode([type])) at byte \(a) has no length")
            case .cut(let type, long: true):
                return .notNDEF("TLV \(Hex.encode([type])) at byte \(a) has a truncated 3-byte length")
            case .tlv(let type, let n, let isLong, let last):
                (t, length, long, l) = (type, n, isLong, last)
            }
            let value = space.next(l)
            let available = space.usableCount(from: value)
            if t == 0x03 {
                guard length <= available else {
                    throw TagError(
                        .tornStateDetected,
                        "NDEF TLV at byte \(a) declares \(length) bytes but only \(available) remain in the data area")
                }
                return .ndef(
                    NDEFTLVLayout(
                        space: space, lockAreas: locks, tlvAddress: a, messageLength: length, longLength: long))
            }
            guard length <= available else {
                return .notNDEF("TLV \(Hex.encode([t])) at byte \(a) runs past the end of the data area")
            }
            if t == 0x01 || t == 0x02 {
                // Lock Control / Memory Control: 3 value bytes, then the declared area is skipped from here on.
                guard length == 3 else {
                    return .notNDEF("control TLV \(Hex.encode([t])) at byte \(a) has length \(length), not 3")
                }
                let v = [try byte(value), try byte(space.next(value)), try byte(space.advance(value, by: 2))]
                a = space.advance(value, by: 3)
                if t == 0x01 {
                    let lock = TLVLockArea(lockControl: v)
                    locks.append(lock)
                    space.reserved.append(lock.range)
                } else {
                    space.reserved.append(tlvReservedRange(memoryControl: v))
                }
                a = space.usable(from: a)
            } else {
                // Proprietary (FD) or unknown TLV: skipped by its length.
                a = space.advance(value, by: length)
            }
        }
        return .notNDEF("no NDEF TLV in the data area")
    }
}
