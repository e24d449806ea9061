internal import OpenNFCBytes
internal import OpenNFCNDEF
internal import OpenNFCTestSupport

/// NDEF messages (NFC Forum NDEF 1.0 §3) in strict and lenient mode, and every typed record the codec knows.
///
/// Invariants: errors and repairs point inside the input; a strictly decoded message re-encodes to bytes that decode
/// to an equal message; a leniently decoded (repaired) message re-encodes to bytes the strict decoder accepts as an
/// equal message; a strictly decoded typed record re-encodes to a record that decodes to an equal typed value; the
/// JSON and listing views never throw in lenient mode.
enum NDEFFuzz {
    static let target = FuzzTarget(
        "ndef", "NDEF messages, strict and lenient, every typed record (decode → encode → decode)", seeds: seeds,
        run: run)

    static func run(_ data: [UInt8]) {
        for options in [NDEFDecodingOptions.strict, .lenient] {
            var repairs: [NDEFRepair] = []
            let message: NDEFMessage
            do {
                message = try NDEFMessage(decoding: data, options: options, repairs: &repairs)
            } catch {
                fuzzRequire(error.offset >= 0 && error.offset <= data.count, "NDEF error \(error) outside the input")
                continue
            }
            fuzzRequire(
                repairs.allSatisfy { $0.offset >= 0 && $0.offset <= data.count }, "a repair outside the input")
            let wire = message.encoded()
            fuzzRequire(message.encodedLength == wire.count, "encodedLength \(message.encodedLength) ≠ \(wire.count)")
            let again: NDEFMessage
            do {
                again = try NDEFMessage(decoding: wire, options: .strict)
            } catch {
                fuzzRequire(false, "\(options.mode) message re-encodes to bytes strict decoding rejects: \(error)")
                continue
            }
            fuzzRequire(again == message, "\(options.mode) message does not survive encode → decode")
            typedRecords(message, options: options, inputCount: data.count)
            var viewRepairs: [NDEFRepair] = []
            do {
                _ = try message.jsonValue(options: options, repairs: &viewRepairs)
                _ = try message.listing(options: options, repairs: &viewRepairs)
            } catch {
                fuzzRequire(options.mode == .strict, "lenient JSON/listing threw \(error)")
            }
            _ = message.jsonValue().compact
            _ = message.listing()
        }
    }

    static func typedRecords(_ message: NDEFMessage, options: NDEFDecodingOptions, inputCount: Int) {
        var repairs: [NDEFRepair] = []
        let decoded: [NDEFDecodedRecord?]
        do {
            decoded = try message.decodedRecords(options: options, repairs: &repairs)
        } catch {
            fuzzRequire(options.mode == .strict, "lenient typed decoding threw \(error)")
            return
        }
        fuzzRequire(decoded.count == message.records.count, "one decoded entry per record")
        guard options.mode == .strict else { return }
        for d in decoded {
            guard let d else { continue }
            let record: NDEFRecord
            do {
                record = try typed(d).record()
            } catch {
                fuzzRequire(false, "strictly decoded \(d) cannot be encoded again: \(error)")
                continue
            }
            do {
                let back = try NDEFDecodedRecord(decoding: record, options: .strict)
                fuzzRequire(
                    back == d, "typed record does not survive encode → decode: \(d) became \(String(describing: back))")
            } catch {
                fuzzRequire(false, "re-encoded typed record \(d) is rejected: \(error)")
            }
        }
    }

    static func typed(_ d: NDEFDecodedRecord) -> any NDEFTypedRecord {
        switch d {
        case .text(let r): return r
        case .uri(let r): return r
        case .smartPoster(let r): return r
        case .mime(let r): return r
        case .external(let r): return r
        case .absoluteURI(let r): return r
        case .androidApplication(let r): return r
        case .handover(let r): return r
        case .handoverCarrier(let r): return r
        case .bluetooth(let r): return r
        case .wifi(let r): return r
        case .signature(let r): return r
        case .deviceInformation(let r): return r
        }
    }

    /// One message holding each typed record, then each record alone, then a chunked record: the codec's own output.
    static func seeds() -> [[UInt8]] {
        let records = (try? NDEFSamples.everyRecordType()) ?? []
        var out = [NDEFMessage(records: records).encoded()]
        for r in records { out.append(NDEFMessage(records: [r]).encoded()) }
        out.append(NDEFMessage(records: Array(records.prefix(3))).encoded(chunkSize: 4))
        out.append(NDEFMessage.empty.encoded())
        return out
    }
}
