internal import Foundation
public import OpenCoreNFC
internal import OpenNFCDevices
internal import OpenNFCNDEF
public import OpenNFCRF
public import OpenNFCSimulation
public import OpenNFCSystem

/// A simulated iPhone for app tests: its NFC configuration, its virtual clock, and the RF field in front of it.
///
/// Sessions created inside `run(_:)` belong to this phone (and, while the phone is ``start()``ed, every session the
/// process creates outside any phone's `run`, from any thread or queue); put tags into the field, tap Cancel, background the
/// app, move time, and read the sheet and the transcript — all deterministic, without sleeping:
///
/// ```swift
/// let phone = VirtualPhone()
/// let app = NDEFMessageRecorder()
/// phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true).begin() }
/// phone.settle()
/// try phone.put(message: someNDEFBytes)
/// phone.settle()
/// #expect(app.messages.count == 1)
/// ```
///
/// Works from Swift Testing and XCTest alike, including tests running in parallel (each phone is separate).
public final class VirtualPhone: @unchecked Sendable {
    /// The phone's virtual clock: it moves only through ``advance(by:)``; read `clock.now` to see the phone's time.
    public let clock: VirtualClock
    /// The RF field in front of the phone's antenna.
    package let field: VirtualField
    /// The NFC system (arbiter, sheet, configuration) the phone runs.
    package let system: NFCSystem
    private let termination = TerminationBox()
    /// Background tag reading's app-side state (VirtualPhone+Background.swift).
    let background = BackgroundState()

    /// A phone with this app configuration. `hasReader: false` models a device without NFC;
    /// `backgroundTagReading: false` a phone without background tag reading (iPhone X and earlier).
    public convenience init(
        configuration: AppConfiguration = AppConfiguration(), hasReader: Bool = true, recordsFrames: Bool = false,
        backgroundTagReading: Bool = true
    ) {
        self.init(
            configuration: configuration, hasReader: hasReader, recordsFrames: recordsFrames, platform: nil,
            backgroundTagReading: backgroundTagReading)
    }

    /// A phone whose system identifies tags through `platform` (tests of the system's own seams).
    package init(
        configuration: AppConfiguration = AppConfiguration(), hasReader: Bool = true, recordsFrames: Bool = false,
        platform: (any TagPlatform)?, backgroundTagReading: Bool = true
    ) {
        let clock = VirtualClock()
        let field = VirtualField(clock: clock)
        // The phone's own time per detection, activation and command (docs/TIMING.md, "Reader profiles").
        field.readerProfile = .iPhone
        self.clock = clock
        self.field = field
        var opened = SimulatedDevice.open(field: field)
        if !hasReader {
            system = NFCSystem(
                frontend: nil, clock: clock, configuration: configuration,
                platform: platform ?? NFCSystem.standardPlatform)
        } else {
            let p = platform ?? NFCSystem.standardPlatform
            system = NFCSystem(
                frontend: opened.frontend, clock: clock, configuration: configuration, platform: p,
                presence: opened.presence)
            opened.connect?(system)
            opened.connect = nil
        }
        system.recordsFrames = recordsFrames
        system.supportsBackgroundReading = backgroundTagReading
        system.recordsTraps = true
        let box = termination
        system.terminate = { reason in box.set(reason) }
    }

    /// A phone configured from an app's Info.plist and entitlements files (XML or binary).
    public convenience init(
        infoPlist: String?, entitlements: String?, profile: DeviceProfile = .iphone
    ) throws {
        self.init(
            configuration: try AppConfiguration(
                infoPlistPath: infoPlist, entitlementsPath: entitlements, profile: profile))
    }

    /// Whether the phone's reading takes no time. By default (false) every frame advances ``clock`` by its air
    /// time and the iPhone adds its own time per detection, activation and command (docs/TIMING.md), so an app's
    /// timeouts and the sheet's 60 s see the durations of a real read; true keeps the zero-time field of fast tests
    /// (only the tags' own processing and injected latency take time).
    public var isInstant: Bool {
        get { system.synchronized { field.isInstant } }
        set {
            system.synchronized {
                field.isInstant = newValue
                if !newValue { field.readerProfile = .iPhone }
            }
        }
    }

