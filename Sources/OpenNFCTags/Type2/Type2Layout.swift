/// What NDEF detection learnt about a Type 2 tag: the CC, the usable data area and where the NDEF TLV sits
/// (T2T §7.4 "NDEF detection procedure").
struct Type2Layout: Hashable {
    var cc: Type2CapabilityContainer
    var space: Type2AddressSpace
    /// Lock areas from Lock Control TLVs, in order.
    var lockAreas: [Type2LockArea]
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

    /// The largest message that fits: 1-byte length up to 254 bytes, 3-byte length up to 0xFFFE (T2T §4.4).
    var capacity: Int {
        let n = bytesAfterTag
        return max(0, max(min(n - 1, 0xFE), min(n - 3, 0xFFFE)))
    }

    var status: NDEFStatus { cc.writeAccess == 0 ? .readWrite : .readOnly }

    var detection: NDEFDetection {
        NDEFDetection(status: status, capacity: capacity, messageLength: messageLength)
    }
}
