internal import Foundation
internal import OpenNFCBytes
internal import OpenNFCPCSC
internal import OpenNFCSimulation
internal import OpenNFCVPCD

#if canImport(Glibc)
    internal import Glibc
#endif

/// The vpcd socket protocol (vsmartcard's vpcd: 2-byte big-endian length, then a control byte or an APDU) as
/// ``VPCDServer`` serves it over a real loopback TCP connection, with the card-side reader emulation (``VPCDCard``:
/// PC/SC Part 3 pseudo-APDUs, PN532 pass-through, ISO 15693 transparent sessions) behind it.
///
/// Input: byte 0 chooses the chip; the rest is the byte stream the driver sends (`scripts/fuzz` caps inputs at 4 KiB).
///
/// Invariants: the server returns or throws a `VPCDError` with a reason (never hangs: the stream ends); what it
/// sent back is whole frames, at most one per request that gets an answer, and in request order: every ATR request
/// (`00 01 04`) is answered with an ATR that parses (ISO/IEC 7816-3), every APDU with a non-empty answer. (What
/// the frames do to the chip is the `card` target's business: saving the state here cost more than the exchange.)
enum VPCDFuzz {
    static let target = FuzzTarget(
        "vpcd", "vpcd socket protocol and reader emulation over loopback TCP (frames, ATRs, answers)",
        seeds: seeds, run: run)

    static let maximumInput = 4096

    /// One listening loopback socket for the whole process (port chosen by the kernel).
    final class Listener: @unchecked Sendable {
        let fd: Int32
        let port: UInt16

        init?() {
            let s = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard s >= 0 else { return nil }
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_addr.s_addr = inet_addr("127.0.0.1")
            addr.sin_port = 0
            var len = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p in
                    bind(s, p, len) == 0 && listen(s, 4) == 0 && getsockname(s, p, &len) == 0
                }
            }
            guard bound else {
                close(s)
                return nil
            }
            fd = s
            port = UInt16(bigEndian: addr.sin_port)
        }
    }

    static let listener = Listener()

    /// What the peer received, filled by the thread that feeds the stream.
    final class Peer: @unchecked Sendable {
        var received: [UInt8] = []
    }

    static func run(_ data: [UInt8]) {
        guard data.count <= maximumInput else { return }
        var input = FuzzInput(data)
        let chips = TagFile.chips
        guard let tag = CardFuzz.tag(of: chips[Int(input.byte()) % chips.count]) else { return }
        let stream = input.rest()
        guard let listener else {
            fuzzRequire(false, "cannot listen on loopback")
            return
        }
        let server = VPCDServer(card: VPCDCard(tag: tag), host: "127.0.0.1", port: listener.port)
        do {
            try server.connect()
        } catch {
            fuzzRequire(false, "cannot connect to the fuzz listener: \(error)")
            return
        }
        let peerFD = accept(listener.fd, nil, nil)
        guard peerFD >= 0 else {
            server.stop()
            fuzzRequire(false, "accept failed")
            return
        }
        let peer = Peer()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            var sent = 0
            while sent < stream.count {
                let r = stream.withUnsafeBytes {
                    send(peerFD, $0.baseAddress! + sent, stream.count - sent, Int32(MSG_NOSIGNAL))
                }
                if r <= 0 { break }
                sent += r
            }
            shutdown(peerFD, Int32(SHUT_WR))
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let r = buffer.withUnsafeMutableBytes { recv(peerFD, $0.baseAddress!, 4096, 0) }
                if r <= 0 { break }
                peer.received += buffer[0..<r]
            }
            close(peerFD)
            done.signal()
        }
        do {
            try server.run()
        } catch {
            fuzzRequire(!error.description.isEmpty, "a VPCDError without a reason")
        }
        done.wait()
        checkAnswers(requests: stream, answers: peer.received)
    }

    /// Splits the stream into vpcd frames (2-byte length, body); a trailing partial frame is dropped.
    static func frames(_ bytes: [UInt8]) -> [[UInt8]] {
        var out: [[UInt8]] = []
        var i = 0
        while i + 2 <= bytes.count {
            let n = Int(bytes[i]) << 8 | Int(bytes[i + 1])
            guard i + 2 + n <= bytes.count else { break }
            out.append(Array(bytes[i + 2..<i + 2 + n]))
            i += 2 + n
        }
        return out
    }

    static func checkAnswers(requests: [UInt8], answers: [UInt8]) {
        let answered = frames(requests).filter { $0 == [0x04] || $0.count >= 2 }
        let replies = frames(answers)
        fuzzRequire(
            replies.map { $0.count + 2 }.reduce(0, +) == answers.count, "the server sent a partial vpcd frame")
        fuzzRequire(replies.count <= answered.count, "\(replies.count) replies to \(answered.count) requests")
        for (request, reply) in zip(answered, replies) {
            if request == [0x04] {
                do {
                    _ = try ATR(decoding: reply)
                } catch {
                    fuzzRequire(false, "the ATR \(reply.hexString) does not parse: \(error)")
                }
            } else {
                // ISO 7816 APDUs end in a status word; other payloads reach the card as they are and its answer
                // (a DESFire native status byte, say) comes back as it is: never nothing.
                fuzzRequire(!reply.isEmpty, "APDU \(request.hexString) answered with an empty frame")
            }
        }
    }

    static func frame(_ body: [UInt8]) -> [UInt8] { [UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body }

    /// For every chip: power on, ATR, then the APDUs a PC/SC frontend sent the emulated card while reading it.
    static func seeds() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for (i, tag) in CardFuzz.factoryTags().enumerated() {
            var stream = frame([0x01]) + frame([0x04])
            for apdu in PCSCFuzz.recordedSession(tag, reader: PCSCFuzz.readers[0]).commands.prefix(40)
            where apdu.count >= 2 { stream += frame(apdu) }
            stream += frame([0x00])
            out.append([UInt8(i)] + stream.prefix(maximumInput - 1))
        }
        return out
    }
}
