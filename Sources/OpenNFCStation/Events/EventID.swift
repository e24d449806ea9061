/// Unique, sortable event ids in the manner of a ULID (26 characters of Crockford base32), built from the clock, the
/// station and the sequence number rather than randomness, so they are reproducible from the journal:
///
/// | Characters | Bits | Content |
/// |---|---|---|
/// | 1–10 | 50 (48 used) | milliseconds since 1970, never going back within a station |
/// | 11–16 | 30 | a hash of the station id (FNV-1a, 32 bits folded to 30) |
/// | 17–26 | 50 | the station's sequence number |
///
/// Ids sort by time first (across stations), then station, then sequence; within one station they strictly
/// increase, because the time part never decreases and the sequence always grows. Two stations collide only if their
/// ids hash alike *and* they emit the same sequence number in the same millisecond.
package struct EventIDGenerator: Sendable {
    static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)
    let stationBits: UInt64
    private var lastMilliseconds: UInt64 = 0

    package init(station: String) {
        var h: UInt32 = 0x811C_9DC5
        for b in station.utf8 {
            h ^= UInt32(b)
            h = h &* 0x0100_0193
        }
        stationBits = UInt64((h >> 30) ^ (h & 0x3FFF_FFFF))
    }

    /// The id of event `sequence` seen at `milliseconds` since 1970.
    package mutating func next(sequence: UInt64, milliseconds: UInt64) -> String {
        lastMilliseconds = max(lastMilliseconds, milliseconds)
        return Self.encode(lastMilliseconds, digits: 10) + Self.encode(stationBits, digits: 6)
            + Self.encode(sequence, digits: 10)
    }

    static func encode(_ value: UInt64, digits: Int) -> String {
        var out = [UInt8](repeating: 0, count: digits)
        var v = value
        for i in stride(from: digits - 1, through: 0, by: -1) {
            out[i] = alphabet[Int(v & 31)]
            v >>= 5
        }
        return String(decoding: out, as: UTF8.self)
    }
}
