/// A malformed DER encoding: what is wrong and the byte offset (from the start of the whole input) where it is.
package struct DERError: Error, Hashable, Sendable, CustomStringConvertible {
    package var reason: String
    package var offset: Int
    package init(_ reason: String, at offset: Int) {
        self.reason = reason
        self.offset = offset
    }
    package var description: String { "\(reason) at byte \(offset)" }
}

/// One DER element (ITU-T X.690 §8, restricted by §10): its tag, where it sits in the whole input, and its value.
/// Parsing is strict: definite lengths only, each length in its shortest form, high tag numbers in their shortest
/// form, the element inside its parent; typed reads check the content rules (minimal INTEGERs and OID
/// subidentifiers, BOOLEAN `00`/`FF`, BIT STRING unused bits, the time formats). SET OF order is not checked: real
/// eMRTD SOD and master list files violate it (their signatures are over the bytes as received).
package struct DERNode: Sendable, Hashable {
    /// The tag as its encoded bytes packed big-endian: `0x30` SEQUENCE, `0x5F1F`, `0x7F61`, `0xA0` for `[0]`.
    package let tag: UInt32
    /// The whole input this element was read from.
    package let input: [UInt8]
    /// Offset of the tag's first byte in ``input``.
    package let offset: Int
    /// Offsets of the value in ``input``.
    package let valueRange: Range<Int>

    /// The value (content octets).
    package var value: [UInt8] { Array(input[valueRange]) }
    /// The whole TLV as it was received (tag, length, value): what signatures and hashes cover.
    package var encoded: [UInt8] { Array(input[offset..<valueRange.upperBound]) }
    /// Whether the constructed bit (bit 6 of the first tag byte) is set.
    package var isConstructed: Bool { firstTagByte & 0x20 != 0 }
    /// The tag class: 0 universal, 1 application, 2 context-specific, 3 private.
    package var tagClass: Int { Int(firstTagByte >> 6) }
    private var firstTagByte: UInt8 { input[offset] }

    /// Reads one element that spans all of `bytes`.
    package static func parse(_ bytes: [UInt8]) throws(DERError) -> DERNode {
        let node = try read(bytes, at: 0, end: bytes.count)
        guard node.valueRange.upperBound == bytes.count else {
            throw DERError(
                "\(bytes.count - node.valueRange.upperBound) byte(s) follow the element", at: node.valueRange.upperBound
            )
        }
        return node
    }

    /// Reads one element that starts at `offset`; the rest of `bytes` may follow it.
    package static func parsePrefix(_ bytes: [UInt8], at offset: Int = 0) throws(DERError) -> DERNode {
        try read(bytes, at: offset, end: bytes.count)
    }

    /// The elements inside this constructed one, in order.
    package func children() throws(DERError) -> [DERNode] {
        guard isConstructed else { throw DERError("tag \(tagName) is primitive, not constructed", at: offset) }
        var out: [DERNode] = []
        var at = valueRange.lowerBound
        while at < valueRange.upperBound {
            let child = try Self.read(input, at: at, end: valueRange.upperBound)
            out.append(child)
            at = child.valueRange.upperBound
        }
        return out
    }

    /// A cursor over the children, for reading a SEQUENCE field by field.
    package func fields() throws(DERError) -> DERFields { DERFields(parent: self, items: try children()) }

    /// The first child, which must have `tag` (any tag when nil).
    package func first(_ tag: UInt32?, _ what: String) throws(DERError) -> DERNode {
        var f = try fields()
        return try f.next(tag, what)
    }

    /// Throws unless this element has tag `expected`.
    @discardableResult
    package func expect(_ expected: UInt32, _ what: String) throws(DERError) -> DERNode {
        guard tag == expected else {
            throw DERError("\(what) should have tag \(DERNode.name(of: expected)), not \(tagName)", at: offset)
        }
        return self
    }

    /// The tag in hex, `30` or `5F1F`.
    package var tagName: String { Self.name(of: tag) }

    package static func name(of tag: UInt32) -> String {
        var bytes: [UInt8] = []
        var t = tag
        repeat {
            bytes.insert(UInt8(t & 0xFF), at: 0)
            t >>= 8
        } while t != 0
        return Hex.encode(bytes)
    }

    private static func read(_ bytes: [UInt8], at start: Int, end: Int) throws(DERError) -> DERNode {
        var i = start
        guard i < end else { throw DERError("an element was expected, the data ended", at: i) }
        let first = bytes[i]
        var tag = UInt32(first)
        i += 1
        if first & 0x1F == 0x1F {
            var number = 0
            var count = 0
            while true {
                guard i < end else { throw DERError("the data ends inside the tag that starts", at: start) }
                let b = bytes[i]
                if count == 0, b == 0x80 {
                    throw DERError("a high tag number has a leading 80 byte (not minimal)", at: i)
                }
                count += 1
                guard count <= 3 else { throw DERError("a tag longer than 4 bytes is not supported", at: start) }
                tag = tag << 8 | UInt32(b)
                number = number << 7 | Int(b & 0x7F)
                i += 1
                if b & 0x80 == 0 { break }
            }
            // X.690 §8.1.2.4 wants numbers below 31 in one byte; ISO/IEC 7816-4 §5.2.2.1 interindustry data objects
            // (`5F01`, `5F1F` in the LDS) use the two-byte form for them: allowed outside the universal class.
            guard number >= 31 || first & 0xC0 != 0 else {
                throw DERError("tag number \(number) uses the high-tag form but fits in one byte", at: start)
            }
        }
        guard i < end else { throw DERError("the data ends before the length of tag \(name(of: tag))", at: i) }
        let lengthAt = i
        let l0 = bytes[i]
        i += 1
        var length: Int
        if l0 < 0x80 {
            length = Int(l0)
        } else if l0 == 0x80 {
            throw DERError("indefinite length (80) is not DER", at: lengthAt)
        } else {
            let n = Int(l0 & 0x7F)
            guard n <= 4 else { throw DERError("a \(n)-byte length is too long", at: lengthAt) }
            guard i + n <= end else { throw DERError("the data ends inside the length", at: lengthAt) }
            guard bytes[i] != 0 else {
                throw DERError("the length has a leading zero byte (not minimal)", at: lengthAt)
            }
            length = 0
            for k in 0..<n { length = length << 8 | Int(bytes[i + k]) }
            guard length >= 0x80 else {
                throw DERError("length \(length) uses the long form but fits in one byte (not minimal)", at: lengthAt)
            }
            i += n
        }
        guard length <= end - i else {
            throw DERError(
                "tag \(name(of: tag)) declares \(length) byte(s) of value, only \(end - i) remain", at: lengthAt)
        }
        return DERNode(tag: tag, input: bytes, offset: start, valueRange: i..<(i + length))
    }
}

