internal import OpenNFCBytes
internal import OpenNFCCrypto
internal import OpenNFCRF
internal import OpenNFCSimulation
internal import OpenNFCTags

/// The reader side: identification (`TagIdentifier`) and every NDEF procedure (Type 1, 2, 3, 4 with DESFire, 5,
/// MIFARE Classic) plus the DESFire and MIFARE Classic card readers, over a ``ScriptedFrontend`` whose answers are
/// the fuzz input. The first byte chooses the target's activation (one per registered chip); the second the
/// operation: detect and read, write, format, make read-only, DESFire image, MIFARE Classic blocks.
///
/// Invariants: a detection never reports a message longer than its capacity, nor a capacity beyond what the
/// platform can address (Type 4: NLEN of 2 bytes + ENLEN; here 16 MiB bounds all); a read never returns more
/// bytes than the capacity the same procedure detected; every `TagError` has a reason; nothing hangs (the script
/// ends in timeouts, then link loss).
enum ReaderFuzz {
    static let target = FuzzTarget(
        "reader", "identification and every reader procedure against a tag whose answers are the input",
        seeds: seeds, run: run)

    static let maximumCapacity = 1 << 24
    static let writtenMessage: [UInt8] = [0xD1, 0x01, 0x0C, 0x55, 0x04] + Array("example.org".utf8)

    /// The activation of every registered chip, as the virtual field reports it.
    static let activations: [RFActivation] = CardFuzz.factoryTags().map { $0.activation.air }

    static func run(_ data: [UInt8]) {
        var input = FuzzInput(data)
        let target = RFTarget(activations[Int(input.byte()) % activations.count])
        let operation = input.byte() % 6
        let frontend = ScriptedFrontend(target: target, script: FuzzInput(input.rest()))
        operate(operation, target: target, frontend: frontend)
        fuzzRequire(frontend.exchanges <= ScriptedFrontend.maxExchanges + 1, "exchanges after the link was lost")
    }

    static func operate(_ operation: UInt8, target: RFTarget, frontend: any RFFrontend) {
        do {
            switch operation {
            case 4:
                let image = try DESFireCard(target: target, frontend: frontend).readImage()
                _ = image
                return
            case 5:
                let card = MifareClassicCard(target: target, frontend: frontend)
                try card.authenticate(sector: 1, keyA: true, key: [UInt8](repeating: 0xFF, count: 6))
                for block in 4..<8 {
                    let b = try card.readBlock(block)
                    fuzzRequire(b.count == 16, "a MIFARE Classic block of \(b.count) bytes")
                }
                return
            default: break
            }
            let identified = try TagIdentifier.identify(target: target, frontend: frontend)
            _ = identified.historicalBytes
            guard let procedure = identified.ndefProcedure(frontend: frontend) else { return }
            switch operation {
            case 0:
                let d = try procedure.detect()
                check(d)
                let message = try procedure.readMessage()
                if d.status != .notSupported {
                    fuzzRequire(
                        message.count <= d.capacity,
                        "\(identified.kind): read \(message.count) bytes, capacity \(d.capacity)")
                }
            case 1:
                check(try procedure.detect())
                try procedure.writeMessage(writtenMessage)
            case 2:
                try procedure.format()
            default:
                try procedure.makeReadOnly()
            }
        } catch {
            fuzzRequire(!error.reason.isEmpty, "a TagError without a reason")
        }
    }

    static func check(_ d: NDEFDetection) {
        fuzzRequire(d.capacity >= 0 && d.capacity <= maximumCapacity, "capacity \(d.capacity)")
        if d.status == .notSupported {
            fuzzRequire(d.reason != nil, "notSupported without a reason")
        } else if let length = d.messageLength {
            fuzzRequire(length >= 0 && length <= d.capacity, "message \(length) bytes, capacity \(d.capacity)")
        }
    }

    // MARK: Seeds: the virtual chips' own answers

    /// One chip in a virtual field behind a recording frontend: what it answered to `operation`.
    static func record(chip: TagFileChip, operation: UInt8) -> (script: [UInt8], commands: [[UInt8]]) {
        guard let tag = CardFuzz.tag(of: chip) else { return ([], []) }
        let field = VirtualField(clock: VirtualClock())
        var caps = RFCapabilities.simulatedIPhone
        caps.mifareClassicAuthentication = true
        var script: [UInt8] = []
        var commands: [[UInt8]] = []
        let virtualFrontend = VirtualFieldFrontend(field: field, capabilities: caps)
        virtualFrontend.random = SeededRandomSource(seed: 0x5244_5246)
        let frontend = InstrumentedFrontend(virtualFrontend) { event in
            switch event {
            case .sent(let c): commands.append(c)
            case .received(let r): script += ScriptedFrontend.entry(r)
            case .failed: script.append(0xFF)
            case .authenticated: script.append(0x00)
            case .activated, .deactivated, .waitingTimeExtensions: break
            }
        }
        field.place(tag)
        guard let first = try? frontend.poll([.nfcA, .nfcB, .nfcF, .nfcV]).first,
            let target = try? frontend.activate(first)
        else { return ([], []) }
        script = []
        commands = []
        operate(operation, target: target, frontend: frontend)
        return (script, commands)
    }

    /// The commands the procedures sent to `chip` reading, writing and formatting it (``CardFuzz``'s seeds).
    static func recordedCommands(chip: TagFileChip) -> [[UInt8]] {
        (0..<3).flatMap { record(chip: chip, operation: $0).commands }
    }

    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for (i, chip) in TagFile.chips.enumerated() {
            for operation in [UInt8(0), 1, 2, 3, 4, 5] {
                let (script, commands) = record(chip: chip, operation: operation)
                guard !commands.isEmpty else { continue }
                out.append([UInt8(i), operation] + script)
            }
        }
        return out
    }
}
