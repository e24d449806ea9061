/// How frames reach a kind of target: which framings a frontend can carry (NFC Forum Digital §4 frame formats).
package enum RFFrameMode: String, Sendable, Hashable, CaseIterable {
    /// Raw NFC-A standard frames without CRC to level-3 tags (Type 2, MIFARE Classic after authentication).
    case nfcA
    /// Type 1 frames (RID, RALL, READ8, …) without CRC: NFC-A without anticollision (NFC Forum Digital §8).
    case type1
    /// ISO-DEP payloads (APDUs, DESFire native commands): block framing, chaining and WTX done by the frontend.
    case isoDEP
    /// FeliCa frames `code IDm …` without LEN and CRC (the frontend adds both; answers come back without them).
    case felica
    /// ISO/IEC 15693 requests `flags command [UID] parameters` without CRC (the frontend adds and checks CRC_15693;
    /// answers are `flags data`).
    case nfcV
}

extension RFFrameMode {
    /// The frame mode a target's frames travel in after activation: ISO-DEP when it speaks it, else its technology's
    /// (a Type 1 tag's frames are named with the NFC-A ones, whose describers try Type 1 first).
    package init(target: RFTarget) {
        if target.isISODEP {
            self = .isoDEP
            return
        }
        switch target.technology {
        case .nfcV: self = .nfcV
        case .nfcF: self = .felica
        case .nfcA, .nfcB: self = .nfcA
        }
    }
}

/// What a frontend can carry, so procedures choose the fewest frames that fit.
package struct RFCapabilities: Sendable, Hashable {
    /// Largest command (frame without CRC, or ISO-DEP INF / APDU) the frontend sends in one exchange.
    package var maxCommandSize: Int
    /// Largest answer the frontend delivers from one exchange (bounds FAST_READ ranges).
    package var maxResponseSize: Int
    /// Whether raw NFC-A frames reach a non-ISO-DEP tag (false for a PC/SC reader without pass-through, which
    /// only offers storage-card pseudo-APDUs).
    package var rawFrames: Bool
    package var technologies: Set<RFTechnology>
    /// The framings this frontend carries (see ``RFFrameMode``).
    package var frameModes: Set<RFFrameMode>
    /// Whether the frontend performs MIFARE Classic authentication (``RFFrontend/authenticate(_:)``).
    package var mifareClassicAuthentication: Bool

    /// A frontend description. Without explicit `frameModes`, ISO-DEP is carried for NFC-A and NFC-B, raw NFC-A and
    /// Type 1 frames when `rawFrames` is true, FeliCa frames for NFC-F and ISO 15693 requests for NFC-V.
    package init(
        maxCommandSize: Int, maxResponseSize: Int, rawFrames: Bool, technologies: Set<RFTechnology>,
        frameModes: Set<RFFrameMode>? = nil, mifareClassicAuthentication: Bool = false
    ) {
        self.maxCommandSize = maxCommandSize
        self.maxResponseSize = maxResponseSize
        self.rawFrames = rawFrames
        self.technologies = technologies
        self.mifareClassicAuthentication = mifareClassicAuthentication
        if let frameModes {
            self.frameModes = frameModes
        } else {
            var modes = Set<RFFrameMode>()
            if !technologies.isDisjoint(with: [.nfcA, .nfcB]) { modes.insert(.isoDEP) }
            if rawFrames && technologies.contains(.nfcA) { modes.formUnion([.nfcA, .type1]) }
            if technologies.contains(.nfcF) { modes.insert(.felica) }
            if technologies.contains(.nfcV) { modes.insert(.nfcV) }
            self.frameModes = modes
        }
    }
}

/// The protocol every backend speaks to the tag procedures: poll → activate → exchange → deactivate.
///
/// This is the NFC Forum Digital/Activity split: a frontend does anticollision, CRCs, ISO-DEP block framing,
/// chaining and waiting-time extensions itself, and hands the layers above whole frames without CRC (NFC-A
/// level 3 targets) or whole ISO-DEP payloads (APDUs, DESFire native commands) for ISO-DEP targets.
///
/// Who owns which bytes of a frame:
///
/// | Technology / mode | The procedures send and receive | The frontend adds and strips |
/// |---|---|---|
/// | NFC-A level 3 (Type 2, MIFARE) | command bytes; answers or 4-bit ACK/NAK | CRC_A, parity; Crypto1 after ``authenticate(_:)`` |
/// | Type 1 | `cmd ADD DATA UID0…UID3` | CRC_B-style Type 1 CRC |
/// | ISO-DEP (NFC-A or NFC-B) | whole APDUs / DESFire native commands | I-block framing, chaining, WTX, CRC |
/// | NFC-F (FeliCa) | `code IDm parameters` — no LEN byte | the LEN byte (counting itself), preamble, sync, CRC |
/// | NFC-V (ISO 15693) | `flags command [UID] parameters`; answers `flags data` | SOF/EOF, CRC_15693 |
///
/// MIFARE Classic after ``authenticate(_:)``: the frontend holds the reader's Crypto1 state; each command gets its
/// CRC_A appended and is enciphered with its parity bits, each answer is deciphered and checked (parity, CRC_A), and
/// enciphered 4-bit answers come back as plain ``RFResponse/ack`` / ``RFResponse/nak(_:)``. A second `authenticate`
/// while enciphered is a nested authentication. Activation and ``deactivate()`` end the enciphered session
/// (docs/ARCHITECTURE.md, "Enciphered NFC-A frames").
///
/// ISO 15693 request flags (addressed, option, high data rate) are the procedures' choice: Core NFC sets the
/// Address flag and the UID itself, so the procedures do too. Poll parameters (FeliCa system code, request code
/// and time slots; ISO 15693 AFI and slots) travel in ``RFPollRequest``.
///
/// Frontends are synchronous and not thread-safe: one serial executor drives each one.
package protocol RFFrontend: AnyObject {
    var capabilities: RFCapabilities { get }

    /// Targets currently in the field for the requested technologies and parameters (may be empty). Polling does
    /// not select.
    func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget]

    /// Selects the target (anticollision, and RATS for ISO-DEP when `isoDEP` is true and the target offers it)
    /// and returns what the activation reported. A target that was muted by a NAK answers again afterwards.
    func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget

    /// Sends one frame (or ISO-DEP payload) to the active target and returns its answer.
    func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse

    /// Releases the active target (HLTA / DESELECT); the next exchange needs a new activation.
    func deactivate()

    /// Authenticates the active target in the frontend (see ``RFAuthentication``); later exchanges are carried
    /// accordingly. Frontends without it throw `unsupported` (the default).
    func authenticate(_ authentication: RFAuthentication) throws(RFError)
}

extension RFFrontend {
    /// Polls these technologies with their default parameters.
    package func poll(_ technologies: Set<RFTechnology>) throws(RFError) -> [RFTarget] {
        try poll(RFPollRequest(technologies))
    }

    package func authenticate(_ authentication: RFAuthentication) throws(RFError) {
        throw RFError(.unsupported, "this frontend cannot perform \(authentication) itself")
    }

    /// Activates the target in its highest protocol: ISO-DEP when it offers it, level 3 otherwise.
    package func activate(_ target: RFTarget) throws(RFError) -> RFTarget {
        try activate(target, isoDEP: target.isISODEP)
    }
}
