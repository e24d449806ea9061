internal import OpenNFCBytes
internal import OpenNFCCrypto
internal import OpenNFCNDEF
internal import OpenNFCSimulation

/// The card side: every registered virtual chip (``TagFile/chips``), factory-fresh, fed hostile frames.
///
/// Input: the first byte chooses the chip; then up to 64 steps, each a control byte and a frame. Control `FF`: the
/// next byte is a tear point (the tag leaves the field after committing that many bytes); `FE`: reset; `FD`: power
/// cycle; otherwise the control byte is the frame's length.
///
/// Invariants, checked after every frame (whether it was torn or not):
/// - a command that only reads (Type 2 READ/FAST_READ/GET_VERSION/READ_SIG/READ_CNT, NXP NTAG21x datasheet §10;
///   Type 1 RID/RALL/READ/RSEG/READ8, NFC Forum T1T §5; ISO/IEC 15693-3 §10.3 read and information commands; FeliCa
///   Lite-S Polling/Request/Read Without Encryption, JIS X 6319-4 §7) leaves the chip's memory unchanged; for the
///   chips seen through their saved state (ISO/IEC 7816-4 READ BINARY/GET DATA/SELECT/READ RECORD/GET RESPONSE on
///   Type 4 and VAS; DESFire EV1 Get…/Read…/Select commands; FeliCa Standard reads) an input made only of reads
///   leaves the state unchanged;
/// - a WRITE touches only its page (Type 2 `A2`), byte (Type 1 WRITE-E/WRITE-NE) or block (Type 1 WRITE-E8/NE8;
///   ISO 15693 Write Single Block `21`);
/// - at the end, the chip's state saves as a JSON tag file that loads back to the same state (tag files are the
///   chip's whole non-volatile state, docs/TAG-FILES.md).
enum CardFuzz {
    static let target = FuzzTarget(
        "card", "every virtual chip fed hostile frames (reads change nothing, writes stay in their unit)",
        seeds: seeds, run: run)

    static let uidFill: UInt8 = 0x5A

    /// A factory-fresh tag of every registered chip, with the UID the seeds use.
    static func factoryTags() -> [any VirtualTag] {
        TagFile.chips.compactMap { tag(of: $0) }
    }

    /// The message factory tags hold (chips that cannot hold NDEF are built empty).
    static let sampleMessage: [UInt8] =
        (try? NDEFURIRecord(uri: "https://opennfc.example/a?b=c").record()).map {
            NDEFMessage(records: [$0]).encoded()
        } ?? NDEFMessage.empty.encoded()