    // MARK: running app code on this phone

    /// Makes every session the process creates outside any phone's `run(_:)` belong to this phone until
    /// ``stop()`` (or until the phone is released): sessions an app creates inside `DispatchQueue.async { … }`, on a
    /// thread of its own, or from a timer. Sessions created inside some phone's `run` — and every session an app
    /// creates from a delegate callback or completion handler of a phone's session — keep belonging to that phone,
    /// so phones of tests running in parallel stay apart as long as each test creates its sessions in its `run`.
    /// With two phones started at once, a session created outside every `run` belongs to neither: it gets a device
    /// without a reader (`readingAvailable` false, 1 at `begin()`) and the reason is printed on stderr.
    ///
    /// ``settle()`` waits for the phone's own callbacks, not for the app's queues: after the app dispatches work of
    /// its own, wait for that queue (`queue.sync {}`) before settling.
    public func start() { NFCSystem.start(system) }

    /// Undoes ``start()``: sessions created outside every `run` go to the process default again.
    public func stop() { NFCSystem.stop(system) }

    /// Whether the phone is ``start()``ed.
    public var isStarted: Bool { NFCSystem.isStarted(system) }

    deinit { NFCSystem.stop(system) }

    /// Runs app code whose sessions belong to this phone.
    public func run<T>(_ body: () throws -> T) rethrows -> T {
        try NFCSystem.$current.withValue(system) { try body() }
    }

    /// Runs async app code whose sessions belong to this phone.
    public func run<T>(_ body: () async throws -> T) async rethrows -> T {
        try await NFCSystem.$current.withValue(system) { try await body() }
    }

    /// Waits until every call the app made has been processed and every delegate callback and completion handler it
    /// caused (and those they caused) has run. Call it from the test, never from a session queue.
    public func settle() { system.waitForCallbacks() }

    // MARK: the field

    /// Puts a virtual tag into the field; returns its handle. Sessions that are scanning see it at once.
    @discardableResult
    public func put(_ tag: any VirtualTag, at position: Int = 0) -> Int {
        settle()
        system.note(
            .user,
            "puts a \(tag.chip) (UID \(tag.activation.uid.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined())) near the phone"
        )
        let handle = system.synchronized { field.place(tag, at: position) }
        settle()
        return handle
    }

