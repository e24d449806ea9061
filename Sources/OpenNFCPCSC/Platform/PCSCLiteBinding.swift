#if !canImport(PCSC) && canImport(Glibc)
    internal import Glibc
    internal import OpenNFCBytes

    // pcsc-lite on 64-bit Linux: DWORD is `unsigned long` and LONG is `long` (8 bytes each), SCARDCONTEXT and
    // SCARDHANDLE are `long`; SCARD_READERSTATE is 80 bytes (73 + padding); SCARD_IO_REQUEST is 16 bytes
    // (pcsc-lite's PCSC/pcsclite.h and winscard.h, measured with C sizeof and Swift MemoryLayout).
    typealias DWORD = UInt
    typealias LONG = Int

    /// Mirror of pcsc-lite's `SCARD_READERSTATE` (not packed on Linux).
    struct CReaderState {
        var szReader: UnsafePointer<CChar>?
        var pvUserData: UnsafeMutableRawPointer?
        var dwCurrentState: DWORD
        var dwEventState: DWORD
        var cbAtr: DWORD
        var rgbAtr:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8
            )
    }

    typealias FnEstablish =
        @convention(c) (DWORD, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeMutablePointer<LONG>?)
        -> LONG
    typealias FnRelease = @convention(c) (LONG) -> LONG
    typealias FnList =
        @convention(c) (LONG, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<DWORD>?)
        -> LONG
    typealias FnStatusChange = @convention(c) (LONG, DWORD, UnsafeMutableRawPointer?, DWORD) -> LONG
    typealias FnCancel = @convention(c) (LONG) -> LONG
    typealias FnConnect =
        @convention(c) (
            LONG, UnsafePointer<CChar>?, DWORD, DWORD, UnsafeMutablePointer<LONG>?, UnsafeMutablePointer<DWORD>?
        ) -> LONG
    typealias FnReconnect = @convention(c) (LONG, DWORD, DWORD, DWORD, UnsafeMutablePointer<DWORD>?) -> LONG
    typealias FnDisconnect = @convention(c) (LONG, DWORD) -> LONG
    typealias FnBegin = @convention(c) (LONG) -> LONG
    typealias FnEnd = @convention(c) (LONG, DWORD) -> LONG
    typealias FnStatus =
        @convention(c) (
            LONG, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<DWORD>?, UnsafeMutablePointer<DWORD>?,
            UnsafeMutablePointer<DWORD>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<DWORD>?
        ) -> LONG
    typealias FnTransmit =
        @convention(c) (
            LONG, UnsafeRawPointer?, UnsafePointer<UInt8>?, DWORD, UnsafeMutableRawPointer?,
            UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<DWORD>?
        ) -> LONG
    typealias FnControl =
        @convention(c) (
            LONG, DWORD, UnsafeRawPointer?, DWORD, UnsafeMutableRawPointer?, DWORD, UnsafeMutablePointer<DWORD>?
        ) -> LONG

    /// The PC/SC binding for Linux: pcsc-lite's client library loaded at run time with
    /// `dlopen("libpcsclite.so.1")`, so the package builds and tests without the PC/SC headers, and a missing library
    /// is a clear run-time error (``PCSCError/Code/libraryUnavailable``) instead of a link failure. It only fills a
    /// ``PCSCFunctionTable`` with the library's symbols (converting pcsc-lite's 64-bit `DWORD`/`LONG` and laying out
    /// `SCARD_READERSTATE`); ``PCSCTableBinding`` does the rest, as for `PCSC.framework`.
    ///
    /// | Function | Used for |
    /// |---|---|
    /// | `SCardEstablishContext` / `SCardReleaseContext` | one context per ``PCSCContext`` |
    /// | `SCardListReaders` | reader discovery |
    /// | `SCardGetStatusChange` / `SCardCancel` | card arrival and removal, with a timeout; cancellable |
    /// | `SCardConnect` / `SCardReconnect` / `SCardDisconnect` | connections (exclusive for a reader session) |
    /// | `SCardBeginTransaction` / `SCardEndTransaction` | atomic sequences on shared connections |
    /// | `SCardStatus` | ATR and state of a connection |
    /// | `SCardTransmit` | APDUs (T=0 / T=1 PCI from `g_rgSCardT0Pci` / `g_rgSCardT1Pci`) |
    /// | `SCardControl` | reader escape commands (ACR1252U `E0 …`) |
    ///
    /// The library handle stays open for the life of the process (as pyscard does); the object is immutable and
    /// safe to share between threads — pcsc-lite itself serialises calls per context.
    package final class PCSCLiteBinding: PCSCTableBinding, @unchecked Sendable {
        private static let shared = OncePerProcess<PCSCLiteBinding, PCSCError>(remembersFailure: false)

        /// The process-wide binding, loading the library on first use (a failure is tried again on the next use).
        package static func load(path: String = "libpcsclite.so.1") throws(PCSCError) -> PCSCLiteBinding {
            try shared.get { () throws(PCSCError) in PCSCLiteBinding(table: try Self.table(path: path)) }
        }

        private static func table(path: String) throws(PCSCError) -> PCSCFunctionTable {
            let lib: SharedLibrary
            switch SharedLibrary.open(firstOf: [path]) {
            case .success(let loaded): lib = loaded
            case .failure(let failure):
                throw PCSCError(
                    .libraryUnavailable, function: "dlopen",
                    detail:
                        "\(failure); install pcsc-lite's client library "
                        + "(Debian/Ubuntu: `apt-get install libpcsclite1 pcscd`)")
            }
            func sym<T>(_ name: String, as type: T.Type) throws(PCSCError) -> T {
                guard let f = lib.function(name, as: type) else {
                    throw PCSCError(
                        .libraryUnavailable, function: "dlsym",
                        detail: "\(path) has no symbol \(name); it is not pcsc-lite, or too old a version")
                }
                return f
            }
            let establish = try sym("SCardEstablishContext", as: FnEstablish.self)
            let release = try sym("SCardReleaseContext", as: FnRelease.self)
            let list = try sym("SCardListReaders", as: FnList.self)
            let statusChange = try sym("SCardGetStatusChange", as: FnStatusChange.self)
            let cancel = try sym("SCardCancel", as: FnCancel.self)
            let connect = try sym("SCardConnect", as: FnConnect.self)
            let reconnect = try sym("SCardReconnect", as: FnReconnect.self)
            let disconnect = try sym("SCardDisconnect", as: FnDisconnect.self)
            let begin = try sym("SCardBeginTransaction", as: FnBegin.self)
            let end = try sym("SCardEndTransaction", as: FnEnd.self)
            let status = try sym("SCardStatus", as: FnStatus.self)
            let transmit = try sym("SCardTransmit", as: FnTransmit.self)
            let control = try sym("SCardControl", as: FnControl.self)
            guard let t0 = lib.address(of: "g_rgSCardT0Pci"), let t1 = lib.address(of: "g_rgSCardT1Pci"),
                let raw = lib.address(of: "g_rgSCardRawPci")
            else {
                throw PCSCError(
                    .libraryUnavailable, function: "dlsym", detail: "\(path) has no g_rgSCardT0Pci/T1Pci/RawPci")
            }
            let pci = PCIs(t0: UnsafeRawPointer(t0), t1: UnsafeRawPointer(t1), raw: UnsafeRawPointer(raw))
            @Sendable func rv(_ v: LONG) -> UInt32 { UInt32(truncatingIfNeeded: v) }
            @Sendable func h(_ v: UInt64) -> LONG { LONG(truncatingIfNeeded: v) }
            return PCSCFunctionTable(
                establishContext: { scope, context in
                    var c: LONG = 0
                    let r = establish(DWORD(scope), nil, nil, &c)
                    context = UInt64(truncatingIfNeeded: c)
                    return rv(r)
                },
                releaseContext: { rv(release(h($0))) },
                listReaders: { context, buffer, size in
                    var s = DWORD(size)
                    let r = list(h(context), nil, buffer, &s)
                    size = UInt32(truncatingIfNeeded: s)
                    return rv(r)
                },
                getStatusChange: { context, timeout, states in
                    // The reader names must stay valid C strings for the duration of the call.
                    let names: [UnsafeMutablePointer<CChar>] = states.map { strdup($0.reader)! }
                    defer { names.forEach { free($0) } }
                    var c: [CReaderState] = states.indices.map { i in
                        CReaderState(
                            szReader: UnsafePointer(names[i]), pvUserData: nil,
                            dwCurrentState: DWORD(states[i].currentState), dwEventState: 0, cbAtr: 0,
                            rgbAtr: (
                                0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                0, 0, 0, 0
                            ))
                    }
                    let count = DWORD(c.count)
                    let r = c.withUnsafeMutableBytes { statusChange(h(context), DWORD(timeout), $0.baseAddress, count) }
                    for i in states.indices {
                        states[i].eventState = UInt32(truncatingIfNeeded: c[i].dwEventState)
                        let n = min(Int(c[i].cbAtr), 33)
                        states[i].atr = withUnsafeBytes(of: c[i].rgbAtr) { Array($0.prefix(n)) }
                    }
                    return rv(r)
                },
                cancel: { rv(cancel(h($0))) },
                connect: { context, reader, share, protocols, card, active in
                    var c: LONG = 0
                    var a: DWORD = 0
                    let r = connect(h(context), reader, DWORD(share), DWORD(protocols), &c, &a)
                    card = UInt64(truncatingIfNeeded: c)
                    active = UInt32(truncatingIfNeeded: a)
                    return rv(r)
                },
                reconnect: { card, share, protocols, initialization, active in
                    var a: DWORD = 0
                    let r = reconnect(h(card), DWORD(share), DWORD(protocols), DWORD(initialization), &a)
                    active = UInt32(truncatingIfNeeded: a)
                    return rv(r)
                },
                disconnect: { rv(disconnect(h($0), DWORD($1))) },
                beginTransaction: { rv(begin(h($0))) },
                endTransaction: { rv(end(h($0), DWORD($1))) },
                status: { card, name, nameLength, state, proto, atr, atrLength in
                    var n = DWORD(nameLength)
                    var s: DWORD = 0
                    var p: DWORD = 0
                    var a = DWORD(atrLength)
                    let r = status(h(card), &name, &n, &s, &p, &atr, &a)
                    nameLength = UInt32(truncatingIfNeeded: n)
                    state = UInt32(truncatingIfNeeded: s)
                    proto = UInt32(truncatingIfNeeded: p)
                    atrLength = UInt32(truncatingIfNeeded: a)
                    return rv(r)
                },
                transmit: { card, proto, command, response, length in
                    let request = proto.contains(.t1) ? pci.t1 : (proto.contains(.t0) ? pci.t0 : pci.raw)
                    var l = DWORD(length)
                    let r = command.withUnsafeBufferPointer { cmd in
                        response.withUnsafeMutableBufferPointer { resp in
                            transmit(h(card), request, cmd.baseAddress, DWORD(cmd.count), nil, resp.baseAddress, &l)
                        }
                    }
                    length = UInt32(truncatingIfNeeded: l)
                    return rv(r)
                },
                control: { card, code, command, response, returned in
                    var got: DWORD = 0
                    let r = command.withUnsafeBytes { cmd in
                        response.withUnsafeMutableBytes { resp in
                            control(
                                h(card), DWORD(code), cmd.baseAddress, DWORD(cmd.count), resp.baseAddress,
                                DWORD(resp.count), &got)
                        }
                    }
                    returned = UInt32(truncatingIfNeeded: got)
                    return rv(r)
                })
        }
    }

    /// pcsc-lite's protocol control information structures (`g_rgSCard*Pci`), which live as long as the library.
    private struct PCIs: @unchecked Sendable {
        let t0: UnsafeRawPointer
        let t1: UnsafeRawPointer
        let raw: UnsafeRawPointer
    }
#endif
