/// The record-level decoder: NFC Forum NDEF 1.0 §3.2 (record layout, TNF rules), §3.3 (MB/ME), §2.3.3 (chunking).
extension NDEFMessage {
    /// Header flag bits (NDEF 1.0 §3.2.1–§3.2.5).
    @usableFromInline
    enum Flag {
        @usableFromInline static let mb: UInt8 = 0x80
        @usableFromInline static let me: UInt8 = 0x40
        @usableFromInline static let cf: UInt8 = 0x20
        @usableFromInline static let sr: UInt8 = 0x10
        @usableFromInline static let il: UInt8 = 0x08
        @usableFromInline static let tnfMask: UInt8 = 0x07
    }

    /// A chunked record being reassembled into one buffer: type, ID, then the payload chunks.
    private struct PendingChunk {
        var tnf: NDEFRecord.TypeNameFormat
        var typeCount: Int
        var idCount: Int
        var bytes: [UInt8]
        var payloadOffset: Int

        func record() -> NDEFRecord {
            let t = typeCount
            let i = idCount
            return NDEFRecord(
                tnf: tnf, storage: bytes[...], typeRange: 0..<t, idRange: t..<t + i, payloadRange: t + i..<bytes.count,
                payloadOffset: payloadOffset)
        }
    }

    /// The decoder proper. `options.depth` is the nesting level (0 for the outermost message); `baseOffset` is the offset of
    /// `bytes.startIndex` in the outermost message, so every error and repair counts from there.
    init(
        decoding bytes: ArraySlice<UInt8>, options: NDEFDecodingOptions, baseOffset: Int, repairs: inout RepairLog
    ) throws(NDEFError) {
        let start = bytes.startIndex
        let end = bytes.endIndex
        @inline(__always) func off(_ i: Int) -> Int { baseOffset + (i - start) }
        let lenient = options.isLenient

        guard options.depth <= options.maxNestingDepth else { throw NDEFError(.nestingTooDeep, at: baseOffset) }
        guard start < end else { throw NDEFError(.emptyMessage, at: baseOffset) }
        guard bytes.count <= options.maxMessageSize else {
            throw NDEFError(.messageTooLarge, at: baseOffset + options.maxMessageSize)
        }

        if !lenient, let fast = Self.strictFastPath(bytes, baseOffset: baseOffset) {
            self.records = fast
            return
        }

        var records: [NDEFRecord] = []
        records.reserveCapacity(2)
        var chunk: PendingChunk? = nil
        var i = start
        var first = true
        var sawEnd = false
        var lastHeader = start
        var droppedTail = false

        while i < end {
            let recordStart = i
            lastHeader = i
            let flags = bytes[i]
            // Fixed part of the header: flags, TYPE_LENGTH, PAYLOAD_LENGTH (1 or 4), ID_LENGTH if IL.
            let short = flags & Flag.sr != 0
            let hasID = flags & Flag.il != 0
            let headerLength = 2 + (short ? 1 : 4) + (hasID ? 1 : 0)
            // After a complete record, lenient mode drops an incomplete record at the end (padding, torn writes).
            let canDropTail = lenient && !records.isEmpty && chunk == nil
            guard end - i >= headerLength else {
                guard canDropTail else { throw NDEFError(.truncatedHeader, at: off(i)) }
                repairs.add(
                    .truncatedHeader, at: off(i), "ignored \(end - i) byte(s) of an incomplete record at the end")
                droppedTail = true
                break
            }
            let typeLength = Int(bytes[i + 1])
            var payloadLength: Int
            let payloadLengthAt = i + 2
            if short {
                payloadLength = Int(bytes[i + 2])
            } else {
                payloadLength =
                    Int(bytes[i + 2]) << 24 | Int(bytes[i + 3]) << 16 | Int(bytes[i + 4]) << 8 | Int(bytes[i + 5])
            }
            let idLength = hasID ? Int(bytes[i + headerLength - 1]) : 0
            i += headerLength

            guard end - i >= typeLength else {
                guard canDropTail else { throw NDEFError(.typeBeyondEnd, at: off(recordStart + 1)) }
                repairs.add(
                    .typeBeyondEnd, at: off(recordStart + 1),
                    "ignored \(end - recordStart) byte(s) of an incomplete record at the end")
                droppedTail = true
                break
            }
            var typeRange = i..<i + typeLength
            i += typeLength
            guard end - i >= idLength else {
                guard canDropTail else { throw NDEFError(.idBeyondEnd, at: off(recordStart + headerLength - 1)) }
                repairs.add(
                    .idBeyondEnd, at: off(recordStart + headerLength - 1),
                    "ignored \(end - recordStart) byte(s) of an incomplete record at the end")
                droppedTail = true
                break
            }
            var idRange = i..<i + idLength
            i += idLength
            var me = flags & Flag.me != 0
            var cf = flags & Flag.cf != 0
            if end - i < payloadLength {
                guard lenient else { throw NDEFError(.payloadBeyondEnd, at: off(payloadLengthAt)) }
                repairs.add(
                    .payloadBeyondEnd, at: off(payloadLengthAt),
                    "truncated the payload to the \(end - i) byte(s) present and ended the message")
                payloadLength = end - i
                me = true
                cf = false
            }
            let payloadStart = i
            let payloadRange = i..<i + payloadLength
            i += payloadLength

            // MB on the first record only (§3.3).
            let mb = flags & Flag.mb != 0
            if first && !mb {
                guard lenient else { throw NDEFError(.missingMessageBegin, at: off(recordStart)) }
                repairs.add(.missingMessageBegin, at: off(recordStart), "treated the first record as the message begin")
            } else if !first && mb {
                guard lenient else { throw NDEFError(.unexpectedMessageBegin, at: off(recordStart)) }
                repairs.add(.unexpectedMessageBegin, at: off(recordStart), "ignored the MB flag")
            }
            first = false

            var tnf = NDEFRecord.TypeNameFormat(rawValue: flags & Flag.tnfMask)!

            if var pending = chunk {
                // A middle or last chunk: TNF 6, no type, no ID (§2.3.3).
                if tnf != .unchanged {
                    guard lenient else { throw NDEFError(.chunkWithoutUnchanged, at: off(recordStart)) }
                    repairs.add(.chunkWithoutUnchanged, at: off(recordStart), "read the record as a continuation chunk")
                }
                if typeLength != 0 {
                    guard lenient else { throw NDEFError(.unexpectedType, at: off(recordStart + 1)) }
                    repairs.add(.unexpectedType, at: off(recordStart + 1), "ignored the type of a continuation chunk")
                }
                if hasID {
                    guard lenient else { throw NDEFError(.idInChunk, at: off(recordStart)) }
                    repairs.add(.idInChunk, at: off(recordStart), "ignored the ID of a continuation chunk")
                }
                if cf && me {
                    guard lenient else { throw NDEFError(.messageEndInChunk, at: off(recordStart)) }
                    repairs.add(.messageEndInChunk, at: off(recordStart), "ended the chunked record here")
                    cf = false
                }
                pending.bytes.append(contentsOf: bytes[payloadRange])
                if cf {
                    chunk = pending
                } else {
                    records.append(pending.record())
                    chunk = nil
                }
            } else {
                // A whole record or the first chunk: the TNF rules of §3.2.6.
                switch tnf {
                case .empty:
                    if typeLength != 0 || idLength != 0 || payloadLength != 0 {
                        guard lenient else { throw NDEFError(.nonEmptyEmptyRecord, at: off(recordStart)) }
                        repairs.add(.nonEmptyEmptyRecord, at: off(recordStart), "dropped its type, ID and payload")
                        typeRange = typeRange.lowerBound..<typeRange.lowerBound
                        idRange = idRange.lowerBound..<idRange.lowerBound
                    }
                    if cf {
                        guard lenient else { throw NDEFError(.chunkedEmptyRecord, at: off(recordStart)) }
                        repairs.add(.chunkedEmptyRecord, at: off(recordStart), "ignored the CF flag")
                        cf = false
                    }
                case .wellKnown, .media, .absoluteURI, .external:
                    if typeLength == 0 {
                        guard lenient else { throw NDEFError(.missingType, at: off(recordStart + 1)) }
                        repairs.add(.missingType, at: off(recordStart + 1), "read the record as TNF 5 (unknown)")
                        tnf = .unknown
                    }
                case .unknown:
                    if typeLength != 0 {
                        guard lenient else { throw NDEFError(.unexpectedType, at: off(recordStart + 1)) }
                        repairs.add(.unexpectedType, at: off(recordStart + 1), "dropped the type")
                        typeRange = typeRange.lowerBound..<typeRange.lowerBound
                    }
                case .unchanged:
                    guard lenient else { throw NDEFError(.unchangedOutsideChunk, at: off(recordStart)) }
                    repairs.add(.unchangedOutsideChunk, at: off(recordStart), "read the record as TNF 5 (unknown)")
                    tnf = .unknown
                    typeRange = typeRange.lowerBound..<typeRange.lowerBound
                case .reserved:
                    guard lenient else { throw NDEFError(.reservedTNF, at: off(recordStart)) }
                    repairs.add(.reservedTNF, at: off(recordStart), "read the record as TNF 5 (unknown)")
                    tnf = .unknown
                    typeRange = typeRange.lowerBound..<typeRange.lowerBound
                }
                if cf && me {
                    guard lenient else { throw NDEFError(.messageEndInChunk, at: off(recordStart)) }
                    repairs.add(.messageEndInChunk, at: off(recordStart), "read the chunk as a whole record")
                    cf = false
                }
                if tnf == .empty {
                    records.append(.empty)
                } else if cf {
                    var p: [UInt8] = []
                    p.reserveCapacity(typeRange.count + idRange.count + payloadLength * 2)
                    p.append(contentsOf: bytes[typeRange])
                    p.append(contentsOf: bytes[idRange])
                    p.append(contentsOf: bytes[payloadRange])
                    chunk = PendingChunk(
                        tnf: tnf, typeCount: typeRange.count, idCount: idRange.count, bytes: p,
                        payloadOffset: off(payloadStart))
                } else {
                    records.append(
                        NDEFRecord(
                            tnf: tnf, storage: bytes, typeRange: typeRange, idRange: idRange,
                            payloadRange: payloadRange,
                            payloadOffset: off(payloadStart)))
                }
            }

            if me {
                sawEnd = true
                break
            }
        }

        if droppedTail {
            // Already reported; the records before the incomplete one form the message.
        } else if !sawEnd {
            guard lenient else { throw NDEFError(.missingMessageEnd, at: off(lastHeader)) }
            repairs.add(.missingMessageEnd, at: off(lastHeader), "treated the last record as the message end")
            if let pending = chunk { records.append(pending.record()) }
        } else if i < end {
            guard lenient else { throw NDEFError(.trailingBytes, at: off(i)) }
            repairs.add(.trailingBytes, at: off(i), "ignored \(end - i) byte(s) after the message")
        }
        self.records = records
    }
}

