internal import OpenNFCBytes
internal import OpenNFCRF

/// The FeliCa commands beyond Check and Update that a memory reader needs to walk a card's systems, areas and
/// services (JIS X 6319-4 §8.5–§8.6; FeliCa Card User's Manual, Excerpted Edition §4.4: Polling, Request Service,
/// Search Service Code, Request System Code, Read and Write Without Encryption of any service). Status flags other
/// than `00 00` on a read are returned, not thrown (a read past a service's last block is how its size is found);
/// silence and garbled answers are ``TagError``s naming the command.
extension Type3Link {
    /// What a Read or Write Without Encryption answered.
    package enum Outcome: Equatable, Sendable {
        case done([[UInt8]])
        case refused(sf1: UInt8, sf2: UInt8)
    }

    /// Sends `code IDm parameters` and returns what follows the answer's response code and IDm.
    func command(_ code: UInt8, _ parameters: [UInt8], name: String) throws(TagError) -> [UInt8] {
        let answer = try send(FeliCaFrame.command(code, idm: idm, parameters), name: name)
        guard let p = FeliCaFrame.answer(answer, to: code, idm: idm) else {
            throw TagError(
                .invalidResponse,
                "\(name) answered \(Hex.encode(answer.prefix(9))), expected \(Hex.encode([code &+ 1])) and the IDm "
                    + Hex.encode(idm))
        }
        return p
    }

    /// Polling for `systemCode` with request code 00 and one time slot (JIS X 6319-4 §8.5.1): the answer, nil for
    /// silence (no such system).
    package func polling(_ systemCode: UInt16) throws(TagError) -> FeliCaFrame.PollingAnswer? {
        let frame = FeliCaFrame.polling(
            systemCode: [UInt8(systemCode >> 8), UInt8(systemCode & 0xFF)], requestCode: 0x00, timeSlot: 0x00)
        let answer: RFResponse
        do {
            answer = try frontend.exchange(frame)
        } catch {
            if error.code == .timeout { return nil }
            throw .rf(error, during: "Polling \(FeliCaFrame.hex4(systemCode))")
        }
        guard case .frame(let b) = answer, let polled = FeliCaFrame.PollingAnswer(b) else {
            throw TagError(
                .invalidResponse, "Polling \(FeliCaFrame.hex4(systemCode)) answered \(answer), expected 01 IDm PMm")
        }
        return polled
    }

    /// Request System Code (`0C`): every system's code, in the card's order.
    package func systemCodes() throws(TagError) -> [UInt16] {
        let a = try command(FeliCaFrame.Code.requestSystemCode, [], name: "Request System Code")
        guard let n = a.first.map(Int.init), a.count == 1 + 2 * n else {
            throw TagError(.invalidResponse, "Request System Code answered \(a.count) bytes, not 1 + 2 × count")
        }
        return (0..<n).map { i in UInt16(a[1 + 2 * i]) << 8 | UInt16(a[2 + 2 * i]) }
    }

    /// Search Service Code (`0A`) at `index`: an area (code and end) or a service, nil past the last (`FF FF`).
    package func searchServiceCode(index: Int) throws(TagError) -> (code: UInt16, end: UInt16?)? {
        let name = "Search Service Code \(index)"
        let a = try command(
            FeliCaFrame.Code.searchServiceCode, FeliCaFrame.littleEndian(UInt16(index & 0xFFFF)), name: name)
        guard a.count == 2 || a.count == 4 else {
            throw TagError(.invalidResponse, "\(name) answered \(a.count) bytes, not 2 or 4")
        }
        let code = UInt16(a[0]) | UInt16(a[1]) << 8
        if code == 0xFFFF { return nil }
        return (code, a.count == 4 ? UInt16(a[2]) | UInt16(a[3]) << 8 : nil)
    }

