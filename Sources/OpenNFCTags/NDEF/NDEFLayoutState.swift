internal import OpenNFCRF

/// What NDEF detection left behind on a tag whose NDEF lives in a TLV area (Type 1, Type 2): nothing yet, no NDEF
/// (and why), or the layout found. Detection runs once per activation; later operations reuse its result.
enum NDEFLayoutState<Layout: NDEFLayoutDescribing> {
    case unknown
    case notNDEF(String)
    case ndef(Layout)
}

/// A detected layout that can say what `queryNDEFStatus` reports.
protocol NDEFLayoutDescribing {
    var detection: NDEFDetection { get }
}

/// A procedure that detects its layout once (``detectionProcedure()``) and keeps it in ``state``.
protocol LayoutDetectingProcedure: AnyObject {
    associatedtype Layout: NDEFLayoutDescribing
    var state: NDEFLayoutState<Layout> { get set }
    /// The detection procedure proper: CC checks, then the TLV walk.
    func detectionProcedure() throws(TagError) -> NDEFLayoutState<Layout>
}

extension LayoutDetectingProcedure {
    /// The layout, detecting it on first use.
    func detectLayout() throws(TagError) -> NDEFLayoutState<Layout> {
        if case .unknown = state { state = try detectionProcedure() }
        return state
    }

    /// The NDEF layout, or `notFormatted` (with the detection's reason).
    func requireLayout() throws(TagError) -> Layout {
        switch try detectLayout() {
        case .ndef(let layout): return layout
        case .notNDEF(let reason): throw TagError(.notFormatted, reason)
        case .unknown: preconditionFailure("detection left no state")
        }
    }

    /// `queryNDEFStatus`: a tag without NDEF is reported, not thrown.
    func detectedStatus() throws(TagError) -> NDEFDetection {
        switch try detectLayout() {
        case .ndef(let layout): return layout.detection
        case .notNDEF(let reason): return .notSupported(reason)
        case .unknown: preconditionFailure("detection left no state")
        }
    }
}

extension RFError {
    /// A timeout or a transmission error: the command may not have reached the tag, so a read (which changes
    /// nothing) may be sent again; a write never is.
    var allowsRepeatingARead: Bool { code == .timeout || code == .transmission }
}

extension RFFrontend {
    /// One exchange, with an RF failure reported as a ``TagError`` naming the command (the name is built only then).
    func exchange(_ command: [UInt8], naming name: @autoclosure () -> String) throws(TagError) -> RFResponse {
        do {
            return try exchange(command)
        } catch {
            throw .rf(error, during: name())
        }
    }
}
