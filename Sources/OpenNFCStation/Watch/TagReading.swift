internal import OpenNFCBytes
internal import OpenNFCNDEF
package import OpenNFCRF
internal import OpenNFCTags

/// What a station reads of a tag that arrived: activation, identification (the chip), and unless `--uid-only` its
/// NDEF message, with the reader procedures of `OpenNFCTags` over the device's frontend. Failures become fields of
/// the event (`ndef.status` `error`) or an `error` event, never a stop of the station.
package enum TagReading {
    /// The `arrived` event for `target` found on `reader` (or an `error` event when the tag cannot be activated).
    package static func read(
        _ target: RFTarget, on reader: String, frontend: any RFFrontend, uidOnly: Bool
    ) -> StationEvent {
        var event = StationEvent(.arrived, reader: reader)
        event.technology = name(of: target.technology)
        event.uid = target.identifier.hexString
        let activated: RFTarget
        do {
            activated = try frontend.activate(target)
        } catch {
            event.kind = .error
            event.message = "the tag (UID \(target.identifier.hexString)) could not be activated: \(error)"
            return event
        }
        let identified: IdentifiedTag
        do {
            identified = try TagIdentifier.identify(target: activated, frontend: frontend)
        } catch {
            event.kind = .error
            event.message = "the tag (UID \(target.identifier.hexString)) could not be identified: \(error)"
            return event
        }
        event.chip = identified.kind.description
        event.uid = identified.target.identifier.hexString
        if !uidOnly { event.ndef = ndef(identified, frontend: frontend) }
        return event
    }

    static func ndef(_ tag: IdentifiedTag, frontend: any RFFrontend) -> StationEvent.NDEF {
        guard let procedure = tag.ndefProcedure(frontend: frontend) else {
            var n = StationEvent.NDEF(status: "not-supported")
            n.error = "no NDEF mapping for \(tag.kind.description)"
            return n
        }
        let detection: NDEFDetection
        do {
            detection = try procedure.detect()
        } catch {
            var n = StationEvent.NDEF(status: "error")
            n.error = "detecting NDEF failed: \(error)"
            return n
        }
        switch detection.status {
        case .notSupported:
            var n = StationEvent.NDEF(status: "not-formatted")
            n.error = detection.reason
            return n
        case .readWrite, .readOnly:
            break
        }
        var n = StationEvent.NDEF(status: detection.status == .readOnly ? "read-only" : "read-write")
        n.capacity = detection.capacity
        let bytes: [UInt8]
        do {
            bytes = try procedure.readMessage()
        } catch {
            n.status = "error"
            n.error = "reading the NDEF message failed: \(error)"
            return n
        }
        n.raw = bytes
        if bytes.isEmpty {
            n.status = "empty"
            return n
        }
        do {
            n.message = try NDEFMessage(decoding: bytes[...]).jsonValue()
        } catch {
            n.status = "invalid"
            n.error = "the NDEF message (\(bytes.count) bytes) does not decode: \(error)"
        }
        return n
    }

    /// `nfc-a`, `nfc-b`, `nfc-f`, `nfc-v`.
    static func name(of technology: RFTechnology) -> String {
        switch technology {
        case .nfcA: return "nfc-a"
        case .nfcB: return "nfc-b"
        case .nfcF: return "nfc-f"
        case .nfcV: return "nfc-v"
        }
    }
}
