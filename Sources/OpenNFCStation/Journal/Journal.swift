/// The station's on-disk queue of events not yet acknowledged by the broker: append-only, one `fsync` per event,
/// bounded in size, compacted when the broker has acknowledged, and recovered up to the last whole record after a
/// crash or a torn write (docs/STATIONS.md, "The journal").
///
/// ## Format (all integers little-endian)
///
/// | Bytes | Content |
/// |---|---|
/// | 0…7 | magic `ONFCJRN1` |
/// | then, per record | `u32` body length · `u32` CRC-32C of the body · body |
///
/// | Body | Kind | Meaning |
/// |---|---|---|
/// | `01` · `u64` seq · `u16` topic length · topic · payload | event | an event, published on `topic` |
/// | `02` · `u64` seq | acknowledged | every event up to `seq` has its PUBACK |
/// | `03` · `u64` seq | base | written first by compaction: events before `seq` were all acknowledged |
///
/// ## Rules
///
/// 1. An event is appended and synced before ``append(sequence:topic:payload:)`` returns (so before it is published).
/// 2. Acknowledgement records are not synced: one lost in a crash only makes the event be published again, and
///    consumers drop duplicates by event id.
/// 3. Records leave the file only by compaction, which rewrites the unacknowledged ones atomically
///    (``JournalFile/replace(with:)``), once the acknowledged part reaches 256 KiB and outweighs the unacknowledged
///    part (each byte is copied a bounded number of times), or 64 KiB with everything acknowledged.
/// 4. On opening, the records are read until the first one that is incomplete or fails its CRC; the file is cut
///    there and ``warnings`` says where and how much was dropped.
/// 5. Sequence numbers only grow, across restarts and compactions (the base record keeps the next one).
package final class Journal {
    /// One unacknowledged event.
    package struct Record: Sendable, Hashable {
        package var sequence: UInt64
        package var topic: String
        package var payload: [UInt8]
    }

    package static let magic: [UInt8] = Array("ONFCJRN1".utf8)
    /// The largest record body accepted (an event with a large NDEF message stays far below).
    package static let maxRecordBytes = 1 << 20
    static let eventKind: UInt8 = 1
    static let ackKind: UInt8 = 2
    static let baseKind: UInt8 = 3

    package let path: String
    /// The most bytes the file may hold; an append that would pass it (after compacting) fails with ``JournalErrorCode/full``.
    package let capacity: Int
    /// What recovery found (a torn tail cut off), one sentence each, for the log.
    package private(set) var warnings: [String] = []
    /// The events not yet acknowledged, oldest first.
    package private(set) var pending: [Record] = []
    /// The sequence number the next event must carry.
    package private(set) var nextSequence: UInt64 = 1
    /// The file's size in bytes.
    package private(set) var size = 0
    /// Bytes of the file that compaction would drop (acknowledged events and acknowledgement records).
    private var garbage = 0
    private var pendingBytes: [Int] = []
    private let file: JournalFile

    /// Opens (creating) the journal at `path`, recovering a torn tail.
    package init(path: String, capacity: Int = 64 << 20) throws(JournalError) {
        self.path = path
        self.capacity = max(capacity, 4096)
        file = try JournalFile(path: path)
        try recover()
    }

    /// The unacknowledged events' bytes.
    package var pendingSize: Int { pendingBytes.reduce(0, +) }

    private func recover() throws(JournalError) {
        let bytes = try file.readAll()
        if bytes.isEmpty || (bytes.count < Self.magic.count && Array(Self.magic.prefix(bytes.count)) == bytes) {
            if !bytes.isEmpty {
                warnings.append(
                    "journal '\(path)': torn header (\(bytes.count) of 8 bytes); started a new journal")
            }
            try file.replace(with: Self.magic)
            size = Self.magic.count
            return
        }
        guard bytes.count >= Self.magic.count, Array(bytes.prefix(Self.magic.count)) == Self.magic else {
            throw JournalError(
                .notAJournal,
                "'\(path)' is not an opennfc watch journal (its first bytes are not ONFCJRN1); give another --journal "
                    + "path or move the file away")
        }
        var offset = Self.magic.count
        var acked: UInt64 = 0
        var base: UInt64 = 1
        var events: [(Record, Int)] = []
        var ackBytes = 0
        while offset < bytes.count {
            guard let (body, end) = Self.record(in: bytes, at: offset) else {
                let dropped = bytes.count - offset
                warnings.append(
                    "journal '\(path)': torn or corrupt record at byte offset \(offset) (\(dropped) bytes dropped); "
                        + "recovered \(events.count) events up to the last whole record")
                try file.truncate(to: offset)
                break
            }
            let kind = body[0]
            let seq = Self.u64(body, 1)
            switch kind {
            case Self.eventKind:
                let topicLength = Int(body[9]) | Int(body[10]) << 8
                let topic = String(decoding: body[11..<(11 + topicLength)], as: UTF8.self)
                events.append(
                    (Record(sequence: seq, topic: topic, payload: Array(body[(11 + topicLength)...])), end - offset))
            case Self.ackKind:
                acked = max(acked, seq)
                ackBytes += end - offset
            default:
                base = max(base, seq)
                ackBytes += end - offset
            }
            offset = end
        }
        size = offset
        nextSequence = max(base, (events.last?.0.sequence ?? 0) + 1, acked + 1)
        for (r, n) in events {
            if r.sequence <= acked || r.sequence < base {
                garbage += n
            } else {
                pending.append(r)
                pendingBytes.append(n)
            }
        }
        garbage += ackBytes
        if garbage > 0 { try compact() }
    }

    /// The body of the record at `offset` and where the next one starts; nil when it is incomplete or corrupt.
    static func record(in bytes: [UInt8], at offset: Int) -> (ArraySlice<UInt8>, Int)? {
        guard bytes.count - offset >= 8 else { return nil }
        let length = Int(u32(bytes, offset))
        let crc = u32(bytes, offset + 4)
        guard length >= 9, length <= maxRecordBytes, bytes.count - offset - 8 >= length else { return nil }
        let body = bytes[(offset + 8)..<(offset + 8 + length)]
        guard CRC32C.checksum(body) == crc else { return nil }
        let kind = body[body.startIndex]
        switch kind {
        case eventKind:
            guard length >= 11 else { return nil }
            let topicLength = Int(body[body.startIndex + 9]) | Int(body[body.startIndex + 10]) << 8
            guard length >= 11 + topicLength else { return nil }
        case ackKind, baseKind:
            guard length == 9 else { return nil }
        default:
            return nil
        }
        return (ArraySlice(Array(body)), offset + 8 + length)
    }

    static func u32(_ b: [UInt8], _ i: Int) -> UInt32 {
        (0..<4).reduce(UInt32(0)) { $0 | UInt32(b[i + $1]) << (8 * $1) }
    }

    static func u64(_ b: ArraySlice<UInt8>, _ i: Int) -> UInt64 {
        (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[b.startIndex + i + $1]) << (8 * $1) }
    }

    static func frame(_ body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 8)
        let length = UInt32(body.count)
        let crc = CRC32C.checksum(body)
        for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: length >> (8 * i))) }
        for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: crc >> (8 * i))) }
        return out + body
    }

    static func body(kind: UInt8, sequence: UInt64, topic: String = "", payload: [UInt8] = []) -> [UInt8] {
        var b: [UInt8] = [kind]
        for i in 0..<8 { b.append(UInt8(truncatingIfNeeded: sequence >> (8 * i))) }
        if kind == eventKind {
            let t = Array(topic.utf8)
            b.append(UInt8(t.count & 0xFF))
            b.append(UInt8(t.count >> 8))
            b += t
            b += payload
        }
        return b
    }

    /// Appends an event and syncs it to disk. `sequence` must be ``nextSequence``.
    package func append(sequence: UInt64, topic: String, payload: [UInt8]) throws(JournalError) {
        precondition(sequence == nextSequence, "journal sequence \(sequence) appended where \(nextSequence) is next")
        guard topic.utf8.count <= 0xFFFF else {
            throw JournalError(.recordTooLarge, "the topic '\(topic.prefix(40))…' is longer than 65535 bytes")
        }
        let record = Self.frame(Self.body(kind: Self.eventKind, sequence: sequence, topic: topic, payload: payload))
        guard record.count - 8 <= Self.maxRecordBytes else {
            throw JournalError(
                .recordTooLarge, "an event of \(record.count) bytes is larger than a journal record may be (1 MiB)")
        }
        if size + record.count > capacity, garbage > 0 { try compact() }
        guard size + record.count <= capacity else {
            // The sequence number is spent all the same: the event was seen (and printed) under it.
            nextSequence = sequence + 1
            throw JournalError(
                .full,
                "the journal '\(path)' is full: \(pending.count) events (\(pendingSize) bytes) wait for the broker's "
                    + "acknowledgement and the journal may hold \(capacity) bytes; the event with sequence \(sequence) "
                    + "was not recorded. Bring the broker back, or raise --journal-size")
        }
        try file.append(record, sync: true)
        size += record.count
        pending.append(Record(sequence: sequence, topic: topic, payload: payload))
        pendingBytes.append(record.count)
        nextSequence = sequence + 1
    }

    /// Marks every event up to `sequence` as acknowledged; compacts when the acknowledged part has grown large.
    package func acknowledge(through sequence: UInt64) throws(JournalError) {
        var n = 0
        while n < pending.count, pending[n].sequence <= sequence { n += 1 }
        guard n > 0 else { return }
        garbage += pendingBytes[0..<n].reduce(0, +)
        pending.removeFirst(n)
        pendingBytes.removeFirst(n)
        let record = Self.frame(Self.body(kind: Self.ackKind, sequence: sequence))
        try file.append(record, sync: false)
        size += record.count
        garbage += record.count
        // Amortised: the rewrite copies the pending bytes only once at least as many dead bytes were freed.
        if (garbage >= 256 << 10 && garbage >= pendingSize) || (pending.isEmpty && garbage >= 64 << 10) {
            try compact()
        }
    }

    /// Rewrites the file with only the unacknowledged events (atomically).
    package func compact() throws(JournalError) {
        var bytes = Self.magic
        bytes += Self.frame(Self.body(kind: Self.baseKind, sequence: pending.first?.sequence ?? nextSequence))
        for r in pending {
            bytes += Self.frame(
                Self.body(kind: Self.eventKind, sequence: r.sequence, topic: r.topic, payload: r.payload))
        }
        try file.replace(with: bytes)
        size = bytes.count
        garbage = 0
    }

    /// Syncs what is not yet on disk (acknowledgements) and compacts when everything was acknowledged.
    package func close() throws(JournalError) {
        if pending.isEmpty && garbage > 0 { try compact() } else { try file.sync() }
    }
}
