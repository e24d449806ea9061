/// One BER-TLV data object as PC/SC Part 3 v2.02 envelopes use them (`FF C2` manage session,
/// transparent exchange, switch protocol): a tag of one byte, or two when the first byte's low five bits are all
/// set (`5F 46`, `FF 6D`), a length of one byte or `81 xx` / `82 xx xx` (ISO/IEC 7816-4 §5.2.2.2), the value.
package struct DataObject: Sendable, Hashable {
    package var tag: UInt16
    package var value: [UInt8]

    package init(tag: UInt16, value: [UInt8]) {
        self.tag = tag
        self.value = value
    }

    /// A malformed list, with the byte offset where decoding stopped.
    package struct Error: Swift.Error, Hashable, Sendable, CustomStringConvertible {
        package var reason: String
        package var offset: Int
        package init(reason: String, offset: Int) {
            self.reason = reason
            self.offset = offset
        }
        package var description: String { "\(reason) at byte \(offset)" }
    }

    /// Every data object of `bytes`, in order.
    package static func decodeAll(_ bytes: [UInt8]) throws(DataObject.Error) -> [DataObject] {
        var out: [DataObject] = []
        var i = 0
        func need(_ n: Int, _ what: String) throws(DataObject.Error) {
            guard i + n <= bytes.count else { throw Error(reason: "ends inside \(what)", offset: i) }
        }
        while i < bytes.count {
            let start = i
            var tag = UInt16(bytes[i])
            i += 1
            if tag & 0x1F == 0x1F {
                try need(1, "the tag of the object at byte \(start)")
                tag = tag << 8 | UInt16(bytes[i])
                i += 1
            }
            try need(
                1, "the length of tag \(Hex.encode(tag > 0xFF ? [UInt8(tag >> 8), UInt8(tag & 0xFF)] : [UInt8(tag)]))")
            var length = Int(bytes[i])
            i += 1
            if length == 0x81 || length == 0x82 {
                let n = length - 0x80
                try need(n, "a long length")
                length = bytes[i..<(i + n)].reduce(0) { $0 << 8 | Int($1) }
                i += n
            } else if length > 0x80 {
                throw Error(reason: "length form \(Hex.encode([UInt8(length)])) is not 81 or 82", offset: i - 1)
            }
            try need(length, "the \(length)-byte value of the object at byte \(start)")
            out.append(DataObject(tag: tag, value: Array(bytes[i..<(i + length)])))
            i += length
        }
        return out
    }

    /// The encoding: tag, length (short form below 128, else `81`/`82`), value.
    package var bytes: [UInt8] {
        let t: [UInt8] = tag > 0xFF ? [UInt8(tag >> 8), UInt8(tag & 0xFF)] : [UInt8(tag)]
        let n = value.count
        let l: [UInt8] = n < 0x80 ? [UInt8(n)] : n <= 0xFF ? [0x81, UInt8(n)] : [0x82, UInt8(n >> 8), UInt8(n & 0xFF)]
        return t + l + value
    }
}