    static func tag(of chip: TagFileChip) -> (any VirtualTag)? {
        let uid = chip.uidPrefix + [UInt8](repeating: uidFill, count: max(0, chip.uidLength - chip.uidPrefix.count))
        let tag = (try? chip.factory(uid, sampleMessage)) ?? (try? chip.factory(uid, nil))
        // Card nonces from a fixed seed: the same input always meets the same chip (and seeds are reproducible).
        switch tag {
        case let t as Type2Tag: t.random = SeededRandomSource(seed: 0x4F4E_4643)
        case let t as DESFireEV1Tag: t.random = SeededRandomSource(seed: 0x4F4E_4643)
        case let t as MifareClassicTag: t.random = SeededRandomSource(seed: 0x4F4E_4643)
        default: break
        }
        return tag
    }

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let chip = TagFile.chips[Int(input.byte()) % TagFile.chips.count]
        guard let tag = tag(of: chip) else {
            fuzzRequire(false, "the factory \(chip.name) cannot be built")
            return
        }
        tag.powerOn()
        // Chips seen through their saved state (ISO-DEP, FeliCa Standard) are compared once per input: a run of
        // commands that only read leaves the state as it was (saving per frame would cost more than the frames).
        let initialState = stateSnapshot(tag)
        let initialMemory = Snapshot(tag).memory
        var onlyReads = initialState != nil
        var previous: [UInt8] = []
        var previousAnswer = VirtualAnswer.silence
        var steps = 0
        while !input.isAtEnd && steps < 64 {
            steps += 1
            var control = input.byte()
            var tear: Int? = nil
            if control == 0xFE {
                tag.reset()
                continue
            }
            if control == 0xFD {
                tag.powerOn()
                continue
            }
            if control == 0xFF {
                tear = Int(input.byte())
                control = input.byte()
            }
            let frame = input.take(Int(control))
            onlyReads = onlyReads && (frame.isEmpty || comparesState(tag, frame))
            let before = Snapshot(tag)
            let answer = tag.receive(frame, tearAfter: tear)
            _ = tag.processingTime(for: frame)
            let after = Snapshot(tag)
            let twoPart = previous.count == 2 && previous[0] == 0xA0 && previousAnswer == .ack
            check(tag, frame, before, after, afterTwoPartCommand: twoPart)
            previous = frame
            previousAnswer = answer
        }
        if onlyReads, let initialState {
            fuzzRequire(stateSnapshot(tag) == initialState, "\(tag.chip): commands that only read changed the state")
        }
        // A tag whose state did not change saves as the factory tag does (the seeds check that): skip the costly
        // save and load.
        let unchanged =
            initialState == nil ? Snapshot(tag).memory == initialMemory && !initialMemory.isEmpty : onlyReads
        if !unchanged { TagFileFuzz.savesToAFixedPoint(tag, "after hostile frames, a") }
    }

    /// The saved state of the chips whose memory the invariants see only through it.
    static func stateSnapshot(_ tag: any VirtualTag) -> String? {
        switch tag {
        case is FeliCaStandardTag, is DESFireEV1Tag, is Type4Tag, is VASPassTag: return try? TagFile.encodeJSON(tag)
        default: return nil
        }
    }

    /// The memory a chip exposes to the per-frame invariants.
    struct Snapshot {
        var memory: [UInt8]
        var unit: Int

        init(_ tag: any VirtualTag) {
            switch tag {
            case let t as Type2Tag: (memory, unit) = (t.memory, 4)
            case let t as Type1Tag: (memory, unit) = (t.memory, 1)
            case let t as ISO15693Tag:
                (memory, unit) = (t.memory + t.lockedBlocks.sorted().map { UInt8(truncatingIfNeeded: $0) }, 1)
            case let t as FeliCaLiteSTag: (memory, unit) = (t.user.flatMap { $0 } + t.mc, 16)
            default: (memory, unit) = ([], 1)
            }
        }
    }

    static func check(
        _ tag: any VirtualTag, _ frame: [UInt8], _ before: Snapshot, _ after: Snapshot, afterTwoPartCommand: Bool
    ) {
        guard let command = frame.first, !afterTwoPartCommand else { return }
        switch tag {
        case let t as Type2Tag:
            if [0x30, 0x3A, 0x60, 0x3C, 0x39].contains(command) {
                fuzzRequire(before.memory == after.memory, "\(t.chip): read command \(frame.hexString) changed memory")
            } else if command == 0xA2 && frame.count == 6 && !t.profile.hasSectors {
                let page = Int(frame[1])
                fuzzRequire(
                    sameOutside(before.memory, after.memory, page * 4..<page * 4 + 4),
                    "\(t.chip): WRITE \(frame.hexString) changed memory outside page \(page)")
            }
        case let t as Type1Tag:
            if [0x78, 0x00, 0x01, 0x10, 0x02].contains(command) {
                fuzzRequire(before.memory == after.memory, "\(t.chip): read command \(frame.hexString) changed memory")
            } else if (command == 0x53 || command == 0x1A) && frame.count == 7 {
                let a = Int(frame[1] & 0x7F)
                fuzzRequire(
                    sameOutside(before.memory, after.memory, a..<a + 1),
                    "\(t.chip): \(frame.hexString) changed memory outside byte \(a)")
            } else if (command == 0x54 || command == 0x1B) && frame.count == 14 {
                let block = Int(frame[1]) % t.profile.blockCount
                fuzzRequire(
                    sameOutside(before.memory, after.memory, block * 8..<block * 8 + 8),
                    "\(t.chip): \(frame.hexString) changed memory outside block \(block)")
            }
        case let t as ISO15693Tag:
            guard frame.count >= 2 else { return }
            let flags = frame[0]
            let code = frame[1]
            if [0x01, 0x20, 0x23, 0x2B, 0x2C].contains(code) {
                fuzzRequire(before.memory == after.memory, "\(t.chip): \(frame.hexString) changed memory or locks")
            } else if code == 0x21 && flags & 0x08 == 0 {
                let at = 2 + (flags & 0x20 != 0 ? 8 : 0)
                guard frame.count > at else { return }
                let size = t.profile.blockSize
                let block = Int(frame[at])
                let lockCount = t.memory.count
                fuzzRequire(
                    sameOutside(
                        Array(before.memory.prefix(lockCount)), Array(after.memory.prefix(lockCount)),
                        block * size..<block * size + size)
                        && before.memory.dropFirst(lockCount) == after.memory.dropFirst(lockCount),
                    "\(t.chip): \(frame.hexString) changed memory outside block \(block)")
            }
        case let t as FeliCaLiteSTag:
            if [0x00, 0x02, 0x04, 0x06, 0x0C].contains(command) {
                fuzzRequire(before.memory == after.memory, "\(t.chip): \(frame.hexString) changed blocks")
            }
        default:
            break
        }
    }

    /// Whether `frame` only reads, for the chips whose memory the invariants see through their saved state.
    static func comparesState(_ tag: any VirtualTag, _ frame: [UInt8]) -> Bool {
        guard let command = frame.first else { return false }
        switch tag {
        case is FeliCaStandardTag:
            return [0x00, 0x02, 0x04, 0x06, 0x0A, 0x0C].contains(command)
        case is DESFireEV1Tag:
            let native: Set<UInt8> = [0x60, 0x6A, 0x6D, 0x6E, 0x6F, 0xF5, 0xBD, 0xBB, 0x6C, 0x45, 0x64, 0x5A, 0x51]
            let code = command == 0x90 && frame.count >= 5 ? frame[1] : command
            return native.contains(code) || (command == 0x00 && frame.count >= 4 && isoReads.contains(frame[1]))
        case is Type4Tag, is VASPassTag:
            return frame.count >= 4 && isoReads.contains(frame[1])
        default:
            return false
        }
    }

    /// ISO/IEC 7816-4 commands that read: SELECT, READ BINARY (both), READ RECORD, GET DATA (both), GET RESPONSE.
    static let isoReads: Set<UInt8> = [0xA4, 0xB0, 0xB1, 0xB2, 0xCA, 0xCB, 0xC0]

    static func sameOutside(_ a: [UInt8], _ b: [UInt8], _ range: Range<Int>) -> Bool {
        guard a.count == b.count else { return false }
        for i in a.indices where !range.contains(i) && a[i] != b[i] { return false }
        return true
    }

    /// For every chip, the frames the reader procedures send it (recorded from an NDEF read, write and format over
    /// the virtual field by ``ReaderFuzz``), framed as this target's steps.
    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for (i, chip) in TagFile.chips.enumerated() {
            var seed: [UInt8] = [UInt8(i)]
            for frame in ReaderFuzz.recordedCommands(chip: chip).prefix(48) where frame.count < 0xFD {
                seed.append(UInt8(frame.count))
                seed += frame
            }
            out.append(seed)
        }
        return out
    }
}
