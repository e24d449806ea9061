#if canImport(PCSC)
    internal import PCSC
    internal import Foundation

    /// The PC/SC binding for macOS: Apple's `PCSC.framework` (always present), imported through Clang so that the
    /// packed `SCARD_READERSTATE` and the 32-bit `DWORD`/`LONG` of Apple's headers are laid out by the compiler. It
    /// only fills a ``PCSCFunctionTable``; ``PCSCTableBinding`` does the rest, as for pcsc-lite. Types are spelt as
    /// Apple's prototypes spell them (`UInt32` for `uint32_t`, `Int32` for `int32_t`), never `DWORD`/`LONG`: those
    /// come from `wintypes.h`, which the framework's Clang module is reported not to export.
    ///
    /// | Function | Notes |
    /// |---|---|
    /// | Contexts, readers, status change, connect, transmit, transactions, status | as on Linux |
    /// | `SCardControl` | Apple's PC/SC 2 form, `SCardControl132` |
    /// | `SCardTransmit` | the protocol header built per call: T=1, else T=0, else raw |
    /// | `SCARD_CTL_CODE` | `0x00310000 | function << 2` (Windows and macOS encoding) |
    ///
    /// Never compiled against Apple's SDK nor run (this project has no Mac). `scripts/check-darwin-pcsc` typechecks
    /// it on Linux against a stand-in for the framework's module (docs/APPLE-PLATFORMS.md); the shared layers above
    /// are tested on Linux.
    package final class PCSCFrameworkBinding: PCSCTableBinding, @unchecked Sendable {
        private static let instance = PCSCFrameworkBinding(table: functions)

        /// The process-wide binding.
        package static func load() throws(PCSCError) -> PCSCFrameworkBinding { instance }

        private static func ctx(_ c: UInt64) -> SCARDCONTEXT { SCARDCONTEXT(truncatingIfNeeded: c) }
        private static func card(_ c: UInt64) -> SCARDHANDLE { SCARDHANDLE(truncatingIfNeeded: c) }
        private static func rv(_ v: Int32) -> UInt32 { UInt32(truncatingIfNeeded: v) }

        private static let functions = PCSCFunctionTable(
            establishContext: { scope, context in
                var h = SCARDCONTEXT()
                let r = SCardEstablishContext(scope, nil, nil, &h)
                context = UInt64(truncatingIfNeeded: h)
                return rv(r)
            },
            releaseContext: { rv(SCardReleaseContext(ctx($0))) },
            listReaders: { context, buffer, size in
                rv(SCardListReaders(ctx(context), nil, buffer, &size))
            },
            getStatusChange: { context, timeout, states in
                let names: [UnsafeMutablePointer<CChar>] = states.map { strdup($0.reader)! }
                defer { names.forEach { free($0) } }
                var c = [SCARD_READERSTATE](repeating: SCARD_READERSTATE(), count: states.count)
                for i in states.indices {
                    c[i].szReader = UnsafePointer(names[i])
                    c[i].dwCurrentState = states[i].currentState
                }
                let r = SCardGetStatusChange(ctx(context), timeout, &c, UInt32(c.count))
                for i in states.indices {
                    states[i].eventState = c[i].dwEventState
                    let n = min(Int(c[i].cbAtr), 33)
                    states[i].atr = withUnsafeBytes(of: c[i].rgbAtr) { Array($0.prefix(n)) }
                }
                return rv(r)
            },
            cancel: { rv(SCardCancel(ctx($0))) },
            connect: { context, reader, share, protocols, card, active in
                var h = SCARDHANDLE()
                let r = SCardConnect(ctx(context), reader, share, protocols, &h, &active)
                card = UInt64(truncatingIfNeeded: h)
                return rv(r)
            },
            reconnect: { handle, share, protocols, initialization, active in
                rv(SCardReconnect(card(handle), share, protocols, initialization, &active))
            },
            disconnect: { rv(SCardDisconnect(card($0), $1)) },
            beginTransaction: { rv(SCardBeginTransaction(card($0))) },
            endTransaction: { rv(SCardEndTransaction(card($0), $1)) },
            status: { handle, name, nameLength, state, proto, atr, atrLength in
                rv(SCardStatus(card(handle), &name, &nameLength, &state, &proto, &atr, &atrLength))
            },
            transmit: { handle, proto, command, response, length in
                // The protocol header is built here rather than read from `g_rgSCardT0Pci`/`T1Pci`/`RawPci`: Apple's
                // pcsclite.h declares them `extern` and not `const`, so Swift 6 refuses to read them (shared mutable
                // state). Apple's client library defines each as `{ protocol, 8 }` (8 = sizeof(SCARD_IO_REQUEST)),
                // which is what this builds.
                let chosen = proto.contains(.t1) ? PCSCProtocols.t1 : (proto.contains(.t0) ? .t0 : .raw)
                var pci = SCARD_IO_REQUEST(
                    dwProtocol: chosen.rawValue, cbPciLength: UInt32(MemoryLayout<SCARD_IO_REQUEST>.size))
                return rv(SCardTransmit(card(handle), &pci, command, UInt32(command.count), nil, &response, &length))
            },
            control: { handle, code, command, response, returned in
                let capacity = UInt32(response.count)
                return rv(
                    SCardControl132(card(handle), code, command, UInt32(command.count), &response, capacity, &returned))
            },
            controlCode: { 0x0031_0000 | ($0 << 2) })
    }
#endif
