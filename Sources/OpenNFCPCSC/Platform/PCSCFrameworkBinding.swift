#if canImport(PCSC)
    internal import PCSC
    internal import Foundation

    /// The PC/SC binding for macOS: Apple's `PCSC.framework` (always present), imported through Clang so that the
    /// packed `SCARD_READERSTATE` and the 32-bit `DWORD`/`LONG` of Apple's headers are laid out by the compiler. It
    /// only fills a ``PCSCFunctionTable``; ``PCSCTableBinding`` does the rest, as for pcsc-lite.
    ///
    /// | Function | Notes |
    /// |---|---|
    /// | Contexts, readers, status change, connect, transmit, transactions, status | as on Linux |
    /// | `SCardControl` | Apple's PC/SC 2 form, `SCardControl132` |
    /// | `SCARD_CTL_CODE` | `0x00310000 | function << 2` (Windows and macOS encoding) |
    ///
    /// Not verified on this project's CI (Linux only); the shared layers above are.
    package final class PCSCFrameworkBinding: PCSCTableBinding, @unchecked Sendable {
        private static let instance = PCSCFrameworkBinding(table: table)

        /// The process-wide binding.
        package static func load() throws(PCSCError) -> PCSCFrameworkBinding { instance }

        private static func ctx(_ c: UInt64) -> SCARDCONTEXT { SCARDCONTEXT(truncatingIfNeeded: c) }
        private static func card(_ c: UInt64) -> SCARDHANDLE { SCARDHANDLE(truncatingIfNeeded: c) }
        private static func rv(_ v: LONG) -> UInt32 { UInt32(truncatingIfNeeded: v) }

        private static let table = PCSCFunctionTable(
            establishContext: { scope, context in
                var h = SCARDCONTEXT()
                let r = SCardEstablishContext(DWORD(scope), nil, nil, &h)
                context = UInt64(truncatingIfNeeded: h)
                return rv(r)
            },
            releaseContext: { rv(SCardReleaseContext(ctx($0))) },
            listReaders: { context, buffer, size in
                var s = DWORD(size)
                let r = SCardListReaders(ctx(context), nil, buffer, &s)
                size = UInt32(truncatingIfNeeded: s)
                return rv(r)
            },
            getStatusChange: { context, timeout, states in
                let names: [UnsafeMutablePointer<CChar>] = states.map { strdup($0.reader)! }
                defer { names.forEach { free($0) } }
                var c = [SCARD_READERSTATE](repeating: SCARD_READERSTATE(), count: states.count)
                for i in states.indices {
                    c[i].szReader = UnsafePointer(names[i])
                    c[i].dwCurrentState = DWORD(states[i].currentState)
                }
                let r = SCardGetStatusChange(ctx(context), DWORD(timeout), &c, DWORD(c.count))
                for i in states.indices {
                    states[i].eventState = UInt32(truncatingIfNeeded: c[i].dwEventState)
                    let n = min(Int(c[i].cbAtr), 33)
                    states[i].atr = withUnsafeBytes(of: c[i].rgbAtr) { Array($0.prefix(n)) }
                }
                return rv(r)
            },
            cancel: { rv(SCardCancel(ctx($0))) },
            connect: { context, reader, share, protocols, card, active in
                var h = SCARDHANDLE()
                var a = DWORD(0)
                let r = SCardConnect(ctx(context), reader, DWORD(share), DWORD(protocols), &h, &a)
                card = UInt64(truncatingIfNeeded: h)
                active = UInt32(truncatingIfNeeded: a)
                return rv(r)
            },
            reconnect: { handle, share, protocols, initialization, active in
                var a = DWORD(0)
                let r = SCardReconnect(card(handle), DWORD(share), DWORD(protocols), DWORD(initialization), &a)
                active = UInt32(truncatingIfNeeded: a)
                return rv(r)
            },
            disconnect: { rv(SCardDisconnect(card($0), DWORD($1))) },
            beginTransaction: { rv(SCardBeginTransaction(card($0))) },
            endTransaction: { rv(SCardEndTransaction(card($0), DWORD($1))) },
            status: { handle, name, nameLength, state, proto, atr, atrLength in
                var n = DWORD(nameLength)
                var s = DWORD(0)
                var p = DWORD(0)
                var a = DWORD(atrLength)
                let r = SCardStatus(card(handle), &name, &n, &s, &p, &atr, &a)
                nameLength = UInt32(truncatingIfNeeded: n)
                state = UInt32(truncatingIfNeeded: s)
                proto = UInt32(truncatingIfNeeded: p)
                atrLength = UInt32(truncatingIfNeeded: a)
                return rv(r)
            },
            transmit: { handle, proto, command, response, length in
                var pci = proto.contains(.t0) && !proto.contains(.t1) ? g_rgSCardT0Pci : g_rgSCardT1Pci
                var l = DWORD(length)
                let r = SCardTransmit(card(handle), &pci, command, DWORD(command.count), nil, &response, &l)
                length = UInt32(truncatingIfNeeded: l)
                return rv(r)
            },
            control: { handle, code, command, response, returned in
                var got = DWORD(0)
                let r = SCardControl132(
                    card(handle), DWORD(code), command, DWORD(command.count), &response, DWORD(response.count), &got)
                returned = UInt32(truncatingIfNeeded: got)
                return rv(r)
            },
            controlCode: { 0x0031_0000 | ($0 << 2) })
    }
#endif
