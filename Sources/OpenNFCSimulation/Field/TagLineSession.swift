internal import OpenNFCBytes
package import OpenNFCRF

/// One virtual tag in its own field, driven one text line at a time: the engine behind `opennfc tag send`, and a
/// compact way to write exact transcripts in tests.
///
/// Input lines are a frame in hex (spaces allowed; level-3 frame without CRC, or an ISO-DEP payload),
/// `ACTIVATE` (WUPA + select, RATS for ISO-DEP tags; puts the tag back if it was removed) or `REMOVE` (takes the
/// tag out of the field). The frontend applies no frame-size limit by default (``RFCapabilities/unlimited``): the
/// chip answers what its datasheet says, whatever a particular reader could carry. Each input line gets exactly one
/// answer line:
///
/// | Input | Answer |
/// |---|---|
/// | frame | the answer in hex, `ACK`, `NAK <n>`, `TIMEOUT` (no answer, or no tag to answer), or `ERROR <reason>` when the frontend refuses the frame or its answer (a size limit) |
/// | `ACTIVATE` | `UID <hex> ATQA <hex> SAK <hex>` (plus ` ATS <hex>` for ISO-DEP; `HR <HR0 HR1>` instead of SAK for Type 1), or `TIMEOUT` |
/// | `REMOVE` | `REMOVED` |
/// | anything else | `ERROR <reason>` |
package final class TagLineSession {
    /// The tag being driven.
    package let tag: any VirtualTag
    /// The field the tag sits in (its own).
    package let field: VirtualField
    /// The reader side used for every exchange.
    package let frontend: VirtualFieldFrontend
    private var handle: Int?

    /// A session over its own field; `capabilities` are the reader's limits (none by default).
    package init(
        tag: any VirtualTag, clock: VirtualClock = VirtualClock(), recording: Bool = false,
        capabilities: RFCapabilities = .unlimited
    ) {
        self.tag = tag
        self.field = VirtualField(clock: clock, recording: recording)
        self.frontend = VirtualFieldFrontend(field: field, capabilities: capabilities)
    }

    /// Places the tag (if needed) and activates it; returns the `UID … ATQA … SAK …` line or `TIMEOUT`.
    @discardableResult
    package func activate() -> String {
        if handle == nil || field.tag(handle!) == nil { handle = field.place(tag) }
        guard let targets = try? frontend.poll([tag.activation.technology]),
            let target = targets.first(where: { $0.handle == handle }),
            let active = try? frontend.activate(target)
        else { return "TIMEOUT" }
        let sensRes = [UInt8(active.sensRes.map { $0 >> 8 } ?? 0), UInt8((active.sensRes ?? 0) & 0xFF)]
        var line = "UID \(active.identifier.hexString) ATQA \(sensRes.hexString) SAK \([active.selRes ?? 0].hexString)"
        if let t1 = active.nfcA?.type1, active.selRes == nil {  // Type 1: no SEL_RES; HR0/HR1 instead
            line = "UID \(active.identifier.hexString) ATQA \(sensRes.hexString) HR \([t1.hr0, t1.hr1].hexString)"
        }
        if let ats = active.ats { line += " ATS \(ats.hexString)" }
        return line
    }

    /// Answers one input line (see the type's table).
    package func answer(_ line: String) -> String {
        let text = line.trimmingCharacters(in: [" ", "\t", "\r"])
        switch text.uppercased() {
        case "ACTIVATE":
            return activate()
        case "REMOVE":
            if let h = handle { field.remove(h) }
            handle = nil
            return "REMOVED"
        case "":
            return "ERROR empty line"
        default:
            let frame: [UInt8]
            do {
                frame = try Hex.decode(text)
            } catch {
                return "ERROR \(error)"
            }
            return Self.describe(send(frame))
        }
    }

    /// Sends one frame and returns the answer, or the RF error.
    package func send(_ frame: [UInt8]) -> Result<RFResponse, RFError> {
        do {
            return .success(try frontend.exchange(frame))
        } catch {
            return .failure(error)
        }
    }

    /// `hex`, `ACK`, `NAK <n>`, `TIMEOUT` (the tag gave no answer or is gone) or `ERROR <reason>` (the frontend
    /// refused the frame or the answer, e.g. a size limit: never reported as a timeout).
    package static func describe(_ result: Result<RFResponse, RFError>) -> String {
        switch result {
        case .success(.frame(let bytes)): return bytes.isEmpty ? "TIMEOUT" : bytes.hexString
        case .success(.ack): return "ACK"
        case .success(.nak(let n)): return "NAK \(n)"
        case .failure(let e) where e.code == .timeout || e.code == .linkLost || e.code == .notActivated:
            return "TIMEOUT"
        case .failure(let e): return "ERROR \(e.detail.isEmpty ? e.code.rawValue : e.detail)"
        }
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        var s = Substring(self)
        while let f = s.first, set.contains(f) { s = s.dropFirst() }
        while let l = s.last, set.contains(l) { s = s.dropLast() }
        return String(s)
    }
}
