internal import OpenNFCBytes

/// Frames and bytes on the air, counted per exchange after activation (activation frames are not counted:
/// they are the same for every procedure).
package struct FrameCounts: Sendable, Hashable, CustomStringConvertible {
    /// Commands sent (each is one frame, or one ISO-DEP payload, to the tag).
    package var framesSent = 0
    /// Answers received, ACK/NAK included; timeouts and link losses receive nothing.
    package var framesReceived = 0
    package var bytesSent = 0
    package var bytesReceived = 0

    package init() {}

    package var description: String {
        "\(framesSent) frames sent (\(bytesSent) bytes), \(framesReceived) received (\(bytesReceived) bytes)"
    }
}

/// One event seen by an ``InstrumentedFrontend``, in order.
package enum RFTraceEvent: Sendable, Hashable {
    case activated(RFTarget)
    case authenticated(RFAuthentication)
    case sent([UInt8])
    /// The card asked for more time before its answer: the WTXM of each S(WTX) request it sent (ISO/IEC 14443-4
    /// §7.3), reported by a frontend that knows (``AirReporting``), just before the `received` it delays.
    case waitingTimeExtensions([UInt8])
    case received(RFResponse)
    case failed(RFError)
    case deactivated
}

/// Wraps any frontend to count frames and bytes and to report every event as it happens (for `--trace`,
/// transcripts, and the frame-count tests of the reader procedures).
package final class InstrumentedFrontend: RFFrontend {
    package let base: any RFFrontend
    /// `base` as an ``AirReporting`` frontend, found once (asked after every exchange).
    private let airReporting: (any AirReporting)?
    package private(set) var counts = FrameCounts()
    /// Called synchronously for every event.
    package var observer: ((RFTraceEvent) -> Void)?

    package init(_ base: any RFFrontend, observer: ((RFTraceEvent) -> Void)? = nil) {
        self.base = base
        self.airReporting = base as? any AirReporting
        self.observer = observer
    }

    package var capabilities: RFCapabilities { base.capabilities }

    package func resetCounts() { counts = FrameCounts() }

    package func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] {
        try base.poll(request)
    }

    package func authenticate(_ authentication: RFAuthentication) throws(RFError) {
        do {
            try base.authenticate(authentication)
            observer?(.authenticated(authentication))
        } catch {
            observer?(.failed(error))
            throw error
        }
    }

    package func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget {
        do {
            let t = try base.activate(target, isoDEP: isoDEP)
            observer?(.activated(t))
            return t
        } catch {
            observer?(.failed(error))
            throw error
        }
    }

    package func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        counts.framesSent += 1
        counts.bytesSent += command.count
        // Read once for the whole exchange (each read of the stored property is a dynamic exclusivity check).
        let observer = self.observer
        observer?(.sent(command))
        do {
            let r = try base.exchange(command)
            counts.framesReceived += 1
            switch r {
            case .frame(let b): counts.bytesReceived += b.count
            case .ack, .nak: counts.bytesReceived += 1
            }
            if let wtxm = airReporting?.lastWaitingTimeExtensions, !wtxm.isEmpty {
                observer?(.waitingTimeExtensions(wtxm))
            }
            observer?(.received(r))
            return r
        } catch {
            observer?(.failed(error))
            throw error
        }
    }

    package func deactivate() {
        base.deactivate()
        observer?(.deactivated)
    }
}

extension InstrumentedFrontend: AirReporting {
    /// What the wrapped frontend reports (empty when it reports nothing), so a recorder or a tracer above this one
    /// still sees the card's S(WTX).
    package var lastWaitingTimeExtensions: [UInt8] { airReporting?.lastWaitingTimeExtensions ?? [] }
}
