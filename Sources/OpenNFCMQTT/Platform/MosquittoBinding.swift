internal import OpenNFCBytes

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

// libmosquitto's C API (mosquitto.h of libmosquitto 2.0): opaque `struct mosquitto *`, `int` results
// (``MosquittoStatus``), C `bool` (one byte, Swift `Bool` through `@convention(c)`).
typealias FnLibInit = @convention(c) () -> Int32
typealias FnLibVersion =
    @convention(c) (UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?) -> Int32
typealias FnNew = @convention(c) (UnsafePointer<CChar>?, Bool, UnsafeMutableRawPointer?) -> OpaquePointer?
typealias FnDestroy = @convention(c) (OpaquePointer?) -> Void
typealias FnUserPass = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> Int32
typealias FnWillSet =
    @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool) -> Int32
/// OpenSSL's `pem_password_cb` as libmosquitto hands it over: `int cb(char *buf, int size, int rwflag, void *userdata)`,
/// where libmosquitto passes its `struct mosquitto *` as `userdata` (SSL_CTX_set_default_passwd_cb_userdata).
typealias FnPasswordCallback =
    @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32
typealias FnTLSSet =
    @convention(c) (
        OpaquePointer?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?,
        FnPasswordCallback?
    ) -> Int32
typealias FnTLSInsecure = @convention(c) (OpaquePointer?, Bool) -> Int32
typealias FnIntOption = @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
typealias FnReconnectDelay = @convention(c) (OpaquePointer?, UInt32, UInt32, Bool) -> Int32
typealias FnMaxInflight = @convention(c) (OpaquePointer?, UInt32) -> Int32
typealias FnConnectAsync = @convention(c) (OpaquePointer?, UnsafePointer<CChar>?, Int32, Int32) -> Int32
typealias FnHandle = @convention(c) (OpaquePointer?) -> Int32
typealias FnLoop = @convention(c) (OpaquePointer?, Int32, Int32) -> Int32
typealias FnThreadedSet = @convention(c) (OpaquePointer?, Bool) -> Int32
typealias FnPublish =
    @convention(c) (
        OpaquePointer?, UnsafeMutablePointer<Int32>?, UnsafePointer<CChar>?, Int32, UnsafeRawPointer?, Int32, Bool
    ) -> Int32
typealias CallbackRC = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32) -> Void
typealias CallbackLog = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, Int32, UnsafePointer<CChar>?) -> Void
typealias FnSetRC = @convention(c) (OpaquePointer?, CallbackRC?) -> Void
typealias FnSetLog = @convention(c) (OpaquePointer?, CallbackLog?) -> Void
typealias FnUserData = @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Void
typealias FnGetUserData = @convention(c) (OpaquePointer?) -> UnsafeMutableRawPointer?
typealias FnStrError = @convention(c) (Int32) -> UnsafePointer<CChar>?

/// libmosquitto (Debian's `libmosquitto1`) loaded at run time with `dlopen("libmosquitto.so.1")`, like pcsc-lite
/// (`OpenNFCPCSC/Binding`) and libcrypto (`OpenNFCCrypto`): the package builds without mosquitto's headers, and a
/// missing library is a clear run-time error (``MQTTErrorCode/libraryUnavailable``) instead of a link failure.
///
/// | Function | Used for |
/// |---|---|
/// | `mosquitto_lib_init` / `mosquitto_lib_version` | once per process; version 1.6 or later is required |
/// | `mosquitto_new` / `mosquitto_destroy` | one client per ``MQTTClient`` (fixed client id, persistent session) |
/// | `mosquitto_username_pw_set`, `mosquitto_tls_set`, `mosquitto_tls_insecure_set` | credentials and TLS |
/// | `mosquitto_will_set` | the Last Will (before connecting) |
/// | `mosquitto_reconnect_delay_set`, `mosquitto_max_inflight_messages_set`, `mosquitto_int_option` | reconnection, window, TCP_NODELAY |
/// | `mosquitto_threaded_set` / `mosquitto_connect_async` / `mosquitto_loop` | ``MQTTClient``'s own network thread |
/// | `mosquitto_socket` | whether the TCP connection of an attempt was established (``MosquittoBinding/isConnected(_:)``) |
/// | `mosquitto_publish` / `mosquitto_disconnect` | QoS 1 messages; clean disconnect |
/// | `mosquitto_{connect,disconnect,publish,log}_callback_set` | CONNACK, connection loss, PUBACK, library log |
/// | `mosquitto_user_data_set` / `mosquitto_userdata` | the object the callbacks (and the key's passphrase callback) find |
/// | `mosquitto_reconnect_async` | every attempt after the first, made by ``MQTTClient``'s network thread |
/// | `mosquitto_strerror` | error texts |
///
/// The handle stays open for the life of the process; the table is immutable and safe to share between threads.
struct MosquittoBinding: @unchecked Sendable {
    let version: (major: Int, minor: Int, revision: Int)
    let new: FnNew
    let destroy: FnDestroy
    let usernamePassword: FnUserPass
    let willSet: FnWillSet
    let tlsSet: FnTLSSet
    let tlsInsecure: FnTLSInsecure
    let intOption: FnIntOption
    let reconnectDelay: FnReconnectDelay
    let maxInflight: FnMaxInflight
    let connectAsync: FnConnectAsync
    let loop: FnLoop
    let threadedSet: FnThreadedSet
    let socket: FnHandle
    let publish: FnPublish
    let disconnect: FnHandle
    let onConnect: FnSetRC
    let onDisconnect: FnSetRC
    let onPublish: FnSetRC
    let onLog: FnSetLog
    let userDataSet: FnUserData
    let userData: FnGetUserData
    let reconnectAsync: FnHandle
    let strerror: FnStrError

