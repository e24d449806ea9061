#if canImport(PCSC)
    internal import PCSC
    internal import Foundation

    /// The PC/SC binding for macOS: Apple's `PCSC.framework` (always present), imported through Clang so that the
    /// packed `SCARD_READERSTATE` and the 32-bit `DWORD`/`LONG` of Apple's headers are laid out by the compiler.
    ///
    /// | Function | Notes |
    /// |---|---|
    /// | Contexts, readers, status change, connect, transmit, transactions, status | as on Linux |
    /// | `SCardControl` | Apple's PC/SC 2 form, `SCardControl132` |
    ///
    /// Not verified on this project's CI (Linux only); the shared layers above are.
    public final class PCSCFrameworkBinding: PCSCBinding, @unchecked Sendable {
        nonisolated(unsafe) private static let instance = PCSCFrameworkBinding()

        /// The process-wide binding.
        public static func load() throws(PCSCError) -> PCSCFrameworkBinding { instance }

        private func check<T: BinaryInteger>(_ rv: T, _ function: String, reader: String? = nil) throws(PCSCError) {
            let status = UInt32(truncatingIfNeeded: rv)
            if status != PCSCStatus.success { throw PCSCError(status: status, function: function, reader: reader) }
        }

        private func ctx(_ c: PCSCContextID) -> SCARDCONTEXT { SCARDCONTEXT(truncatingIfNeeded: c.rawValue) }
        private func card(_ c: PCSCCardID) -> SCARDHANDLE { SCARDHANDLE(truncatingIfNeeded: c.rawValue) }

        public func controlCode(function: UInt32) -> UInt32 { 0x0031_0000 | (function << 2) }

        public func establishContext() throws(PCSCError) -> PCSCContextID {
            var h = SCARDCONTEXT()
            try check(SCardEstablishContext(DWORD(SCARD_SCOPE_SYSTEM), nil, nil, &h), "SCardEstablishContext")
            return PCSCContextID(rawValue: UInt64(truncatingIfNeeded: h))
        }

        public func releaseContext(_ context: PCSCContextID) { _ = SCardReleaseContext(ctx(context)) }

        public func listReaders(_ context: PCSCContextID) throws(PCSCError) -> [String] {
            var size = DWORD(0)
            var rv = SCardListReaders(ctx(context), nil, nil, &size)
            if UInt32(truncatingIfNeeded: rv) == PCSCStatus.noReadersAvailable { return [] }
            try check(rv, "SCardListReaders")
            var buffer = [CChar](repeating: 0, count: Int(size) + 1)
            rv = SCardListReaders(ctx(context), nil, &buffer, &size)
            if UInt32(truncatingIfNeeded: rv) == PCSCStatus.noReadersAvailable { return [] }
            try check(rv, "SCardListReaders")
            return buffer.prefix(Int(size)).split(separator: 0).map {
                String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }

        public func getStatusChange(
            _ context: PCSCContextID, timeoutMilliseconds: UInt32, states: inout [PCSCReaderState]
        ) throws(PCSCError) {
            guard !states.isEmpty else { return }
            let names: [UnsafeMutablePointer<CChar>] = states.map { strdup($0.reader)! }
            defer { names.forEach { free($0) } }
            var c = [SCARD_READERSTATE](repeating: SCARD_READERSTATE(), count: states.count)
            for i in states.indices {
                c[i].szReader = UnsafePointer(names[i])
                c[i].dwCurrentState =
                    DWORD(states[i].currentState.rawValue & 0xFFFF)
                    | DWORD(states[i].currentEventCount) << 16
            }
            let rv = SCardGetStatusChange(ctx(context), DWORD(timeoutMilliseconds), &c, DWORD(c.count))
            try check(rv, "SCardGetStatusChange")
            for i in states.indices {
                let e = UInt32(truncatingIfNeeded: c[i].dwEventState)
                states[i].eventState = PCSCReaderStateFlags(rawValue: e & 0xFFFF)
                states[i].eventCount = UInt16(truncatingIfNeeded: e >> 16)
                let n = min(Int(c[i].cbAtr), 33)
                states[i].atr = withUnsafeBytes(of: c[i].rgbAtr) { Array($0.prefix(n)) }
            }
        }

        public func cancel(_ context: PCSCContextID) { _ = SCardCancel(ctx(context)) }

        public func connect(
            _ context: PCSCContextID, reader: String, share: PCSCShareMode, protocols: PCSCProtocols
        ) throws(PCSCError) -> (card: PCSCCardID, activeProtocol: PCSCProtocols) {
            var h = SCARDHANDLE()
            var active = DWORD(0)
            let rv = SCardConnect(ctx(context), reader, DWORD(share.rawValue), DWORD(protocols.rawValue), &h, &active)
            try check(rv, "SCardConnect", reader: reader)
            return (
                PCSCCardID(rawValue: UInt64(truncatingIfNeeded: h)),
                PCSCProtocols(rawValue: UInt32(truncatingIfNeeded: active))
            )
        }

        public func reconnect(
            _ card: PCSCCardID, share: PCSCShareMode, protocols: PCSCProtocols, initialization: PCSCDisposition
        ) throws(PCSCError) -> PCSCProtocols {
            var active = DWORD(0)
            let rv = SCardReconnect(
                self.card(card), DWORD(share.rawValue), DWORD(protocols.rawValue), DWORD(initialization.rawValue),
                &active)
            try check(rv, "SCardReconnect")
            return PCSCProtocols(rawValue: UInt32(truncatingIfNeeded: active))
        }

        public func disconnect(_ card: PCSCCardID, disposition: PCSCDisposition) throws(PCSCError) {
            try check(SCardDisconnect(self.card(card), DWORD(disposition.rawValue)), "SCardDisconnect")
        }

        public func beginTransaction(_ card: PCSCCardID) throws(PCSCError) {
            try check(SCardBeginTransaction(self.card(card)), "SCardBeginTransaction")
        }

        public func endTransaction(_ card: PCSCCardID, disposition: PCSCDisposition) throws(PCSCError) {
            try check(SCardEndTransaction(self.card(card), DWORD(disposition.rawValue)), "SCardEndTransaction")
        }

        public func status(_ card: PCSCCardID) throws(PCSCError) -> PCSCCardStatus {
            var name = [CChar](repeating: 0, count: 256)
            var nameLength = DWORD(name.count)
            var state = DWORD(0)
            var proto = DWORD(0)
            var atr = [UInt8](repeating: 0, count: 33)
            var atrLength = DWORD(atr.count)
            try check(
                SCardStatus(self.card(card), &name, &nameLength, &state, &proto, &atr, &atrLength), "SCardStatus")
            let reader = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return PCSCCardStatus(
                reader: reader, state: UInt32(truncatingIfNeeded: state),
                activeProtocol: PCSCProtocols(rawValue: UInt32(truncatingIfNeeded: proto)),
                atr: Array(atr.prefix(min(Int(atrLength), 33))))
        }

        public func transmit(
            _ card: PCSCCardID, protocol: PCSCProtocols, command: [UInt8]
        ) throws(PCSCError) -> [UInt8] {
            var pci = `protocol`.contains(.t0) && !`protocol`.contains(.t1) ? g_rgSCardT0Pci : g_rgSCardT1Pci
            var response = [UInt8](repeating: 0, count: command.count > 261 ? 65_538 : 258)
            var length = DWORD(response.count)
            let rv = SCardTransmit(self.card(card), &pci, command, DWORD(command.count), nil, &response, &length)
            try check(rv, "SCardTransmit")
            return Array(response.prefix(min(Int(length), response.count)))
        }

        public func control(_ card: PCSCCardID, code: UInt32, command: [UInt8]) throws(PCSCError) -> [UInt8] {
            var response = [UInt8](repeating: 0, count: 1024)
            var returned = DWORD(0)
            let rv = SCardControl132(
                self.card(card), DWORD(code), command, DWORD(command.count), &response, DWORD(response.count),
                &returned)
            try check(rv, "SCardControl")
            return Array(response.prefix(min(Int(returned), 1024)))
        }
    }
#endif