    /// Puts "a tag holding this message" into the field: a factory NTAG215 (unless told otherwise) whose NDEF area
    /// holds the raw NDEF message bytes. Bytes that are not a well-formed NDEF message (NFC Forum NDEF 1.0 §3) throw
    /// ``MalformedMessage`` naming the byte offset, rather than making a tag the app could never read (no callback,
    /// no diagnostic); an empty array is an empty, formatted tag. A tag with deliberately broken contents is made
    /// with `Type2Tag.factory` and ``put(_:at:)``.
    @discardableResult
    public func put(
        message: [UInt8], chip: Type2ChipProfile = .ntag215, uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66],
        at position: Int = 0
    ) throws -> Int {
        if !message.isEmpty {
            do {
                _ = try NDEFMessage(decoding: message)
            } catch {
                throw MalformedMessage(offset: error.offset, reason: error.description)
            }
        }
        return put(try Type2Tag.factory(chip, uid: uid, holding: message), at: position)
    }

    /// Puts a tag holding this Core NFC message into the field (the same as ``put(_:chip:uid:at:)``).
    @discardableResult
    public func put(
        message: NFCNDEFMessage, chip: Type2ChipProfile = .ntag215,
        uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], at position: Int = 0
    ) throws -> Int {
        try put(message, chip: chip, uid: uid, at: position)
    }

    /// Bytes given to `put(message:chip:uid:at:)` (the `[UInt8]` form) that are not an NDEF message.
    public struct MalformedMessage: Error, Sendable, Equatable, CustomStringConvertible {
        /// The byte offset in the message where the rule is broken.
        public var offset: Int
        /// The rule broken, in words.
        public var reason: String
        /// "not a valid NDEF message: <reason>".
        public var description: String { "not a valid NDEF message: \(reason)" }
    }

    /// Puts a tag holding this Core NFC message into the field.
    @discardableResult
    public func put(
        _ message: NFCNDEFMessage, chip: Type2ChipProfile = .ntag215,
        uid: [UInt8] = [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], at position: Int = 0
    ) throws -> Int {
        try put(message: Self.encode(message), chip: chip, uid: uid, at: position)
    }

    /// Takes a tag out of the field.
    public func remove(_ handle: Int) {
        settle()
        system.note(.user, "takes tag \(handle) away")
        system.synchronized { _ = field.remove(handle) }
        settle()
    }

    /// Takes every tag out of the field.
    public func removeAllTags() {
        settle()
        if !field.tags.isEmpty { system.note(.user, "takes every tag away") }
        system.synchronized { field.removeAll() }
        settle()
    }

    /// Moves a tag to another position in the field (poll order).
    public func move(_ handle: Int, to position: Int) {
        settle()
        system.synchronized { field.move(handle, to: position) }
        settle()
    }

    /// Installs faults for the frames that follow (frames are numbered from 1 from now on).
    public func inject(_ plan: FaultPlan) {
        settle()
        system.synchronized { field.faultPlan = plan }
    }

    // MARK: the user

    /// The user taps Cancel on the sheet.
    public func tapCancel() {
        settle()
        system.userTappedCancel()
        settle()
    }

    /// The user leaves the app (it moves to the background).
    public func backgroundApp() {
        settle()
        system.appDidEnterBackground()
        settle()
    }

    /// The user comes back to the app.
    public func foregroundApp() {
        settle()
        system.appWillEnterForeground()
        settle()
    }

    // MARK: time

    /// Moves the virtual clock forward, firing every timer on the way at its own instant (a 60 s session timeout,
    /// tags scheduled to arrive or leave), letting the app react after each.
    public func advance(by duration: NFCDuration) {
        settle()
        let target = clock.now.advanced(by: duration)
        while let next = clock.nextDeadline, next <= target {
            system.synchronized { _ = clock.advanceToNextTimer() }
            settle()
        }
        system.synchronized {
            let rest = target.duration(since: clock.now)
            if rest > .zero { clock.advance(by: rest) }
        }
        settle()
    }

    // MARK: what the user sees, what happened

    /// The sheet as the user sees it now.
    public var sheet: SystemSheet {
        settle()
        return system.sheet
    }

    /// The sheet's text ("" when no sheet is shown).
    public var sheetText: String { sheet.isPresented ? sheet.message : "" }

    /// Everything that happened, in virtual time.
    public var transcript: [TranscriptEntry] {
        settle()
        return system.transcript
    }

    /// The transcript as text, one line per entry, optionally only some kinds.
    public func transcriptText(_ kinds: Set<TranscriptEntry.Kind> = Set(TranscriptEntry.Kind.allCases)) -> String {
        transcript.filter { kinds.contains($0.kind) }.map(\.description).joined(separator: "\n")
    }

    /// Adds a line of what the app received to the transcript (demos print it next to the sheet).
    public func note(_ text: String) { system.note(.app, text) }

    /// Adds a line of what the user did to the transcript.
    public func noteUser(_ text: String) { system.note(.user, text) }

    /// Set when the app was terminated (iPhone profile: a session begun without `NFCReaderUsageDescription`).
    public var terminationReason: String? { termination.get() }

    // MARK: helpers

    /// The stored bytes of a Core NFC message (NDEF 1.0 §3, one record per payload, unchunked).
    public static func encode(_ message: NFCNDEFMessage) throws -> [UInt8] {
        try message.unchunkedBytes()
    }
}

private final class TerminationBox: @unchecked Sendable {
    private let lock = NSLock()
    private var reason: String?
    func set(_ r: String) { lock.withLock { reason = r } }
    func get() -> String? { lock.withLock { reason } }
}
