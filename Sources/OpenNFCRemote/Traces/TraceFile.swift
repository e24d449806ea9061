internal import Foundation
internal import OpenNFCBytes

/// The three trace files and how each is read and written (docs/TRACES.md): our transcript (`.json`), pcapng for
/// Wireshark (`.pcapng`) and the Proxmark3 client's `.trace`. Every file goes through the project's one writer.
package enum TraceFormat: String, Sendable, Hashable, CaseIterable {
    case json, pcapng, trace

    /// The format a file name's extension names, nil for any other.
    package init?(path: String) {
        let ext = (path as NSString).pathExtension.lowercased()
        switch ext {
        case "json": self = .json
        case "pcapng": self = .pcapng
        case "trace": self = .trace
        default: return nil
        }
    }

    package static let names = allCases.map(\.rawValue).joined(separator: "|")
}

package enum TraceFile {
    /// Largest trace file read (bytes).
    package static let maxFileBytes = 64 << 20

    static func contents(_ path: String) throws(AirTrace.Problem) -> [UInt8] {
        let bytes: [UInt8]
        do {
            bytes = try FileAccess.contents(of: path)
        } catch {
            throw AirTrace.Problem("\(path): cannot read: \(error.reason)")
        }
        guard bytes.count <= maxFileBytes else {
            throw AirTrace.Problem("\(path): larger than \(maxFileBytes) bytes")
        }
        return bytes
    }

    /// The frames of a file: a capture as it is, a transcript rendered on the air. A Proxmark3 trace needs its
    /// protocol, which the file does not hold.
    package static func readAir(path: String, format: TraceFormat, protocol p: AirProtocol?)
        throws(AirTrace.Problem) -> AirTrace
    {
        switch format {
        case .json:
            let transcript: RFTranscript
            do {
                transcript = try RFTranscript.read(path: path)
            } catch {
                throw AirTrace.Problem("\(error)")
            }
            return try AirTrace(transcript: transcript)
        case .pcapng:
            return try PcapNG.decode(try contents(path), file: path)
        case .trace:
            guard let p else {
                throw AirTrace.Problem(
                    "\(path): a Proxmark3 trace does not say which protocol it holds; name it with --protocol "
                        + "\(AirProtocol.names) (as the Proxmark3 client's `trace list -t` does)")
            }
            return try ProxmarkTrace.decode(try contents(path), protocol: p, file: path)
        }
    }

    /// A transcript a replay can play: our file as it is; a capture read as a reader's session, which must read
    /// whole (every MIFARE Classic authentication deciphered with one of `keys`).
    package static func readTranscript(
        path: String, format: TraceFormat, protocol p: AirProtocol? = nil, keys: [[UInt8]] = []
    ) throws(AirTrace.Problem) -> RFTranscript {
        if format == .json {
            do {
                return try RFTranscript.read(path: path)
            } catch {
                throw AirTrace.Problem("\(error)")
            }
        }
        let air = try readAir(path: path, format: format, protocol: p)
        let reading = air.reading(keys: keys, device: path)
        if let first = reading.problems.first {
            throw AirTrace.Problem(
                "\(path): \(first)\(reading.problems.count > 1 ? " (and \(reading.problems.count - 1) more)" : "")")
        }
        return reading.transcript
    }

    /// The bytes of a transcript in a format.
    package static func encode(_ transcript: RFTranscript, format: TraceFormat) throws(AirTrace.Problem) -> [UInt8] {
        switch format {
        case .json: return Array(transcript.text.utf8)
        case .pcapng, .trace: return try encode(try AirTrace(transcript: transcript), format: format, protocol: nil)
        }
    }

    /// The bytes of frames in a format; a Proxmark3 trace holds one protocol (`p`, or the trace's only one).
    package static func encode(_ air: AirTrace, format: TraceFormat, protocol p: AirProtocol?)
        throws(AirTrace.Problem) -> [UInt8]
    {
        switch format {
        case .json:
            let reading = air.reading()
            if let first = reading.problems.first { throw AirTrace.Problem(first) }
            return Array(reading.transcript.text.utf8)
        case .pcapng:
            return try PcapNG.encode(air)
        case .trace:
            let chosen: AirProtocol
            if let p {
                chosen = p
            } else if air.protocols.count == 1, let only = air.protocols.first {
                chosen = only
            } else if air.protocols.isEmpty {
                chosen = .iso14443a
            } else {
                throw AirTrace.Problem(
                    "a Proxmark3 trace holds one protocol, these frames are "
                        + air.protocols.map(\.rawValue).sorted().joined(separator: " and "))
            }
            return ProxmarkTrace.encode(air, protocol: chosen)
        }
    }

    /// Writes through the project's one writer (``FileAccess/write(_:to:durable:)``: atomic, links followed).
    package static func write(_ bytes: [UInt8], to path: String) throws(AirTrace.Problem) {
        do {
            _ = try FileAccess.write(bytes, to: path)
        } catch {
            throw AirTrace.Problem("\(path): cannot write: \(error.reason)")
        }
    }
}
