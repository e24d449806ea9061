internal import OpenNFCBytes

/// Frames and bytes on the air, counted per exchange after activation (activation frames are not counted:
/// they are the same for every procedure).
public struct FrameCounts: Sendable, Hashable, CustomStringConvertible {
    /// Commands sent (each is one frame, or one ISO-DEP payload, to the tag).
    public var framesSent = 0
    /// Answers received, ACK/NAK included; timeouts and link losses receive nothing.
    public var framesReceived = 0
    public var bytesSent = 0
    public var bytesReceived = 0

    public init() {}

    public var description: String {
        "\(framesSent) frames sent (\(bytesSent) bytes), \(framesReceived) received (\(bytesReceived) bytes)"
    }
}

/// One event seen by an ``InstrumentedFrontend``, in order.
public enum RFTraceEvent: Sendable, Hashable {
    case activated(RFTarget)
    case authenticated(RFAuthentication)
    case sent([UInt8])
    case received(RFResponse)
    case failed(RFError)
    case deactivated
}

/// Wraps any frontend to count frames and bytes and to report every event as it happens (for `--trace`,
/// transcripts, and the frame-count tests of the reader procedures).
public final class InstrumentedFrontend: RFFrontend {
    public let base: any RFFrontend
    public private(set) var counts = FrameCounts()
    /// Called synchronously for every event.
    public var observer: ((RFTraceEvent) -> Void)?

    public init(_ base: any RFFrontend, observer: ((RFTraceEvent) -> Void)? = nil) {
        self.base = base
        self.observer = observer
    }

    public var capabilities: RFCapabilities { base.capabilities }

    public func resetCounts() { counts = FrameCounts() }

    public func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] {
        try base.poll(request)
    }

    public func authenticate(_ authentication: RFAuthentication) throws(RFError) {
        do {
            try base.authenticate(authentication)
            observer?(.authenticated(authentication))
        } catch {
            observer?(.failed(error))
            throw error
        }
    }

    public func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget {
        do {
            let t = try base.activate(target, isoDEP: isoDEP)
            observer?(.activated(t))
            return t
        } catch {
            observer?(.failed(error))
            throw error
        }
    }

    public func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        counts.framesSent += 1
        counts.bytesSent += command.count
        observer?(.sent(command))
        do {
            let r = try base.exchange(command)
            counts.framesReceived += 1
            switch r {
            case .frame(let b): counts.bytesReceived += b.count
            case .ack, .nak: counts.bytesReceived += 1
            }
            observer?(.received(r))
            return r
        } catch {
            observer?(.failed(error))
            throw error
        }
    }

    public func deactivate() {
        base.deactivate()
        observer?(.deactivated)
    }
}