    /// The SONAME of Debian's `libmosquitto1` (the unversioned name exists only with the -dev package).
    static let defaultPath = "libmosquitto.so.1"

    private static let shared = OncePerProcess<MosquittoBinding, MQTTError>()

    /// The process-wide binding, loading and initialising the library on first use (a failure is remembered).
    static func load() throws(MQTTError) -> MosquittoBinding {
        try shared.get { () throws(MQTTError) in try open(path: defaultPath) }
    }

    private static func open(path: String) throws(MQTTError) -> MosquittoBinding {
        let lib: SharedLibrary
        switch SharedLibrary.open(firstOf: [path]) {
        case .success(let loaded): lib = loaded
        case .failure(let failure):
            throw MQTTError(
                .libraryUnavailable,
                "\(failure); install the MQTT client library (Debian/Ubuntu: `apt-get install libmosquitto1`)")
        }
        func sym<T>(_ name: String, as type: T.Type) throws(MQTTError) -> T {
            guard let f = lib.function(name, as: type) else {
                throw MQTTError(
                    .libraryUnavailable, "\(path) has no symbol \(name); libmosquitto 1.6 or later is needed")
            }
            return f
        }
        let initLib = try sym("mosquitto_lib_init", as: FnLibInit.self)
        let versionOf = try sym("mosquitto_lib_version", as: FnLibVersion.self)
        var major: Int32 = 0
        var minor: Int32 = 0
        var revision: Int32 = 0
        _ = versionOf(&major, &minor, &revision)
        guard (major, minor) >= (1, 6) else {
            throw MQTTError(
                .libraryUnavailable, "\(path) is libmosquitto \(major).\(minor).\(revision); 1.6 or later is needed")
        }
        let status = initLib()
        guard status == 0 else {
            throw MQTTError(.libraryUnavailable, "mosquitto_lib_init failed with status \(status)")
        }
        return MosquittoBinding(
            version: (Int(major), Int(minor), Int(revision)),
            new: try sym("mosquitto_new", as: FnNew.self),
            destroy: try sym("mosquitto_destroy", as: FnDestroy.self),
            usernamePassword: try sym("mosquitto_username_pw_set", as: FnUserPass.self),
            willSet: try sym("mosquitto_will_set", as: FnWillSet.self),
            tlsSet: try sym("mosquitto_tls_set", as: FnTLSSet.self),
            tlsInsecure: try sym("mosquitto_tls_insecure_set", as: FnTLSInsecure.self),
            intOption: try sym("mosquitto_int_option", as: FnIntOption.self),
            reconnectDelay: try sym("mosquitto_reconnect_delay_set", as: FnReconnectDelay.self),
            maxInflight: try sym("mosquitto_max_inflight_messages_set", as: FnMaxInflight.self),
            connectAsync: try sym("mosquitto_connect_async", as: FnConnectAsync.self),
            loop: try sym("mosquitto_loop", as: FnLoop.self),
            threadedSet: try sym("mosquitto_threaded_set", as: FnThreadedSet.self),
            socket: try sym("mosquitto_socket", as: FnHandle.self),
            publish: try sym("mosquitto_publish", as: FnPublish.self),
            disconnect: try sym("mosquitto_disconnect", as: FnHandle.self),
            onConnect: try sym("mosquitto_connect_callback_set", as: FnSetRC.self),
            onDisconnect: try sym("mosquitto_disconnect_callback_set", as: FnSetRC.self),
            onPublish: try sym("mosquitto_publish_callback_set", as: FnSetRC.self),
            onLog: try sym("mosquitto_log_callback_set", as: FnSetLog.self),
            userDataSet: try sym("mosquitto_user_data_set", as: FnUserData.self),
            userData: try sym("mosquitto_userdata", as: FnGetUserData.self),
            reconnectAsync: try sym("mosquitto_reconnect_async", as: FnHandle.self),
            strerror: try sym("mosquitto_strerror", as: FnStrError.self))
    }

