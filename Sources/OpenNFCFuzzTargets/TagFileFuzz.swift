internal import Foundation
internal import OpenNFCBytes
internal import OpenNFCSimulation

/// Tag files (docs/TAG-FILES.md): JSON tag files, Flipper Zero `.nfc` dumps and raw `.ndef` messages. The first byte
/// chooses the format (0 JSON, 1 Flipper, 2 `.ndef` into the chip the second byte chooses); the rest is the file.
///
/// Invariants: an error names a reason; a JSON tag file that loads saves to JSON that loads to a tag saving to the
/// same text (a fixed point); a Flipper dump that loads saves (when its chip can be saved as `.nfc`) to a dump that
/// loads to the same JSON state; a `.ndef` message that a chip accepts is the message the chip then holds.
enum TagFileFuzz {
    static let target = FuzzTarget(
        "tagfile", "JSON tag files, Flipper .nfc dumps, .ndef files (load → save → load fixed point)", seeds: seeds,
        run: run)

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        switch input.byte() % 3 {
        case 0: json(input.rest())
        case 1: flipper(input.rest())
        default:
            let chip = TagFile.chips[Int(input.byte()) % TagFile.chips.count]
            ndef(input.rest(), chip: chip)
        }
    }

    static func json(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        let tag: any VirtualTag
        do {
            tag = try TagFile.decodeJSON(text)
        } catch {
            fuzzRequire(!error.reason.isEmpty, "a tag-file error without a reason")
            return
        }
        savesToAFixedPoint(tag, "a loaded")
    }

    /// The invariant every chip state meets (loaded from a file, or left by hostile frames in ``CardFuzz``): it
    /// saves as JSON, and that file loads and saves back to the same text. `what` says where the state came from.
    static func savesToAFixedPoint(_ tag: any VirtualTag, _ what: String) {
        let saved: String
        do {
            saved = try TagFile.encodeJSON(tag)
        } catch {
            fuzzRequire(false, "\(what) \(tag.chip) tag cannot be saved: \(error)")
            return
        }
        do {
            let again = try TagFile.encodeJSON(try TagFile.decodeJSON(saved))
            fuzzRequire(again == saved, "\(what) \(tag.chip) tag: its saved file is not a fixed point")
        } catch {
            fuzzRequire(false, "\(what) \(tag.chip) tag: its saved file does not load: \(error)")
        }
    }

    static func flipper(_ bytes: [UInt8]) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        let tag: any VirtualTag
        do {
            tag = try FlipperNFCFile.decodeAnyChip(text)
        } catch {
            fuzzRequire(!error.reason.isEmpty, "a Flipper error without a reason")
            return
        }
        guard let state = try? TagFile.encodeJSON(tag) else {
            fuzzRequire(false, "a Flipper-loaded \(tag.chip) tag cannot be saved as JSON")
            return
        }
        guard FlipperNFCFile.exportLoss(tag) == nil, let dump = try? FlipperNFCFile.encode(tag) else { return }
        do {
            let back = try TagFile.encodeJSON(try FlipperNFCFile.decodeAnyChip(dump))
            fuzzRequire(back == state, "\(tag.chip): Flipper save → load changes the tag")
        } catch {
            fuzzRequire(false, "\(tag.chip): a saved Flipper dump does not load: \(error)")
        }
    }

    static func ndef(_ message: [UInt8], chip: TagFileChip) {
        let uid = chip.uidPrefix + [UInt8](repeating: 0x5A, count: max(0, chip.uidLength - chip.uidPrefix.count))
        let tag: any VirtualTag
        do {
            tag = try chip.factory(uid, message)
        } catch {
            fuzzRequire(!error.reason.isEmpty, "a .ndef error without a reason")
            return
        }
        if let held = chip.ndefMessage(tag) {
            fuzzRequire(held == message, "\(chip.name) holds \(held.count) bytes, not the \(message.count) given")
        }
    }

    /// Every registered chip saved by the project's own encoders: JSON (with the chip's sample message), Flipper
    /// where the chip can be exported, and `.ndef` for each chip.
    static func seeds() -> [[UInt8]] {
        let message = CardFuzz.sampleMessage
        var out: [[UInt8]] = []
        for (i, chip) in TagFile.chips.enumerated() {
            let uid = chip.uidPrefix + [UInt8](repeating: 0x5A, count: max(0, chip.uidLength - chip.uidPrefix.count))
            guard let tag = (try? chip.factory(uid, message)) ?? (try? chip.factory(uid, nil)) else { continue }
            if let json = try? TagFile.encodeJSON(tag) { out.append([0] + Array(json.utf8)) }
            if FlipperNFCFile.exportLoss(tag) == nil, let nfc = try? FlipperNFCFile.encode(tag) {
                out.append([1] + Array(nfc.utf8))
            }
            out.append([2, UInt8(i)] + message)
        }
        return out
    }
}
