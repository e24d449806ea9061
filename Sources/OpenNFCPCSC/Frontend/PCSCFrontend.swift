internal import Foundation
internal import OpenNFCBytes
package import OpenNFCRF

/// The RF frontend over a PC/SC reader, so the reader procedures and Core NFC sessions run over pcscd unchanged.
///
/// | RFFrontend step | PC/SC |
/// |---|---|
/// | `poll` | `SCardGetStatusChange` (no wait) over the reader(s); each card present is connected shared for `FF CA 00 00 00` (UID), then released |
/// | `activate` | `SCardConnect` **exclusive** (no other application touches the tag until `deactivate`); while another application has the tag connected (`SCARD_E_SHARING_VIOLATION`) it waits for the reader's state to change and tries again, for at most ``busyWaitMilliseconds``; profile chosen by ``PCSCProfileSelection`` |
/// | `exchange` | the profile: Part 3 `FF B0`/`FF D6`, ACR122U/ACR1252U pass-through, `FF C2` transparent exchange for ISO 15693, or APDUs for ISO-DEP; a level-3 answer above the profile's `maxResponseSize` is `frameTooLong` naming the limit |
/// | `deactivate` | `SCardDisconnect(SCARD_RESET_CARD)`: the next activation finds the tag freshly selected |
///
/// What PC/SC does not report, and what the target carries instead:
/// * SENS_RES/SEL_RES are not visible through PC/SC. Storage cards get the values their ATR card name implies
///   (Ultralight/NTAG `0x0044`/`0x00`, Classic 1K `0x0004`/`0x08`, Classic 4K `0x0002`/`0x18`); ISO-DEP cards get SAK
///   `0x20` and no SENS_RES.
/// * The ATS is reconstructed from the ATR's historical bytes as `TL 08 <historical bytes>`.
/// * ISO-DEP type A and B cards look the same through PC/SC; they are reported as NFC-A.
/// * ISO 15693 tags: the UID is reported MSB first (`E0 …`) whichever order the reader's `FF CA` uses; DSFID and AFI
///   are not visible (reported 00).
///
/// `capabilities` are exact once a target is active (they come from its profile); before that they are the
/// reader's likely ones. A card that leaves mid-command (an empty successful `SCardTransmit`) throws
/// `RFError.linkLost`; pcscd stopping or the reader being unplugged throws `RFError.frontendFailure` with advice.
package final class PCSCFrontend: RFFrontend {
    package let context: PCSCContext
    /// The reader this frontend uses; nil = every reader pcscd knows (each card present is one target).
    package let readerName: String?
    /// Forces a profile for level-3 tags instead of ``PCSCProfileSelection``.
    package let profileOverride: (any PCSCProfile)?

    struct Entry {
        var reader: String
        var eventCount: UInt16
        var atr: [UInt8]
        var kind: ContactlessCard
        var target: RFTarget
    }

    private var entries: [String: Entry] = [:]
    private var nextHandle = 1
    package private(set) var activeCard: PCSCCard?
    package private(set) var activeProfile: (any PCSCProfile)?
    package private(set) var activeTarget: RFTarget?
    /// The GET_VERSION answer of the active tag, when the profile probe obtained one (tells NTAG from Ultralight).
    package private(set) var activeVersion: NXPVersion?
    /// How long ``activate(_:isoDEP:)`` waits for another application to let the tag go (`SCARD_E_SHARING_VIOLATION`)
    /// before it reports it: a reader shared by several programs (a kiosk's inventory scan, a second `opennfc`) holds a
    /// tag only for the few APDUs of a read, so a short wait turns a collision into a read. 0: report it at once.
    package var busyWaitMilliseconds: UInt32 = 5_000
    /// Called with every APDU and response on the active connection (for `--trace`).
    package var apduObserver: (@Sendable (_ command: [UInt8], _ response: [UInt8]?) -> Void)?

    package init(context: PCSCContext, reader: String? = nil, profile: (any PCSCProfile)? = nil) {
        self.context = context
        self.readerName = reader
        self.profileOverride = profile
    }

    /// A frontend on the system's PC/SC service.
    package convenience init(reader: String? = nil) throws(PCSCError) {
        self.init(context: try PCSCContext(), reader: reader)
    }

    deinit { activeCard?.disconnect(.leave) }

    package var capabilities: RFCapabilities {
        if let activeProfile { return activeProfile.capabilities }
        var c = RFCapabilities(
            maxCommandSize: 252, maxResponseSize: 252, rawFrames: false, technologies: [.nfcA, .nfcB, .nfcF, .nfcV])
        if let r = readerName, PCSCProfileSelection.passThroughProfile(forReaderNamed: r) != nil { c.rawFrames = true }
        return c
    }

    /// The reader, ATR and ATR decoding behind a target returned by ``poll(_:)``.
    package func card(for target: RFTarget) -> (reader: String, atr: [UInt8], kind: ContactlessCard)? {
        entries.values.first { $0.target.handle == target.handle }.map { ($0.reader, $0.atr, $0.kind) }
    }

    private func readerList() throws(RFError) -> [String] {
        if let readerName { return [readerName] }
        do { return try context.requireReaders() } catch { throw RFError(.frontendFailure, error.detail) }
    }

    package func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] {
        let technologies = request.technologies
        let readers = try readerList()
        let states: [PCSCReaderState]
        do { states = try context.states(of: readers) } catch { throw RFError(.frontendFailure, error.detail) }
        var found: [RFTarget] = []
        for s in states {
            if s.eventState.contains(.unknown) {
                entries[s.reader] = nil
                if readerName != nil {
                    throw RFError(
                        .frontendFailure,
                        "no reader named '\(s.reader)'; `opennfc readers` lists the readers pcscd knows")
                }
                continue
            }
            guard s.hasCard, !s.eventState.contains(.mute), !s.atr.isEmpty else {
                entries[s.reader] = nil
                continue
            }
            if let e = entries[s.reader], e.eventCount == s.eventCount, e.atr == s.atr {
                if technologies.contains(e.target.technology) { found.append(e.target) }
                continue
            }
            // The active card keeps its entry while it stays on the reader.
            if activeCard?.reader == s.reader, let e = entries[s.reader], e.atr == s.atr {
                if technologies.contains(e.target.technology) { found.append(e.target) }
                continue
            }
            // The ATR is the one the card gives when connected, not the reader state's: right after a card is swapped
            // pcscd can still report the previous card's ATR, and `activate` compares against what it connects to.
            guard let (atr, uid) = readUID(on: s.reader) else { continue }
            let kind = ContactlessCard(atrBytes: atr)
            guard let technology = kind.technology else { continue }
            let target = makeTarget(kind: kind, technology: technology, uid: uid, handle: nextHandle)
            nextHandle += 1
            entries[s.reader] = Entry(
                reader: s.reader, eventCount: s.eventCount, atr: atr, kind: kind, target: target)
            if technologies.contains(technology) { found.append(target) }
        }
        return found
    }

    /// Waits up to `timeoutMilliseconds` for a card on the reader(s), then polls. Returns [] on timeout.
    package func waitForTargets(
        _ technologies: Set<RFTechnology>, timeoutMilliseconds: UInt32
    ) throws(RFError) -> [RFTarget] {
        let readers = try readerList()
        var states: [PCSCReaderState]
        do { states = try context.states(of: readers) } catch { throw RFError(.frontendFailure, error.detail) }
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMilliseconds) * 1_000_000
        while true {
            let targets = try poll(technologies)
            if !targets.isEmpty { return targets }
            for i in states.indices { states[i].acknowledge() }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return [] }
            let left = UInt32(min(UInt64(UInt32.max - 1), (deadline - now + 999_999) / 1_000_000))
            do {
                if try !context.waitForChange(&states, timeoutMilliseconds: left) { return [] }
            } catch {
                throw RFError(.frontendFailure, error.detail)
            }
        }
    }

    private func readUID(on reader: String) -> (atr: [UInt8], uid: [UInt8])? {
        do {
            let card = try context.connect(reader: reader, share: .shared)
            defer { card.disconnect(.leave) }
            let r = try card.transmit([0xFF, 0xCA, 0x00, 0x00, 0x00])
            return (card.atr, r.isSuccess ? r.data : [])
        } catch {
            return nil  // held exclusively by another application, or gone again: not a target now
        }
    }

    private func makeTarget(kind: ContactlessCard, technology: RFTechnology, uid: [UInt8], handle: Int) -> RFTarget {
        switch kind {
        case .isoDEP(let hist):
            let ats = [UInt8(hist.count + 2), 0x08] + hist
            if technology == .nfcA { return .nfcA(uid: uid, sensRes: nil, selRes: 0x20, ats: ats, handle: handle) }
            return RFTarget(.identifierOnly(technology, uid), handle: handle)
        case .storage(_, let name) where technology == .nfcA && PCSCProfileSelection.type1CardNames.contains(name):
            // Type 1: no anticollision, no SEL_RES; HR0/HR1 are not in the ATR (RALL returns them).
            return RFTarget(.nfcA(NFCAActivation(uid: uid, sensRes: 0x0C00, selRes: nil)), handle: handle)
        case .storage(_, let name) where technology == .nfcA:
            let (atqa, sak): (UInt16?, UInt8?) =
                switch name {
                case 0x0001: (0x0004, 0x08)
                case 0x0002: (0x0002, 0x18)
                case 0x0026: (0x0004, 0x09)
                case 0x0003, 0x003A, 0x003D: (0x0044, 0x00)
                default: (nil, nil)
                }
            return .nfcA(uid: uid, sensRes: atqa, selRes: sak, handle: handle)
        case .storage where technology == .nfcF:
            // FeliCa: `FF CA` gives the IDm; PMm is not in the ATR (Polling through a pass-through profile returns it).
            return RFTarget(
                .nfcF(NFCFActivation(idm: uid, pmm: [], bitRate: kind.feliCaBitRate ?? 212)), handle: handle)
        case .storage where technology == .nfcV:
            // Readers differ in the order of an ISO 15693 UID from FF CA: the `E0` byte says which end is the MSB.
            let msbFirst = uid.count == 8 && uid.last == 0xE0 && uid.first != 0xE0 ? Array(uid.reversed()) : uid
            // DSFID and AFI are not visible through PC/SC: reported as 00.
            return RFTarget(.nfcV(NFCVActivation(uid: msbFirst, dsfid: 0)), handle: handle)
        default:
            return RFTarget(.identifierOnly(technology, uid), handle: handle)
        }
    }

    package func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget {
        deactivate()
        guard let entry = entries.values.first(where: { $0.target.handle == target.handle }) else {
            throw RFError(.notActivated, "target \(target.handle) is no longer on any reader; poll again")
        }
        let card: PCSCCard
        do {
            card = try connectExclusively(entry.reader)
        } catch {
            if error.code == .noCard || error.code == .cardRemoved { entries[entry.reader] = nil }
            throw error.code == .noCard || error.code == .cardRemoved
                ? RFError(.linkLost, error.detail) : RFError(.frontendFailure, error.detail)
        }
        guard card.atr == entry.atr else {
            card.disconnect(.leave)
            entries[entry.reader] = nil
            throw RFError(.linkLost, "another tag took the place of target \(target.handle) on '\(entry.reader)'")
        }
        card.observer = apduObserver
        var version: NXPVersion?
        let profile: any PCSCProfile
        if let profileOverride, !entry.target.isISODEP {
            profile = profileOverride
        } else {
            let choice = PCSCProfileSelection.choose(for: entry.kind, card: card)
            profile = choice.profile
            version = choice.version
            if choice.tagWentMute {
                do { try card.reset() } catch {
                    card.disconnect(.leave)
                    throw error.rfError
                }
            }
        }
        do { try profile.begin(on: card) } catch {
            card.disconnect(.leave)
            throw error
        }
        activeCard = card
        activeProfile = profile
        activeTarget = entry.target
        activeVersion = version
        return entry.target
    }

    package func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        guard let card = activeCard, let profile = activeProfile else {
            throw RFError(.notActivated, "no tag is activated on the PC/SC frontend")
        }
        do throws(RFError) {
            let response = try profile.exchange(command, on: card)
            // A level-3 answer longer than the profile carries (a FAST_READ of a whole NTAG216 through a reader
            // that bounds its frames) is refused by name, never reported as a timeout. ISO-DEP answers are passed on
            // whole: PC/SC readers carry extended-length responses.
            let limit = profile.capabilities.maxResponseSize
            if !(activeTarget?.isISODEP ?? false), case .frame(let bytes) = response, bytes.count > limit {
                throw RFError(
                    .frameTooLong,
                    "answer of \(bytes.count) bytes exceeds the frontend's \(limit)-byte limit (\(profile.name))")
            }
            return response
        } catch {
            if error.code == .linkLost { forget(card) }
            throw error
        }
    }

    /// MIFARE Classic authentication through the active profile (``MifareClassicProfile``: LOAD KEYS and GENERAL
    /// AUTHENTICATE); `unsupported` for any other card or authentication.
    package func authenticate(_ authentication: RFAuthentication) throws(RFError) {
        guard let card = activeCard, let profile = activeProfile else {
            throw RFError(.notActivated, "no tag is activated on the PC/SC frontend")
        }
        guard let classic = profile as? MifareClassicProfile,
            case .mifareClassic(let block, let keyType, let key) = authentication
        else {
            throw RFError(.unsupported, "the \(profile.name) profile cannot perform \(authentication)")
        }
        do throws(RFError) {
            try classic.authenticate(block: block, keyType: keyType, key: key, on: card)
        } catch {
            if error.code == .linkLost { forget(card) }
            throw error
        }
    }

    /// `SCardConnect` exclusive on `reader`; while another application has the tag connected, waits (on
    /// `SCardGetStatusChange`, so without spinning) for the reader's state to change, then tries again, until
    /// ``busyWaitMilliseconds`` have passed.
    private func connectExclusively(_ reader: String) throws(PCSCError) -> PCSCCard {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(busyWaitMilliseconds) * 1_000_000
        while true {
            do {
                return try context.connect(reader: reader, share: .exclusive)
            } catch  where error.code == .sharingViolation {
                let now = DispatchTime.now().uptimeNanoseconds
                guard now < deadline else { throw error }
                var states = try context.states(of: [reader])
                states[0].acknowledge()
                // Short waits: a client releasing the tag does not always change the state pcscd reports.
                let left = UInt32(min(50, (deadline - now + 999_999) / 1_000_000))
                _ = try context.waitForChange(&states, timeoutMilliseconds: left)
            }
        }
    }

    /// The card left mid-command: drop the connection and its entry, so the next poll reports the reader afresh.
    private func forget(_ card: PCSCCard) {
        card.disconnect(.leave)
        activeCard = nil
        activeProfile = nil
        activeTarget = nil
        entries[card.reader] = nil
    }

    package func deactivate() {
        guard let card = activeCard else { return }
        activeProfile?.end(on: card)
        card.disconnect(.reset)
        activeCard = nil
        activeProfile = nil
        activeTarget = nil
        activeVersion = nil
    }
}