/// A cursor over a constructed element's children: `next` takes the next one (checking its tag), `optional` takes it
/// only when its tag matches, `end` checks that nothing is left.
package struct DERFields: Sendable {
    package let parent: DERNode
    package private(set) var items: [DERNode]
    private var index = 0

    init(parent: DERNode, items: [DERNode]) {
        self.parent = parent
        self.items = items
    }

    /// Whether children remain.
    package var hasMore: Bool { index < items.count }

    /// The next child's tag, or nil at the end.
    package var peekTag: UInt32? { index < items.count ? items[index].tag : nil }

    /// The next child, which must have `tag` (any tag when nil).
    package mutating func next(_ tag: UInt32? = nil, _ what: String) throws(DERError) -> DERNode {
        guard index < items.count else {
            throw DERError("\(what) is missing: the element ends", at: parent.valueRange.upperBound)
        }
        let node = items[index]
        if let tag { try node.expect(tag, what) }
        index += 1
        return node
    }

    /// The next child if it has `tag`, else nil (nothing consumed).
    package mutating func optional(_ tag: UInt32) -> DERNode? {
        guard index < items.count, items[index].tag == tag else { return nil }
        index += 1
        return items[index - 1]
    }

    /// Throws when children remain.
    package func end(_ what: String) throws(DERError) {
        guard index == items.count else {
            throw DERError("\(what) has an unexpected element \(items[index].tagName)", at: items[index].offset)
        }
    }
}
