/// The record-level encoder: NFC Forum NDEF 1.0 §3.2 (short records when the payload fits in one byte, IL only with
/// an ID) and §2.3.3 (chunking: first chunk keeps TNF/type/ID, later chunks are TNF 6 without type or ID).
extension NDEFMessage {
    /// Bytes of the encoded message. `chunkSize` is the most payload bytes per record chunk: a record with a longer
    /// payload is split into chunks of that size; 0 (the default) never chunks.
    package func encodedLength(chunkSize: Int = 0) -> Int {
        if records.isEmpty { return 3 }
        // Borrow the records in place: copying one would retain and release its three slices.
        return records.withUnsafeBufferPointer { buffer in
            var n = 0
            for i in buffer.indices {
                n += NDEFRecord.encodedLength(
                    typeCount: buffer[i].typeRange.count, idCount: buffer[i].idRange.count,
                    payloadCount: buffer[i].payloadRange.count, chunkSize: chunkSize)
            }
            return n
        }
    }

    /// Convenience for ``encodedLength(chunkSize:)`` without chunking.
    package var encodedLength: Int { encodedLength(chunkSize: 0) }

    /// The message on the wire; see ``encodedLength(chunkSize:)`` for `chunkSize`.
    package func encoded(chunkSize: Int = 0) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(encodedLength(chunkSize: chunkSize))
        encode(into: &out, chunkSize: chunkSize)
        return out
    }

    /// Appends the encoded message to `out`.
    package func encode(into out: inout [UInt8], chunkSize: Int = 0) {
        if records.isEmpty {
            out.append(contentsOf: [0xD0, 0x00, 0x00] as [UInt8])
            return
        }
        records.withUnsafeBufferPointer { buffer in
            let last = buffer.count - 1
            for i in buffer.indices {
                buffer[i].encode(into: &out, begin: i == 0, end: i == last, chunkSize: chunkSize)
            }
        }
    }
}

extension NDEFRecord {
    /// Bytes a record with fields of these sizes takes on the wire, chunked at `chunkSize` (0: never).
    package static func encodedLength(typeCount: Int, idCount: Int, payloadCount: Int, chunkSize: Int = 0) -> Int {
        func header(_ payload: Int, _ type: Int, _ id: Int) -> Int {
            2 + (payload < 256 ? 1 : 4) + (id > 0 ? 1 : 0) + type + id + payload
        }
        guard chunkSize > 0, payloadCount > chunkSize else { return header(payloadCount, typeCount, idCount) }
        let full = payloadCount / chunkSize
        let rest = payloadCount % chunkSize
        var n = header(chunkSize, typeCount, idCount) + (full - 1) * header(chunkSize, 0, 0)
        if rest > 0 { n += header(rest, 0, 0) }
        return n
    }

    /// Appends this record with the given MB/ME flags, chunked at `chunkSize` (0: never); for encoders that chunk
    /// each record differently (Core NFC's per-payload chunk size).
    package func encode(into out: inout [UInt8], begin: Bool, end: Bool, chunkSize: Int = 0) {
        storage.withUnsafeBufferPointer { buffer in
            // Ranges are indices of `storage`; the buffer counts from its start.
            let base = storage.startIndex
            func field(_ r: Range<Int>) -> UnsafeBufferPointer<UInt8> {
                UnsafeBufferPointer(rebasing: buffer[(r.lowerBound - base)..<(r.upperBound - base)])
            }
            let type = field(typeRange)
            let id = field(idRange)
            let payload = field(payloadRange)
            if chunkSize <= 0 || payload.count <= chunkSize {
                Self.writeRecord(
                    into: &out, flags: (begin ? 0x80 : 0) | (end ? 0x40 : 0), tnf: tnf.rawValue, type: type, id: id,
                    payload: payload)
                return
            }
            var p = 0
            var firstChunk = true
            let empty = UnsafeBufferPointer(rebasing: type[0..<0])
            while p < payload.count {
                let q = min(p + chunkSize, payload.count)
                let lastChunk = q == payload.count
                var flags: UInt8 = lastChunk ? 0 : 0x20
                if firstChunk && begin { flags |= 0x80 }
                if lastChunk && end { flags |= 0x40 }
                Self.writeRecord(
                    into: &out, flags: flags,
                    tnf: firstChunk ? tnf.rawValue : NDEFRecord.TypeNameFormat.unchanged.rawValue,
                    type: firstChunk ? type : empty, id: firstChunk ? id : empty,
                    payload: UnsafeBufferPointer(rebasing: payload[p..<q]))
                firstChunk = false
                p = q
            }
        }
    }

    @inline(__always)
    static func writeRecord(
        into out: inout [UInt8], flags: UInt8, tnf: UInt8, type: UnsafeBufferPointer<UInt8>,
        id: UnsafeBufferPointer<UInt8>, payload: UnsafeBufferPointer<UInt8>
    ) {
        writeHeader(
            into: &out, flags: flags, tnf: tnf, typeCount: type.count, idCount: id.count, payloadCount: payload.count)
        out.append(contentsOf: type)
        out.append(contentsOf: id)
        out.append(contentsOf: payload)
    }
}
