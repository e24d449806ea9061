internal import OpenNFCBytes
package import OpenNFCRF

/// Everything that happened in a ``VirtualField`` while it was recording: tags arriving and leaving, activations,
/// every frame in and out, failures and injected faults, each with the virtual time it happened at.
package struct FieldTranscript: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    package enum Event: Sendable, Hashable {
        case placed(chip: String, uid: [UInt8], position: Int)
        /// The tag left the field.
        case removed
        case moved(position: Int)
        /// The reader selected the tag (and ran RATS when the target has an ATS).
        case activated(RFTarget)
        /// HLTA (level 3) or DESELECT (ISO-DEP): the tag went to HALT.
        case halted
        /// The field was switched off and on: every tag lost power.
        case powerCycled
        /// A frame (or ISO-DEP payload) sent to the tag.
        case command([UInt8])
        /// The tag's answer as the reader received it.
        case answer(RFResponse)
        /// The exchange or activation failed.
        case failure(RFError)
        /// An injected fault took effect (described in words).
        case fault(String)
    }

    /// One event at one virtual instant.
    package struct Entry: Sendable, Hashable, CustomStringConvertible {
        /// Virtual time of the event.
        package var time: NFCInstant
        /// The tag concerned (its field handle), nil for field-wide events.
        package var handle: Int?
        /// The event itself.
        package var event: Event

        package init(time: NFCInstant, handle: Int?, event: Event) {
            self.time = time
            self.handle = handle
            self.event = event
        }

        package var description: String {
            let t = String(Double(time.nanoseconds) / 1e6)
            let who = handle.map { "#\($0)" } ?? "--"
            let what: String
            switch event {
            case .placed(let chip, let uid, let position): what = "placed \(chip) UID \(uid.hexString) at \(position)"
            case .removed: what = "removed"
            case .moved(let position): what = "moved to \(position)"
            case .activated(let target): what = "activated \(target)"
            case .halted: what = "halted"
            case .powerCycled: what = "field power cycle"
            case .command(let bytes): what = "> \(Hex.encode(bytes, separator: " "))"
            case .answer(let response):
                if case .frame(let bytes) = response {
                    what = "< \(Hex.encode(bytes, separator: " "))"
                } else {
                    what = "< \(response)"
                }
            case .failure(let error): what = "! \(error)"
            case .fault(let text): what = "fault: \(text)"
            }
            return "\(t) ms \(who) \(what)"
        }
    }

    /// Every event recorded, in order.
    package var entries: [Entry] = []

    package init() {}

    /// Just the frames: commands and answers (failures included), in order.
    package var frames: [Event] {
        entries.map(\.event).filter {
            switch $0 {
            case .command, .answer, .failure: return true
            default: return false
            }
        }
    }

    /// One line per entry: `<ms> ms #<handle> <event>`.
    package var description: String { entries.map(\.description).joined(separator: "\n") }
}