    /// Whether the client's socket has a peer: its TCP connection was established (getpeername(2) succeeds), as
    /// opposed to a connection still in progress, refused or closed.
    func isConnected(_ handle: OpaquePointer) -> Bool {
        let fd = socket(handle)
        guard fd >= 0 else { return false }
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) == 0 }
        }
    }

    /// The calling thread's `errno` and its text (strerror(3)).
    static func lastError() -> (code: Int32, text: String) {
        let code = errno
        return (code, errnoText(code))
    }

    /// Whether `code` (an `errno`) says the broker could not be reached at all, as opposed to a connection that was
    /// taken and then closed: refused, no route, timed out, name not found.
    static func isUnreachable(_ code: Int32) -> Bool {
        [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT, EADDRNOTAVAIL, ENOENT].contains(code)
    }

    /// `mosquitto_strerror(status)`, with the status's name.
    func describe(_ status: Int32) -> String {
        let text = strerror(status).map { String(cString: $0) } ?? "unknown error"
        return "\(text) (\(MosquittoStatus.name(status)))"
    }
}

/// libmosquitto's `enum mosq_err_t` values the client reacts to (mosquitto.h).
enum MosquittoStatus {
    static let success: Int32 = 0
    static let noConnection: Int32 = 4
    static let connectionRefused: Int32 = 5
    static let connectionLost: Int32 = 7
    static let tls: Int32 = 8
    static let errno: Int32 = 14
    static let lookup: Int32 = 15

    /// libmosquitto's `MOSQ_LOG_ERR` log level.
    static let logError: Int32 = 8

    static func name(_ status: Int32) -> String {
        let names: [Int32: String] = [
            0: "MOSQ_ERR_SUCCESS", 1: "MOSQ_ERR_NOMEM", 2: "MOSQ_ERR_PROTOCOL", 3: "MOSQ_ERR_INVAL",
            4: "MOSQ_ERR_NO_CONN", 5: "MOSQ_ERR_CONN_REFUSED", 6: "MOSQ_ERR_NOT_FOUND", 7: "MOSQ_ERR_CONN_LOST",
            8: "MOSQ_ERR_TLS", 9: "MOSQ_ERR_PAYLOAD_SIZE", 10: "MOSQ_ERR_NOT_SUPPORTED", 11: "MOSQ_ERR_AUTH",
            12: "MOSQ_ERR_ACL_DENIED", 13: "MOSQ_ERR_UNKNOWN", 14: "MOSQ_ERR_ERRNO", 15: "MOSQ_ERR_EAI",
            19: "MOSQ_ERR_KEEPALIVE", 20: "MOSQ_ERR_LOOKUP", 23: "MOSQ_ERR_TLS_HANDSHAKE", 27: "MOSQ_ERR_TIMEOUT",
        ]
        return names[status] ?? "mosq_err_t \(status)"
    }

    /// MQTT 3.1.1 §3.2.2.3 CONNACK return codes, as `on_connect` reports them.
    static func connack(_ code: Int32) -> String {
        switch code {
        case 0: return "connection accepted"
        case 1: return "unacceptable protocol version (CONNACK 1)"
        case 2: return "client identifier rejected (CONNACK 2); choose another --client-id"
        case 3: return "server unavailable (CONNACK 3)"
        case 4: return "bad user name or password (CONNACK 4); check the credentials in the --mqtt URL"
        case 5:
            return "not authorised (CONNACK 5): the broker refused the credentials; check the user name and password "
                + "in the --mqtt URL (or the broker's allow_anonymous and password_file)"
        default: return "refused with CONNACK \(code)"
        }
    }
}

/// strerror(3) of `code` (a free function: inside ``MosquittoBinding`` the name is libmosquitto's `mosquitto_strerror`).
private func errnoText(_ code: Int32) -> String {
    strerror(code).map { String(cString: $0) } ?? "errno \(code)"
}
