internal import Foundation
internal import OpenNFCBytes
internal import OpenNFCHTTP
internal import OpenNFCRF
internal import OpenNFCRemote

/// The app connection (`/app`, docs/FIELD.md "The app protocol").
extension FieldServer {
    static var appLimits: WebSocket.Limits {
        WebSocket.Limits(
            maxFrame: FieldProtocol.maxMessageBytes, maxMessage: FieldProtocol.maxMessageBytes,
            frameTimeoutMilliseconds: FieldProtocol.requestTimeoutMilliseconds)
    }

    /// Who holds the app slot, for the refusal of a second app.
    func appRefusal() -> String? {
        lock.withLock {
            app.map { "another app is connected to this field: \($0.name) (pid \($0.pid)); only one app at a time" }
        }
    }

    /// Runs one app connection on its thread until it ends.
    func serveApp(_ ws: WebSocket) {
        // The hello comes first.
        let hello: FieldProtocol.Request
        do {
            guard case .text(let text)? = try ws.receive() else {
                ws.close(WebSocketClose.policyViolation, "the first message must be a hello")
                return
            }
            hello = try FieldProtocol.Request(text)
        } catch let problem as RFWire.Problem {
            ws.close(WebSocketClose.invalidPayload, "message 1: \(problem)")
            return
        } catch {
            return
        }
        guard case .hello(let version, let name, let pid) = hello else {
            ws.close(WebSocketClose.policyViolation, "the first message must be a hello")
            return
        }
        guard version == FieldProtocol.version else {
            ws.close(
                WebSocketClose.policyViolation,
                "protocol version \(version) is not supported; this field speaks \(FieldProtocol.version)")
            return
        }
        let token: Int? = lock.withLock {
            if app != nil { return nil }
            let t = nextAppToken
            nextAppToken += 1
            app = App(name: name, pid: pid, socket: ws, token: t)
            revision += 1
            return t
        }
        guard let token else {
            ws.close(WebSocketClose.policyViolation, appRefusal() ?? "another app is connected")
            return
        }
        log("app", "\(name) (pid \(pid)) connected")
        defer {
            lock.withLock {
                if app?.token == token {
                    app = nil
                    sheet = FieldProtocol.Sheet()
                    polling = false
                    virtualFrontend.deactivate()
                    appLeftCard()
                    revision += 1
                }
            }
            log("app", "\(name) (pid \(pid)) disconnected")
        }
        do {
            try ws.send(
                text: FieldProtocol.Reply.welcome(
                    version: FieldProtocol.version, capabilities: virtualFrontend.capabilities
                )
                .json.compact)
        } catch {
            return
        }
        var count = 1
        while true {
            let message: WebSocket.Message?
            do {
                message = try ws.receive()
            } catch {
                return
            }
            count += 1
            guard case .text(let text)? = message else {
                if message != nil {
                    ws.close(
                        WebSocketClose.unsupportedData, "message \(count): binary messages are not part of the protocol"
                    )
                }
                return
            }
            let request: FieldProtocol.Request
            do {
                request = try FieldProtocol.Request(text)
            } catch {
                log("app", "closed: message \(count) is malformed: \(error)")
                ws.close(WebSocketClose.invalidPayload, "message \(count): \(error)")
                return
            }
            guard let reply = lock.withLock({ perform(request) }) else { continue }
            do {
                try ws.send(text: reply.json.compact)
            } catch {
                return
            }
        }
    }

