package import Foundation
package import OpenNFCBytes

/// One thing a station saw: a reader plugged in or out, a tag arriving or leaving, an error. Printed as one JSON line
/// (or one text line), journaled, and published on MQTT with the same JSON (docs/STATIONS.md, "Events").
package struct StationEvent: Sendable {
    package enum Kind: String, Sendable, CaseIterable {
        case readerAdded = "reader-added"
        case readerRemoved = "reader-removed"
        case arrived
        case left
        case error
    }

    /// What was learnt of a tag's NDEF data (`arrived` only; absent with `--uid-only`).
    package struct NDEF: Sendable {
        /// `read-write`, `read-only`, `not-formatted`, `empty`, `invalid` (the bytes do not decode), `error`.
        package var status: String
        package var capacity: Int?
        package var raw: [UInt8]?
        /// The decoded message (`{"records":[…]}`), as `opennfc ndef decode --json` prints it.
        package var message: JSONValue?
        package var error: String?

        package init(status: String) { self.status = status }
    }

    package var kind: Kind
    /// The device as the station names it (`pcsc:ACS ACR122U 00 00`, `sim:poster.json`); nil for the station itself.
    package var reader: String?
    package var time: Date
    package var technology: String?
    package var uid: String?
    package var chip: String?
    package var ndef: NDEF?
    /// The error's sentence (`error`), or why a reader went away (`reader-removed`).
    package var message: String?

    // Assigned by the station when the event is recorded.
    package var sequence: UInt64 = 0
    package var id: String = ""
    package var station: String = ""

    package init(_ kind: Kind, reader: String?, time: Date = Date()) {
        self.kind = kind
        self.reader = reader
        self.time = time
    }

    /// RFC 3339 UTC with milliseconds (`2026-12-02T05:40:00.123Z`).
    package static func timestamp(_ date: Date) -> String {
        let ms = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
        let seconds = time_t(ms / 1000)
        var t = tm()
        var s = seconds
        gmtime_r(&s, &t)
        return String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", Int(t.tm_year) + 1900, Int(t.tm_mon) + 1, Int(t.tm_mday),
            Int(t.tm_hour), Int(t.tm_min), Int(t.tm_sec), Int(ms % 1000))
    }

    /// The event as one JSON object; the field order is fixed (docs/STATIONS.md).
    package var json: JSONValue {
        var o: [(String, JSONValue)] = [
            ("id", .string(id)), ("seq", .int(Int(sequence))), ("station", .string(station)),
            ("type", .string(kind.rawValue)), ("time", .string(Self.timestamp(time))),
        ]
        if let reader { o.append(("reader", .string(reader))) }
        if let technology { o.append(("technology", .string(technology))) }
        if let uid { o.append(("uid", .string(uid))) }
        if let chip { o.append(("chip", .string(chip))) }
        if let ndef {
            var n: [(String, JSONValue)] = [("status", .string(ndef.status))]
            if let c = ndef.capacity { n.append(("capacity", .int(c))) }
            if let raw = ndef.raw { n.append(("raw", .string(raw.hexString))) }
            if let m = ndef.message { n.append(("message", m)) }
            if let e = ndef.error { n.append(("error", .string(e))) }
            o.append(("ndef", .object(n)))
        }
        if let message { o.append(("message", .string(message))) }
        return .object(o)
    }

    /// One line for people (`--format text`).
    package var text: String {
        var parts = [Self.timestamp(time), "#\(sequence)", kind.rawValue]
        if let reader { parts.append(reader) }
        if let chip { parts.append(chip) }
        if let uid { parts.append("UID \(uid)") }
        if let ndef {
            var n = "NDEF \(ndef.status)"
            if let records = ndef.message?["records"]?.arrayValue {
                let summary = records.compactMap { r -> String? in
                    r["uri"]?.stringValue ?? r["text"]?["text"]?.stringValue ?? r["mime"]?.stringValue
                }
                n += " (\(records.count) record\(records.count == 1 ? "" : "s")"
                n += summary.isEmpty ? ")" : ": \(summary.joined(separator: ", ")))"
            }
            if let e = ndef.error { n += ": \(e)" }
            parts.append(n)
        }
        if let message { parts.append("— \(message)") }
        return parts.joined(separator: " ")
    }

    /// The fields as environment variables for `--exec` (docs/STATIONS.md lists them).
    package var environment: [String: String] {
        var env = [
            "OPENNFC_EVENT_ID": id, "OPENNFC_EVENT_SEQ": String(sequence), "OPENNFC_EVENT_TYPE": kind.rawValue,
            "OPENNFC_EVENT_TIME": Self.timestamp(time), "OPENNFC_STATION": station, "OPENNFC_EVENT_JSON": json.compact,
        ]
        if let reader { env["OPENNFC_READER"] = reader }
        if let technology { env["OPENNFC_TECHNOLOGY"] = technology }
        if let uid { env["OPENNFC_UID"] = uid }
        if let chip { env["OPENNFC_CHIP"] = chip }
        if let ndef {
            env["OPENNFC_NDEF_STATUS"] = ndef.status
            if let raw = ndef.raw { env["OPENNFC_NDEF"] = raw.hexString }
            if let records = ndef.message?["records"]?.arrayValue, let first = records.first {
                if let uri = first["uri"]?.stringValue { env["OPENNFC_NDEF_URI"] = uri }
                if let text = first["text"]?["text"]?.stringValue { env["OPENNFC_NDEF_TEXT"] = text }
            }
        }
        if let message { env["OPENNFC_MESSAGE"] = message }
        return env
    }
}