extension NDEFMessage {
    /// Strict decoding of the common case in one tight pass over the bytes: whole records (no CF), MB on the first
    /// record only, ME on the last with nothing after it, every length inside the data, and the TNF rules of
    /// NDEF 1.0 §3.2.6 (TNF 0 empty; 1–4 with a type; 5 without; 6 and 7 never). It accepts exactly the messages the
    /// general decoder accepts without chunks and builds the same records; at the first irregularity it returns nil
    /// and the general decoder runs from the start, so errors and their offsets come from one place.
    @inline(__always)
    static func strictFastPath(_ bytes: ArraySlice<UInt8>, baseOffset: Int) -> [NDEFRecord]? {
        bytes.withUnsafeBufferPointer { buffer -> [NDEFRecord]? in
            guard let count = strictRecordCount(buffer) else { return nil }
            // Pass 2: the records, into an array of the right size (one allocation).
            var records: [NDEFRecord] = []
            records.reserveCapacity(count)
            var i = 0
            for _ in 0..<count {
                records.append(checkedRecord(at: &i, buffer, in: bytes, baseOffset: baseOffset))
            }
            return records
        }
    }

    /// Pass 1 of the strict fast path: checks every rule of an unchunked message (see ``strictFastPath(_:baseOffset:)``)
    /// and counts its records; nil at the first irregularity.
    @inline(__always)
    static func strictRecordCount(_ buffer: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = buffer.count
        var count = 0
        var i = 0
        while i < n {
            let flags = buffer[i]
            guard flags & Flag.cf == 0, (flags & Flag.mb != 0) == (i == 0) else { return nil }
            let headerLength = (flags & Flag.sr != 0 ? 3 : 6) + (flags & Flag.il != 0 ? 1 : 0)
            guard n - i >= headerLength else { return nil }
            let typeLength = Int(buffer[i + 1])
            let payloadLength = Self.payloadLength(buffer, at: i, flags: flags)
            let idLength = flags & Flag.il != 0 ? Int(buffer[i + headerLength - 1]) : 0
            let recordEnd = i + headerLength + typeLength + idLength + payloadLength
            guard recordEnd <= n else { return nil }
            switch flags & Flag.tnfMask {
            case 0: guard typeLength == 0, idLength == 0, payloadLength == 0 else { return nil }
            case 1, 2, 3, 4: guard typeLength > 0 else { return nil }
            case 5: guard typeLength == 0 else { return nil }
            default: return nil
            }
            count += 1
            i = recordEnd
            if flags & Flag.me != 0 { return i == n ? count : nil }
        }
        return nil
    }

