internal import OpenNFCPN532
internal import OpenNFCPN532Emulator
internal import OpenNFCRF
internal import OpenNFCSimulation

/// The PN532 host link from both ends (UM0701-02 §6.2.1): the driver's frame decoder and the virtual PN532's
/// firmware, fed the same bytes.
///
/// Invariants: a decoder error names an offset inside the bytes given; a decoded information frame encodes back to a
/// frame that decodes to itself; whatever the host sends, everything the virtual PN532 answers is a stream of
/// well-formed frames (ACK, error frame, or `D5` answers).
enum PN532Fuzz {
    static let target = FuzzTarget(
        "pn532", "PN532 host frames: the driver's decoder and the virtual PN532's answers", seeds: seeds, run: run)

    static func run(_ data: [UInt8]) {
        var decoder = PN532FrameDecoder()
        decoder.append(data)
        var guardRounds = 0
        while guardRounds < data.count + 2 {
            guardRounds += 1
            do {
                guard let frame = try decoder.next() else { break }
                if case .information = frame {
                    fuzzRequire((try? PN532Frame(decoding: frame.encoded)) == frame, "re-encoding \(frame)")
                }
            } catch {
                fuzzRequire(error.offset >= 0 && error.offset <= data.count, "decoder error offset \(error.offset)")
            }
        }
        let field = VirtualField(clock: VirtualClock(), timing: .instant)
        for (i, tag) in CardFuzz.factoryTags().prefix(4).enumerated() { field.place(tag, at: i) }
        let chip = VirtualPN532(field: field)
        let out = chip.serve(data)
        var answers = PN532FrameDecoder()
        answers.append(out)
        while true {
            let next: PN532Frame?
            do { next = try answers.next() } catch {
                fuzzRequire(false, "the virtual PN532 sent a malformed frame: \(error)")
                return
            }
            guard let frame = next else { break }
            if case .information(let tfi, _) = frame { fuzzRequire(tfi == 0xD5, "an answer with TFI \(tfi)") }
        }
        fuzzRequire(answers.pending <= 1, "the virtual PN532 sent bytes that are no frame")
    }

    /// Host command frames libnfc and nfcpy send, framed by the driver's encoder.
    static func seeds() -> [[UInt8]] {
        let commands: [[UInt8]] = [
            [0x02], [0x14, 0x01], [0x00, 0x00, 0x6C, 0x69, 0x62], [0x4A, 0x01, 0x00],
            [0x4A, 0x01, 0x01, 0x00, 0xFF, 0xFF, 0x01, 0x00],
            [0x4A, 0x01, 0x03, 0x00], [0x4A, 0x01, 0x04], [0x06, 0x63, 0x02, 0x63, 0x03], [0x08, 0x63, 0x02, 0x00],
            [0x42, 0x26], [0x40, 0x01, 0x30, 0x04], [0x60, 0x14, 0x02, 0x20, 0x10, 0x03, 0x11, 0x12, 0x04],
            [0x32, 0x01, 0x00], [0x44, 0x00], [0x52, 0x00], [0x16, 0xF0],
        ]
        var out = commands.map { [0x55, 0x55, 0x00, 0x00] + PN532Frame.command($0[0], Array($0.dropFirst())).encoded }
        out.append(
            PN532Frame.command(0x4A, [0x01, 0x00]).encoded + PN532Frame.command(0x40, [0x01, 0x30, 0x00]).encoded)
        out.append(PN532Frame.ack.encoded + PN532Frame.nack.encoded)
        out.append(PN532Frame.information(tfi: 0xD4, data: [0x00, 0x00] + [UInt8](repeating: 7, count: 300)).encoded)
        return out
    }
}
