// vpcd runs beside pcscd on Linux and macOS only (Package.swift links OpenNFCVPCD there; docs/APPLE-PLATFORMS.md).
#if canImport(OpenNFCVPCD)
    internal import Foundation
    internal import OpenNFCRF
    internal import OpenNFCSimulation
    internal import OpenNFCSystem
    internal import OpenNFCVPCD
    internal import Synchronization

    /// The `vpcd:` device: the phone's card (the app's `CardSession`) presented to pcscd through vsmartcard's virtual
    /// reader, so that any PC/SC program (`opennfc send --device pcsc`, pyscard, a terminal vendor's software) talks to
    /// the app's handler (docs/CARD-EMULATION.md, "The app's card on a PC").
    ///
    /// | Device string | vpcd slot |
    /// |---|---|
    /// | `vpcd:` | `127.0.0.1:35963` (vpcd's first slot) |
    /// | `vpcd:<port>` | `127.0.0.1:<port>` |
    /// | `vpcd:<host>:<port>` | that address |
    ///
    /// The card appears in the slot while the app emulates (`startEmulation()` … `stopEmulation(status:)`, the 60 s
    /// limit, `invalidate()`), and leaves when emulation ends. Its ATR is a contactless ISO 14443-4 card's (PC/SC Part 3
    /// §9.3: `3B 8N 80 01 <historical bytes> TCK`) whose historical bytes are the app's first AID prefix, so a PC/SC
    /// program can tell the app's card from others. Command APDUs go through the phone's rules (a SELECT of an AID the
    /// app did not declare gets `6A 82` from the system), then to the handler; a handler that does not answer within
    /// ``answerTimeout`` gets the terminal's give-up (`6F 00` to the PC/SC program, `transmissionError` to a late
    /// `respond`). The phone has no reader on this device: `NFCReaderSession.readingAvailable` is false.
    enum VPCDCardEmulationDevice {
        /// How long the PC/SC side waits for the handler's answer (wall clock; pcscd's own timeouts are longer).
        static let answerTimeout = DispatchTimeInterval.seconds(5)

        static let scheme = DeviceScheme(
            name: "vpcd", usage: "vpcd:[<host>:<port>|<port>]",
            help:
                "vpcd:[<host>:<port>|<port>] — the app's CardSession as a contactless card in pcscd's vpcd slot (default 127.0.0.1:35963)"
        ) { (argument: String, use: DeviceUse) throws(DeviceError) -> OpenedDevice in
            guard use == .phone else {
                throw DeviceError(
                    "vpcd: presents an app's CardSession to pcscd; it is not a reader (use it as OPENCORENFC_DEVICE for "
                        + "the app, and --device pcsc for the PC/SC side)")
            }
            let (host, port) = try address(argument)
            let device = VPCDCardPresenter(host: host, port: port)
            var opened = OpenedDevice(
                frontend: NoReaderFrontend(), clock: .wall,
                connect: { system in
                    device.system = system
                    system.attachCardEmulationDevice(device)
                })
            opened.name = "vpcd:\(host):\(port)"
            return opened
        }

        static func address(_ argument: String) throws(DeviceError) -> (String, UInt16) {
            if argument.isEmpty { return ("127.0.0.1", 35963) }
            if let port = UInt16(argument), port != 0 { return ("127.0.0.1", port) }
            guard let a = VPCDServer.parseAddress(argument) else {
                throw DeviceError(usage: "vpcd:\(argument): expected vpcd:, vpcd:<port> or vpcd:<host>:<port>")
            }
            return a
        }
    }

    /// Connects the phone's card to a vpcd slot while the app emulates.
    final class VPCDCardPresenter: CardEmulationDevice, @unchecked Sendable {
        let host: String
        let port: UInt16
        weak var system: NFCSystem?
        private let lock = NSLock()
        private var server: VPCDServer?
        private var generation = 0

        init(host: String, port: UInt16) {
            self.host = host
            self.port = port
        }

        func presenceChanged(_ present: Bool, prefixes: [[UInt8]]) {
            lock.lock()
            defer { lock.unlock() }
            server?.stop()
            server = nil
            generation += 1
            guard present, let system else { return }
            let tag = PhoneCardTag(system: system, historicalBytes: Array((prefixes.first ?? []).prefix(15)))
            let s = VPCDServer(card: VPCDCard(tag: tag, forms: .pcsc), host: host, port: port)
            server = s
            let mine = generation
            let thread = Thread { [weak self] in self?.serve(s, generation: mine) }
            thread.name = "OpenCoreNFC vpcd card"
            thread.start()
        }

        private func current(_ g: Int) -> Bool { lock.withLock { generation == g } }

        private func serve(_ s: VPCDServer, generation g: Int) {
            do {
                try s.connect()
            } catch {
                FileHandle.standardError.write(Data("OpenCoreNFC: vpcd: \(error)\n".utf8))
                return
            }
            if current(g) { system?.terminalFieldOn() }
            do {
                try s.run()
            } catch {
                FileHandle.standardError.write(Data("OpenCoreNFC: vpcd: \(error)\n".utf8))
            }
            if current(g) { system?.terminalFieldOff() }
        }
    }

    /// The phone as an ISO-DEP card (NFC-A, SAK 20): every APDU the reader sends goes through the phone's card rules to
    /// the app's handler, and the answer comes back; a random-looking but fixed UID starting with 08 (ISO/IEC 14443-3
    /// §6.5.4: a random UID).
    final class PhoneCardTag: VirtualTag, @unchecked Sendable {
        let system: NFCSystem
        let activation: VirtualActivation
        var chip: String { "phone" }

        init(system: NFCSystem, historicalBytes: [UInt8]) {
            self.system = system
            // ATS (ISO/IEC 14443-4 §5.2): TL, T0 (TA, TB, TC present, FSCI 8 = 256 bytes), TA, TB (FWI 7), TC, history.
            let ats: [UInt8] = [UInt8(5 + historicalBytes.count), 0x78, 0x80, 0x70, 0x02] + historicalBytes
            activation = VirtualActivation(uid: [0x08, 0x4F, 0x43, 0x4E], sensRes: 0x0004, selRes: 0x20, ats: ats)
        }

        func reset() {}

        func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
            let done = DispatchSemaphore(value: 0)
            let box = Mutex<[UInt8]??>(nil)
            system.terminalTransceive(frame) { reply in
                box.withLock { $0 = .some(reply) }
                done.signal()
            }
            if done.wait(timeout: .now() + VPCDCardEmulationDevice.answerTimeout) == .timedOut {
                system.terminalGaveUp()
                return .silence
            }
            guard let answer = box.withLock({ $0 }) ?? nil else { return .silence }
            return .data(answer)
        }
    }

    /// A frontend with no radio technology: the device has no reader (`readingAvailable` is false).
    final class NoReaderFrontend: RFFrontend, @unchecked Sendable {
        let capabilities = RFCapabilities(maxCommandSize: 0, maxResponseSize: 0, rawFrames: false, technologies: [])
        func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] { [] }
        func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget {
            throw RFError(.unsupported, "this device has no reader")
        }
        func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
            throw RFError(.unsupported, "this device has no reader")
        }
        func deactivate() {}
        func authenticate(_ authentication: RFAuthentication) throws(RFError) {
            throw RFError(.unsupported, "this device has no reader")
        }
    }
#endif