    /// Pass 2 of the strict fast path: the record whose header is at `i` (relative to `buffer`, which is `bytes`'
    /// storage) of a message ``strictRecordCount(_:)`` accepted; advances `i` past it. The record's slices share
    /// `bytes`.
    @inline(__always)
    static func checkedRecord(
        at i: inout Int, _ buffer: UnsafeBufferPointer<UInt8>, in bytes: ArraySlice<UInt8>, baseOffset: Int
    ) -> NDEFRecord {
        let base = bytes.startIndex
        let flags = buffer[i]
        let headerLength = (flags & Flag.sr != 0 ? 3 : 6) + (flags & Flag.il != 0 ? 1 : 0)
        let typeStart = i + headerLength
        let idStart = typeStart + Int(buffer[i + 1])
        let payloadStart = idStart + (flags & Flag.il != 0 ? Int(buffer[i + headerLength - 1]) : 0)
        let recordEnd = payloadStart + Self.payloadLength(buffer, at: i, flags: flags)
        let raw = flags & Flag.tnfMask
        i = recordEnd
        return raw == 0
            ? .empty
            : NDEFRecord(
                tnf: NDEFRecord.TypeNameFormat(rawValue: raw)!, storage: bytes,
                typeRange: base + typeStart..<base + idStart, idRange: base + idStart..<base + payloadStart,
                payloadRange: base + payloadStart..<base + recordEnd, payloadOffset: baseOffset + payloadStart)
    }

    /// PAYLOAD_LENGTH of the record header at `i`: one byte (SR) or four, big-endian (NDEF 1.0 §3.2.4).
    @inlinable
    static func payloadLength(_ buffer: UnsafeBufferPointer<UInt8>, at i: Int, flags: UInt8) -> Int {
        flags & Flag.sr != 0
            ? Int(buffer[i + 2])
            : Int(buffer[i + 2]) << 24 | Int(buffer[i + 3]) << 16 | Int(buffer[i + 4]) << 8 | Int(buffer[i + 5])
    }

    /// Decodes a message nested in a record payload (Smart Poster, Handover) one level deeper, with offsets counted
    /// from the outermost message.
    init(
        nestedIn payload: ArraySlice<UInt8>, at baseOffset: Int, options: NDEFDecodingOptions,
        repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        var nested = options
        nested.depth += 1
        var log = RepairLog(recording: true)
        try self.init(decoding: payload, options: nested, baseOffset: baseOffset, repairs: &log)
        repairs.append(contentsOf: log.repairs)
    }
}
