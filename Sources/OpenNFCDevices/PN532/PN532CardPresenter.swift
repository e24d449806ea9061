// A PN532 is reached on Linux and macOS only (Package.swift links OpenNFCPN532 there; docs/APPLE-PLATFORMS.md).
#if canImport(OpenNFCPN532)
    internal import Foundation
    internal import OpenNFCPN532
    internal import OpenNFCRF
    internal import OpenNFCSimulation
    internal import OpenNFCSystem

    /// The app's `CardSession` through a PN532 in target mode (docs/PN532.md, "Target mode"): while the app emulates,
    /// the chip waits as an ISO/IEC 14443-4 A card (TgInitAsTarget, UID `08 4F 43 4E`, the app's first AID prefix as
    /// historical bytes); a reader that activates it is the phone's terminal (`terminalFieldOn`), each of its APDUs goes
    /// through the phone's card rules to the app's handler (TgGetData → `terminalTransceive` → TgSetData), and its
    /// release is the terminal leaving (`terminalFieldOff`). The chip then waits for the next reader, until the app
    /// stops emulating.
    ///
    /// The chip is one radio: while it is a card, the phone's reader side finds no tags (``PN532ChipGate``).
    final class PN532CardPresenter: CardEmulationDevice, @unchecked Sendable {
        let frontend: PN532Frontend
        let gate: PN532ChipGate
        weak var system: NFCSystem?
        private let lock = NSLock()
        private var generation = 0
        /// How long one wait for a reader lasts before the presenter checks whether the app still emulates.
        static let waitSlice = 250

        init(frontend: PN532Frontend, gate: PN532ChipGate) {
            self.frontend = frontend
            self.gate = gate
        }

        func presenceChanged(_ present: Bool, prefixes: [[UInt8]]) {
            let mine: Int = lock.withLock {
                generation += 1
                return generation
            }
            guard present, let system else { return }
            let historical = Array((prefixes.first ?? []).prefix(15))
            let thread = Thread { [weak self] in self?.serve(system: system, historical: historical, generation: mine) }
            thread.name = "OpenCoreNFC PN532 card"
            thread.start()
        }

        private func current(_ g: Int) -> Bool { lock.withLock { generation == g } }

        private func serve(system: NFCSystem, historical: [UInt8], generation g: Int) {
            gate.lock.lock()
            defer { gate.lock.unlock() }
            let phone = PhoneCardTag(system: system, historicalBytes: historical)
            let emulation = PN532CardEmulation(
                uid3: [0x4F, 0x43, 0x4E], historicalBytes: historical, waitMilliseconds: Self.waitSlice)
            while current(g) {
                var inField = false
                do {
                    _ = try frontend.emulateCard(
                        emulation,
                        activated: {
                            inField = true
                            system.terminalFieldOn()
                        }, keepWaiting: { current(g) }
                    ) { apdu in
                        guard current(g), case .data(let answer) = phone.receive(apdu, tearAfter: nil) else {
                            return nil
                        }
                        return answer
                    }
                } catch  where error.code == .timeout && !inField {
                    // The app stopped emulating while the chip waited for a reader.
                } catch {
                    FileHandle.standardError.write(Data("OpenCoreNFC: pn532 card emulation: \(error.detail)\n".utf8))
                    if inField { system.terminalFieldOff() }
                    return
                }
                if inField { system.terminalFieldOff() }
            }
        }
    }

    /// One PN532, two users: the phone's reader side (the system's executor) and the card presenter (its own thread).
    /// The presenter holds ``lock`` while the chip is a card; the reader side never waits for it: a poll then finds
    /// nothing and any other command fails saying why.
    final class PN532ChipGate: @unchecked Sendable {
        let lock = NSLock()
    }

    /// The `pn532:` frontend the phone's reader side uses: every command takes the chip only when the card presenter
    /// does not hold it.
    final class PN532GatedFrontend: RFFrontend, @unchecked Sendable {
        let inner: PN532Frontend
        let gate: PN532ChipGate

        init(_ inner: PN532Frontend, gate: PN532ChipGate) {
            self.inner = inner
            self.gate = gate
        }

        var capabilities: RFCapabilities { inner.capabilities }

        private func withChip<T>(_ body: () throws(RFError) -> T) throws(RFError) -> T {
            guard gate.lock.try() else {
                throw RFError(.frontendFailure, "the PN532 is presenting the app's card (target mode)")
            }
            defer { gate.lock.unlock() }
            return try body()
        }

        func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] {
            guard gate.lock.try() else { return [] }
            defer { gate.lock.unlock() }
            return try inner.poll(request)
        }

        func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget {
            try withChip { () throws(RFError) in try inner.activate(target, isoDEP: isoDEP) }
        }

        func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
            try withChip { () throws(RFError) in try inner.exchange(command) }
        }

        func deactivate() {
            guard gate.lock.try() else { return }
            defer { gate.lock.unlock() }
            inner.deactivate()
        }

        func authenticate(_ authentication: RFAuthentication) throws(RFError) {
            try withChip { () throws(RFError) in try inner.authenticate(authentication) }
        }
    }
#endif
