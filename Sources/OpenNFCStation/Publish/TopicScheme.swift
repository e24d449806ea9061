/// The topics a station publishes on (docs/STATIONS.md, "Topics"):
///
/// | Topic | Retained | Payload |
/// |---|---|---|
/// | `<prefix>/<station>/status` | yes | `{"station":…,"status":"online"\|"offline",…}`; `offline` is also the Last Will |
/// | `<prefix>/<station>/events/<reader>` | no | one event (the JSON line `opennfc watch` prints), QoS 1 |
///
/// `<reader>` is the device name with every character outside `A–Z a–z 0–9 . _ -` replaced by `_`
/// (`pcsc:ACS ACR122U 00 00` → `pcsc_ACS_ACR122U_00_00`); events without a reader go to `events/station`. One topic
/// per reader keeps each reader's events in order for subscribers (MQTT 3.1.1 §4.6: ordered per topic at QoS 1).
package struct TopicScheme: Sendable, Hashable {
    package var prefix: String
    package var station: String

    package init(prefix: String, station: String) {
        self.prefix = prefix
        self.station = station
    }

    package var status: String { "\(prefix)/\(station)/status" }

    package func events(reader: String?) -> String {
        "\(prefix)/\(station)/events/\(reader.map(Self.slug) ?? "station")"
    }

    /// A topic level made of safe characters only.
    package static func slug(_ name: String) -> String {
        let s = String(
            name.unicodeScalars.map { c -> Character in
                let ok =
                    (c >= "A" && c <= "Z") || (c >= "a" && c <= "z") || (c >= "0" && c <= "9") || c == "." || c == "_"
                    || c == "-"
                return ok ? Character(c) : "_"
            })
        return s.isEmpty ? "_" : s
    }

    /// Whether `id` can name a station in topics and client ids: 1–64 of `A–Z a–z 0–9 . _ -`.
    package static func isValidStation(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 64 && slug(id) == id
    }
}
