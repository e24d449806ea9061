package import OpenNFCRF
internal import Synchronization

/// A deterministic RF field with virtual tags in it: the card side of a reader's antenna, for every technology.
///
/// Tags are placed at integer positions (poll order follows position, then arrival), removed, moved, or scheduled to
/// arrive and leave at instants of the injected ``VirtualClock``. The field itself is technology-neutral (place,
/// move, remove, faults, transcript, clock); one air interface per technology does what the standards leave to the
/// reader's chip and the card's front end: NFC-A anticollision, SELECT, RATS and HLTA (ISO/IEC 14443-3/-4); NFC-B
/// REQB/ATQB, ATTRIB and HLTB; NFC-F Polling with time slots (JIS X 6319-4); NFC-V Inventory with 1 or 16 slots and
/// masks (ISO/IEC 15693-3). Each technology has its own timing (``timing(for:)``). Tags see only frames without CRC
/// (level 3, FeliCa without LEN, ISO 15693 requests) or ISO-DEP payloads (``VirtualTag``).
///
/// | Feature | Supported | Notes |
/// |---|---|---|
/// | Several tags at once | yes | `poll` returns all that answer; one is active at a time, selecting another idles the first |
/// | NFC-A | yes | REQA/WUPA, HLTA (`halt()` or a raw `50 00`), RATS on `activate(isoDEP: true)` or a raw `E0 xx` |
/// | NFC-B | yes | REQB/WUPB with AFI, ATTRIB, HLTB (`50` + PUPI) |
/// | NFC-F | yes | Polling handed to the cards (system code, request code), time slots with collisions |
/// | NFC-V | yes | Inventory handed to the tags (AFI, mask, quiet state in the tag), 16-slot anticollision |
/// | ISO-DEP blocks, chaining | abstracted | each exchange carries one whole payload; its blocks are timed by the model |
/// | WTX | yes | a card whose ``VirtualTag/processingTime(for:)`` outlasts its FWT sends S(WTX) (ISO/IEC 14443-4 §7.3): the frames are in ``lastExchangeAir`` and on the clock |
/// | Air time | yes | ``VirtualTiming`` per technology, frame by frame by ``AirTimeModel`` (docs/TIMING.md); tag processing time via ``VirtualTag/processingTime(for:)``; polling itself costs no time |
/// | Reader time | optional | ``readerProfile``: what a reader adds per activation and exchange (a ``VirtualPhone`` uses the iPhone's) |
/// | Faults | yes | ``FaultPlan``: removal, tearing, mute tag, RF errors, latency |
///
/// Not thread-safe: drive the field, and advance its clock, from one serial executor. (It is `@unchecked Sendable`
/// only so timers on the clock can reach it.)
package final class VirtualField: @unchecked Sendable {
    /// What the field reports about each tag arriving, leaving or moving.
    package enum Event: Sendable, Hashable {
        case placed(handle: Int)
        case removed(handle: Int)
        case moved(handle: Int, position: Int)
    }

    /// The clock every air time, latency and scheduled arrival runs on.
    package let clock: VirtualClock
    /// Air-interface durations per technology; a technology without an entry uses ``VirtualTiming/standard(for:)``.
    package var timings: [RFTechnology: VirtualTiming]
    /// Faults for the frames that follow; installing a plan restarts frame numbering at 1.
    package var faultPlan: FaultPlan = .none { didSet { framesExchanged = 0 } }
    /// Whether events are appended to ``transcript``.
    package var isRecording: Bool {
        get { recording.load(ordering: .relaxed) }
        set { recording.store(newValue, ordering: .relaxed) }
    }
    /// ``isRecording``, which ``record(_:_:)`` reads about ten times a session: an atomic's relaxed load, where the
    /// stored property's read was a dynamic exclusivity check.
    private let recording: Atomic<Bool>
    /// What happened while ``isRecording`` was true.
    package private(set) var transcript = FieldTranscript()
    /// Exchanges since the fault plan was installed (or the field created).
    package internal(set) var framesExchanged = 0
    /// The frames the last exchange put on the air by the model (S(WTX) requests and responses included), empty
    /// without a model.
    package var lastExchangeAir: [AirFrame] { lastAir.frames }
    /// The S(WTX) requests among ``lastExchangeAir``: the WTXM of each (ISO/IEC 14443-4 §7.3).
    package var lastWaitingTimeExtensions: [UInt8] {
        // Asked after every exchange: a level-3 exchange (no S(WTX)) answers without copying what it keeps.
        if case .nfcALevel3 = lastAir { return [] }
        return lastAir.waitingTimeExtensions
    }
    var lastAir = LastExchangeAir.frames([])
    /// The tag the reader has selected, if any.
    package internal(set) var activeHandle: Int?
    /// What the reader adds beyond the air time (detection and activation, each exchange), nil for none.
    package var readerProfile: ReaderProfile?
    /// The tag activated last: activating it again costs the reader no detection time.
    private var lastActivated: Int?

    /// Whether nothing takes time (every technology ``VirtualTiming/instant``, no reader profile): the zero-time
    /// field of fast tests. Setting it false restores the standard timings.
    package var isInstant: Bool {
        get {
            timings.count == RFTechnology.allCases.count && timings.values.allSatisfy { $0 == .instant }
                && readerProfile == nil
        }
        set {
            timings =
                newValue
                ? Dictionary(uniqueKeysWithValues: RFTechnology.allCases.map { ($0, VirtualTiming.instant) }) : [:]
            if newValue { readerProfile = nil }
        }
    }

    /// The tags in the field, in poll order (VirtualField+Exchange.swift delivers frames to them).
    var entries: [FieldEntry] = []
    private var nextHandle = 1
    private var pendingArrivals: [Int: (tag: any VirtualTag, position: Int)] = [:]
    private var nextArrival = 1
    private var observers: [Int: (Event) -> Void] = [:]
    private var nextObserver = 1
    /// Each technology's air interface (a switch rather than a dictionary: it is asked on every frame).
    static func airInterface(_ technology: RFTechnology) -> any VirtualAirInterface {
        switch technology {
        case .nfcA: NFCAAirInterface()
        case .nfcB: NFCBAirInterface()
        case .nfcF: NFCFAirInterface()
        case .nfcV: NFCVAirInterface()
        }
    }

    /// A field on `clock`. With a `timing`, every technology uses it (``VirtualTiming/instant`` makes a field where
    /// only faults and tag processing take time); without, each uses its standard timing.
    package init(clock: VirtualClock, timing: VirtualTiming? = nil, recording: Bool = false) {
        self.clock = clock
        self.timings =
            timing.map { t in Dictionary(uniqueKeysWithValues: RFTechnology.allCases.map { ($0, t) }) } ?? [:]
        self.recording = Atomic(recording)
    }

    /// The air-interface durations of a technology.
    package func timing(for technology: RFTechnology) -> VirtualTiming {
        timings.isEmpty ? .standard(for: technology) : timings[technology] ?? .standard(for: technology)
    }

    // MARK: Tags in the field

    /// The tags now in the field, in poll order.
    package var tags: [(handle: Int, tag: any VirtualTag, position: Int)] {
        entries.map { ($0.handle, $0.tag, $0.position) }
    }

    /// The handles of the tags now in the field (what a system asks to know which tags are still present, at the
    /// end of every session): built when first asked after a tag entered or left, then handed out as it is.
    package var handles: Set<Int> {
        if let present { return present }
        var s = Set<Int>(minimumCapacity: entries.count)
        for e in entries { s.insert(e.handle) }
        present = s
        return s
    }
    /// ``handles`` as last built; dropped by ``place(_:at:)`` and ``remove(_:)``, the only changes of which handles
    /// are in ``entries`` (the air interfaces change an entry's state, never its handle).
    private var present: Set<Int>?

    /// The tag with this handle, if it is in the field.
    package func tag(_ handle: Int) -> (any VirtualTag)? { entries.first { $0.handle == handle }?.tag }

    /// Puts a tag into the field (it powers up) and returns its handle, unique for this field. A tag object that is
    /// already in the field stays where it is and keeps its handle (one chip cannot be in two places).
    @discardableResult
    package func place(_ tag: any VirtualTag, at position: Int = 0) -> Int {
        if let present = entries.first(where: { $0.tag === tag }) { return present.handle }
        let handle = nextHandle
        nextHandle += 1
        tag.powerOn()
        let entry = FieldEntry(handle: handle, tag: tag, position: position)
        let index = entries.firstIndex { $0.position > position } ?? entries.endIndex
        entries.insert(entry, at: index)
        present = nil
        record(handle, .placed(chip: tag.chip, uid: tag.activation.uid, position: position))
        notify(.placed(handle: handle))
        return handle
    }

    /// Puts a tag into the field for `duration` of virtual time, then takes it out again.
    @discardableResult
    package func place(_ tag: any VirtualTag, at position: Int = 0, for duration: NFCDuration) -> Int {
        let handle = place(tag, at: position)
        clock.schedule(after: duration) { [weak self] in self?.remove(handle) }
        return handle
    }

    /// Puts a tag into the field once `delay` of virtual time has passed (a timer on the clock).
    package func place(_ tag: any VirtualTag, at position: Int = 0, after delay: NFCDuration) {
        let id = nextArrival
        nextArrival += 1
        pendingArrivals[id] = (tag, position)
        clock.schedule(after: delay) { [weak self] in self?.arrive(id) }
    }

    private func arrive(_ id: Int) {
        guard let pending = pendingArrivals.removeValue(forKey: id) else { return }
        place(pending.tag, at: pending.position)
    }

    /// Takes the tag out of the field (it loses power; its memory stays in the object). Returns it, or nil when no
    /// tag has this handle.
    @discardableResult
    package func remove(_ handle: Int) -> (any VirtualTag)? {
        guard let i = entries.firstIndex(where: { $0.handle == handle }) else { return nil }
        let entry = entries.remove(at: i)
        present = nil
        // An active tag that leaves stays "active" until the reader's next exchange, which then fails with linkLost.
        record(handle, .removed)
        notify(.removed(handle: handle))
        return entry.tag
    }

    /// Takes every tag out of the field.
    package func removeAll() {
        for entry in entries { remove(entry.handle) }
    }

    /// Moves a tag to another position inside the field (it keeps power and state; only poll order changes).
    package func move(_ handle: Int, to position: Int) {
        guard let i = entries.firstIndex(where: { $0.handle == handle }) else { return }
        var entry = entries.remove(at: i)
        entry.position = position
        let index = entries.firstIndex { $0.position > position } ?? entries.endIndex
        entries.insert(entry, at: index)
        record(handle, .moved(position: position))
        notify(.moved(handle: handle, position: position))
    }

    /// Takes the tag out and puts it back after `outFor` of virtual time (a user lifting the phone off a tag).
    /// It powers up again with a new handle; returns nil when no tag has this handle.
    package func moveOut(_ handle: Int, for outFor: NFCDuration, returningTo position: Int? = nil) {
        guard let entry = entries.first(where: { $0.handle == handle }) else { return }
        remove(handle)
        place(entry.tag, at: position ?? entry.position, after: outFor)
    }

    /// Switches the field off and on: every tag loses power (volatile state cleared, HALT left), none is active.
    package func powerCycle() {
        activeHandle = nil
        record(nil, .powerCycled)
        for i in entries.indices {
            entries[i].state = .idle
            entries[i].tag.powerOn()
        }
    }

    /// Registers a closure called synchronously for every arrival, removal and move; returns a token for
    /// ``removeObserver(_:)``.
    @discardableResult
    package func addObserver(_ observer: @escaping (Event) -> Void) -> Int {
        let id = nextObserver
        nextObserver += 1
        observers[id] = observer
        return id
    }

    /// Stops calling the observer registered under `token`.
    package func removeObserver(_ token: Int) { observers[token] = nil }

    /// Empties the transcript.
    package func clearTranscript() { transcript = FieldTranscript() }

    // MARK: Reader side

    /// The tags that answer an NFC-A REQA (`wakeUp: false`: idle tags only) or WUPA (`wakeUp: true`: halted ones too)
    /// and every other technology's default poll, for the given technologies, in poll order.
    package func poll(_ technologies: Set<RFTechnology>, wakeUp: Bool = true) -> [RFTarget] {
        var request = RFPollRequest(technologies)
        if request.nfcA != nil { request.nfcA?.wakeUp = wakeUp }
        if request.nfcB != nil { request.nfcB?.wakeUp = wakeUp }
        return poll(request)
    }

    /// The tags that answer `request`, technology by technology (NFC-A, NFC-B, NFC-F, NFC-V), each technology's
    /// targets in its own poll order. Polling selects nothing and costs no virtual time.
    package func poll(_ request: RFPollRequest) -> [RFTarget] {
        var found: [RFTarget] = []
        // The entries read once (not through the class's property per tag), and each tag's technology asked once
        // per poll (a tag computes its activation on demand).
        let all = entries
        guard !all.isEmpty else { return found }
        let technologies = all.map { $0.tag.technology }
        for technology in RFTechnology.allCases where request.polls(technology) && technologies.contains(technology) {
            var indices: [Int] = []
            for i in all.indices where !all[i].mutedByFault && technologies[i] == technology { indices.append(i) }
            guard !indices.isEmpty else { continue }
            var subset = indices.map { entries[$0] }
            let answers = Self.airInterface(technology).poll(&subset, request: request)
            for (k, i) in indices.enumerated() { entries[i] = subset[k] }
            for answer in answers { found.append(RFTarget(answer.activation, handle: answer.handle)) }
        }
        return found
    }

    /// Selects the tag (its technology's activation: anticollision and SELECT, then RATS when `isoDEP` is true and
    /// the tag has an ATS; ATTRIB for NFC-B; nothing more for NFC-F and NFC-V). The tag is reset
    /// (``VirtualTag/reset()``): a tag muted by a NAK answers again. Another active tag goes idle.
    package func activate(_ handle: Int, isoDEP: Bool) throws(RFError) -> RFTarget {
        guard let i = entries.firstIndex(where: { $0.handle == handle }) else {
            throw fail(handle, RFError(.linkLost, "no tag with handle \(handle) in the field"))
        }
        let technology = entries[i].tag.technology
        let timing = timing(for: technology)
        if entries[i].mutedByFault {
            clock.advance(by: timing.silenceTimeout)
            let what =
                switch technology {
                case .nfcA: "WUPA"
                case .nfcB: "WUPB"
                case .nfcF: "Polling"
                case .nfcV: "Inventory"
                }
            throw fail(handle, RFError(.timeout, "the tag does not answer \(what)"))
        }
        if let previous = activeHandle, previous != handle,
            let j = entries.firstIndex(where: { $0.handle == previous })
        {
            entries[j].state = .idle
        }
        entries[i].tag.reset()
        let (activation, usesISODEP) = Self.airInterface(technology).activate(&entries[i], isoDEP: isoDEP)
        let t = RFTarget(activation, handle: handle)
        if let model = timing.model {
            clock.advance(by: model.activationTotal(t, isoDEP: usesISODEP).duration)
        } else {
            clock.advance(by: timing.activation)
            if usesISODEP { clock.advance(by: timing.rats) }
        }
        if let profile = readerProfile {
            // Detection is paid once per tag arriving; re-activating the same tag (a session's reconnect) is not.
            clock.advance(by: lastActivated == handle ? profile.activation : profile.detection + profile.activation)
        }
        lastActivated = handle
        activeHandle = handle
        record(handle, .activated(t))
        return t
    }

    /// Releases the active tag: HLTA (level 3) or DESELECT (ISO-DEP) into HALT until a wake-up; NFC-F and NFC-V
    /// tags, which have no HALT, just stop being the active one.
    package func halt() {
        guard let handle = activeHandle else { return }
        activeHandle = nil
        if let i = entries.firstIndex(where: { $0.handle == handle }) {
            let technology = entries[i].tag.technology
            let timing = timing(for: technology)
            let isoDEP = entries[i].state == .active(isoDEP: true)
            if let bytes = Self.airInterface(technology).release(&entries[i]) {
                clock.advance(
                    by: timing.model.map { $0.releaseTotal(technology: technology, isoDEP: isoDEP).duration }
                        ?? timing.frameTime(bytes))
                record(handle, .halted)
            }
        }
    }

    func fail(_ handle: Int?, _ error: RFError) -> RFError {
        record(handle, .failure(error))
        return error
    }

    /// Appends an event to the transcript while recording; the event is built only then.
    func record(_ handle: Int?, _ event: @autoclosure () -> FieldTranscript.Event) {
        guard isRecording else { return }
        transcript.entries.append(FieldTranscript.Entry(time: clock.now, handle: handle, event: event()))
    }

    private func notify(_ event: Event) {
        for id in observers.keys.sorted() { observers[id]?(event) }
    }
}