    /// Request Service (`02`), 32 nodes a command: the key version of each node, nil where the card answers
    /// `FF FF` (no such node).
    package func keyVersions(_ nodes: [UInt16]) throws(TagError) -> [UInt16?] {
        var out: [UInt16?] = []
        var i = 0
        while i < nodes.count {
            let group = Array(nodes[i..<min(i + 32, nodes.count)])
            let a = try command(
                FeliCaFrame.Code.requestService, [UInt8(group.count)] + group.flatMap(FeliCaFrame.littleEndian),
                name: "Request Service")
            guard a.count == 1 + 2 * group.count, Int(a[0]) == group.count else {
                throw TagError(.invalidResponse, "Request Service answered \(a.count) bytes for \(group.count) nodes")
            }
            for k in 0..<group.count {
                let v = UInt16(a[1 + 2 * k]) | UInt16(a[2 + 2 * k]) << 8
                out.append(v == 0xFFFF ? nil : v)
            }
            i += group.count
        }
        return out
    }

    /// Read Without Encryption (`06`) of `blocks` of one service; a refusal is returned with its status flags.
    package func read(service: UInt16, blocks: [Int]) throws(TagError) -> Outcome {
        let name =
            "Read Without Encryption of block\(blocks.count == 1 ? "" : "s") "
            + "\(blocks.map(String.init).joined(separator: ",")) of service \(FeliCaFrame.hex4(service))"
        let a = try command(
            FeliCaFrame.Code.readWithoutEncryption,
            [0x01] + FeliCaFrame.littleEndian(service) + [UInt8(blocks.count)] + FeliCaFrame.blockList(blocks),
            name: name)
        guard a.count >= 2 else { throw TagError(.invalidResponse, "\(name) answered without status flags") }
        guard a[0] == 0x00 else { return .refused(sf1: a[0], sf2: a[1]) }
        guard a.count == 3 + 16 * blocks.count, Int(a[2]) == blocks.count else {
            throw TagError(.invalidResponse, "\(name) answered \(a.count) bytes, not \(3 + 16 * blocks.count)")
        }
        return .done((0..<blocks.count).map { k in Array(a[3 + 16 * k..<19 + 16 * k]) })
    }

    /// Write Without Encryption (`08`) of one block of one service; a refusal is a ``TagError`` carrying the status
    /// flags (``TagError/feliCaStatus``).
    package func write(service: UInt16, block: Int, _ data: [UInt8]) throws(TagError) {
        precondition(data.count == 16)
        let name = "Write Without Encryption of block \(block) of service \(FeliCaFrame.hex4(service))"
        let a = try command(
            FeliCaFrame.Code.writeWithoutEncryption,
            [0x01] + FeliCaFrame.littleEndian(service) + [0x01] + FeliCaFrame.blockList([block]) + data, name: name)
        guard a.count == 2 else { throw TagError(.invalidResponse, "\(name) answered \(a.count) bytes, not 2") }
        guard a[0] == 0x00 else {
            var e = TagError(
                .commandRejected,
                "\(name) refused: status flags \(Hex.encode(a, separator: " ")) (\(FeliCaFrame.statusName(a[1])))")
            e.feliCaStatus = a
            throw e
        }
    }

    /// Reads blocks 0, 1, … of `service` until the card answers "no such block" (`A8`): runs of up to `batch`
    /// blocks a command, then the blocks before the failing element once more. Any other refusal ends the walk and
    /// is returned with what was read.
    package func readAll(service: UInt16, batch: Int) throws(TagError) -> (
        blocks: [[UInt8]], refusal: (sf1: UInt8, sf2: UInt8)?
    ) {
        var blocks: [[UInt8]] = []
        while blocks.count <= 0xFFFF {
            let n = min(batch, 0x1_0000 - blocks.count)
            let run = Array(blocks.count..<blocks.count + n)
            switch try read(service: service, blocks: run) {
            case .done(let b): blocks += b
            case .refused(let sf1, let sf2):
                // SF1 names the failing element as a bit (JIS X 6319-4 §8.6: 01, 02, 04, … for elements 1–8).
                let failing = (0..<min(n, 8)).first { sf1 == 1 << UInt8($0) }
                if sf2 == 0xA8, let k = failing {
                    if k > 0, case .done(let b) = try read(service: service, blocks: Array(run.prefix(k))) {
                        blocks += b
                    }
                    return (blocks, nil)
                }
                return (blocks, (sf1, sf2))
            }
        }
        return (blocks, nil)
    }

    /// Blocks per Read on this frontend: the answer `07 IDm SF1 SF2 n data` fits, at most 8 (SF1 names one of 8).
    package var readBatch: Int { max(1, min(8, (min(frontend.capabilities.maxResponseSize, 254) - 12) / 16)) }
}
