/// Where a ``ByteStream`` gets its bytes: a socket, or bytes in memory for tests.
package protocol ByteSource: AnyObject {
    /// At most `max` bytes; empty at end of stream.
    func read(max: Int) throws(SocketError) -> [UInt8]
}

extension TCPSocket: ByteSource {}

/// Bytes in memory, handed out in chunks of at most `chunk` bytes (tests split messages at every boundary).
package final class MemorySource: ByteSource {
    private var bytes: [UInt8]
    private var offset = 0
    private let chunk: Int

    package init(_ bytes: [UInt8], chunk: Int = .max) {
        self.bytes = bytes
        self.chunk = max(1, chunk)
    }

    package func read(max: Int) throws(SocketError) -> [UInt8] {
        let n = min(max, chunk, bytes.count - offset)
        defer { offset += n }
        return Array(bytes[offset..<offset + n])
    }
}

/// A buffered reader over a ``ByteSource``: whole HTTP heads, exact byte counts.
package final class ByteStream {
    /// Why reading stopped before the bytes asked for were there.
    package enum Failure: Error, Equatable {
        /// The stream ended; `afterBytes` is how many bytes of the unit being read had arrived.
        case ended(afterBytes: Int)
        /// The limit was reached without the terminator.
        case tooLong(limit: Int)
        /// The source failed (timeout, reset).
        case source(SocketError)
    }

    let source: any ByteSource
    private var buffer: [UInt8] = []
    private var start = 0

    package init(_ source: any ByteSource) { self.source = source }

    /// Bytes already received and not yet consumed.
    package var buffered: Int { buffer.count - start }

    private func fill() throws(Failure) -> Bool {
        let more: [UInt8]
        do {
            more = try source.read(max: 16_384)
        } catch {
            throw .source(error)
        }
        if more.isEmpty { return false }
        buffer += more
        return true
    }

    /// Reads up to and including the first CRLF CRLF (RFC 9112 §2.1: the end of the header section), at most
    /// `limit` bytes. Empty lines before the request line are skipped (RFC 9112 §2.2 allows it).
    package func readHead(limit: Int) throws(Failure) -> [UInt8] {
        compact()
        var scanned = start
        while true {
            while start < buffer.count - 1 && buffer[start] == 0x0D && buffer[start + 1] == 0x0A {
                start += 2
                scanned = start
            }
            if let end = findTerminator(from: max(start, scanned - 3)) {
                if end - start > limit { throw .tooLong(limit: limit) }
                let head = Array(buffer[start..<end])
                start = end
                return head
            }
            scanned = buffer.count
            if buffer.count - start > limit { throw .tooLong(limit: limit) }
            guard try fill() else { throw .ended(afterBytes: buffer.count - start) }
        }
    }

    private func findTerminator(from: Int) -> Int? {
        var i = from
        while i + 3 < buffer.count {
            if buffer[i] == 0x0D && buffer[i + 1] == 0x0A && buffer[i + 2] == 0x0D && buffer[i + 3] == 0x0A {
                return i + 4
            }
            i += 1
        }
        return nil
    }

    /// Drops the bytes already consumed (only between units, so offsets inside a unit stay valid).
    private func compact() {
        if start > 0 && start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
        } else if start > 65_536 {
            buffer.removeFirst(start)
            start = 0
        }
    }

    /// Exactly `count` bytes.
    package func read(exactly count: Int) throws(Failure) -> [UInt8] {
        compact()
        while buffer.count - start < count {
            guard try fill() else { throw .ended(afterBytes: buffer.count - start) }
        }
        let out = Array(buffer[start..<start + count])
        start += count
        return out
    }

    /// Whatever is buffered, or the next chunk from the source; empty at end of stream.
    package func readAvailable() throws(Failure) -> [UInt8] {
        if start == buffer.count { guard try fill() else { return [] } }
        let out = Array(buffer[start...])
        start = buffer.count
        return out
    }
}