    /// Answers one request on the field (under the lock).
    private func perform(_ request: FieldProtocol.Request) -> FieldProtocol.Reply? {
        switch request {
        case .hello:
            return nil
        case .card(let present, let aids):
            cardPresence(present, aids: aids)
            return nil
        case .cardEvent(let e):
            cardEvent(e)
            return nil
        case .answer(let n, let response):
            cardAnswered(n, response)
            return nil
        case .appEvent(let text):
            log("app", text)
            if text.hasPrefix("didInvalidate") { setPolling(false) }
            return nil
        case .sheet(let s):
            if s != sheet {
                sheet = s
                revision += 1
                log("sheet", s.presented ? "[\(s.title)] \(s.glyph == "error" ? "⚠︎ " : "")\(s.message)" : "closed")
            }
            return nil
        case .poll(let id, let request):
            setPolling(true)
            do {
                return .result(id: id, .targets(try virtualFrontend.poll(request)))
            } catch {
                return .result(id: id, .failed(error))
            }
        case .authenticate(let id, let authentication):
            do {
                try virtualFrontend.authenticate(authentication)
                log("rf", "# authenticated: \(authentication)")
                return .result(id: id, .done)
            } catch {
                log("rf", "# authentication failed: \(error)")
                return .result(id: id, .failed(error))
            }
        case .activate(let id, let handle, let isoDEP):
            let present = (try? virtualFrontend.poll(Set(RFTechnology.allCases))) ?? []
            guard let target = present.first(where: { $0.handle == handle }) else {
                log("rf", "activate handle \(handle): no such tag in the field")
                return .result(id: id, .failed(RFError(.linkLost, "no tag with handle \(handle) in the field")))
            }
            do {
                let t = try virtualFrontend.activate(target, isoDEP: isoDEP)
                activeMode = RFFrameMode(target: t)
                activeTarget = t
                setPolling(false)
                touch(handle)
                log("rf", "# activated: \(t)", air: AirTimeModel.standard.activation(t, isoDEP: t.isISODEP))
                return .result(id: id, .target(t))
            } catch {
                log("rf", "# activation failed: \(error)")
                return .result(id: id, .failed(error))
            }
        case .exchange(let id, let frame):
            lastCommand = frame
            log("out", "> \(Hex.encode(frame))", describer.command(frame, activeMode))
            let handle = field.activeHandle
            do {
                let r = try virtualFrontend.exchange(frame)
                if let handle { touch(handle) }
                // A raw RATS moves a level-3 activation to ISO-DEP.
                if frame.count == 2 && frame[0] == 0xE0, case .frame = r { activeMode = .isoDEP }
                let text: String
                switch r {
                case .frame(let b): text = "< \(Hex.encode(b))"
                case .ack: text = "< 0A"
                case .nak(let n): text = "< NAK \(n)"
                }
                log(
                    "in", text, describer.answer(r, frame, activeMode),
                    air: activeTarget.map {
                        // With the S(WTX) the card sent before answering (ISO/IEC 14443-4 §7.3).
                        AirTimeModel.standard.exchange(
                            frame, answer: r, target: $0, isoDEP: activeMode == .isoDEP,
                            wtxm: virtualFrontend.lastWaitingTimeExtensions)
                    } ?? [])
                return .result(id: id, .response(r))
            } catch {
                log(
                    "in", error.code == .timeout ? "< TIMEOUT" : "< \(error)",
                    air: activeTarget.map {
                        AirTimeModel.standard.exchange(frame, answer: nil, target: $0, isoDEP: activeMode == .isoDEP)
                    } ?? [])
                if let handle { touch(handle) }
                return .result(id: id, .failed(error))
            }
        case .deactivate(let id):
            if field.activeHandle != nil {
                log(
                    "rf", "# deactivated",
                    air: activeTarget.map { AirTimeModel.standard.release($0, isoDEP: activeMode == .isoDEP) } ?? [])
            }
            activeTarget = nil
            virtualFrontend.deactivate()
            return .result(id: id, .done)
        }
    }

    private func setPolling(_ on: Bool) {
        if polling != on {
            polling = on
            revision += 1
        }
    }

    /// The tag with this field handle may have changed: the page refreshes its memory map.
    private func touch(_ handle: Int) {
        if let i = shelf.firstIndex(where: { $0.handle == handle }) {
            shelf[i].revision += 1
            revision += 1
        }
    }
}
