package import OpenNFCRF

/// Air time in trace files: every frame read from a capture or rendered from a transcript carries its duration
/// (``AirFrame/air``), the one the capture recorded or else the one ``AirTimeModel`` gives for its bytes
/// (docs/TIMING.md, docs/TRACES.md "Durations").
extension AirTrace {
    /// The technology of each frame (nil for field events): the trace's only protocol, or, in a pcapng holding NFC-A
    /// and NFC-B, the technology of the last wake-up or request (WUPA/REQA: one byte `52`/`26`; WUPB/REQB: `05` and
    /// 4 more bytes).
    package var technologies: [RFTechnology?] {
        let sorted = protocols.sorted { $0.rawValue < $1.rawValue }
        var current = sorted.first?.technology ?? .nfcA
        return frames.map { f in
            guard f.isFrame else { return nil }
            if f.event == .reader, sorted.count > 1 {
                if f.bytes.count == 1, f.bytes[0] == 0x26 || f.bytes[0] == 0x52 { current = .nfcA }
                if f.bytes.count == 5, f.bytes[0] == 0x05 { current = .nfcB }
            }
            return current
        }
    }

    /// The model's air time of every frame, in order (zero for field events). An ISO 15693 answer is timed at the
    /// data rate its request asked for (Data_rate_flag, bit 2 of the request's flags: ISO/IEC 15693-3 §7.3.1).
    package func modelledAir(_ model: AirTimeModel = .standard) -> [AirTime] {
        var highRate = true
        return zip(frames, technologies).map { f, technology in
            guard let technology else { return .zero }
            if technology == .nfcV, f.event == .reader, let flags = f.bytes.first { highRate = flags & 0x02 != 0 }
            return model.frame(f, technology: technology, highRate: highRate)
        }
    }

    /// Gives every frame whose duration is not known (``AirFrame/air`` zero) the model's.
    package mutating func fillAirTime(_ model: AirTimeModel = .standard) {
        let modelled = modelledAir(model)
        for k in frames.indices where frames[k].isFrame && frames[k].air == .zero { frames[k].air = modelled[k] }
    }
}
