package import OpenNFCRF

/// The MIFARE Classic commands over an ``RFFrontend`` that performs Crypto1 (``RFCapabilities/mifareClassicAuthentication``),
/// as a reader sends them (NXP MF1S50yyX / MF1S70yyX §10, ISO/IEC 14443-3 framing; the frontend enciphers).
///
/// | Operation | Frames | Answers |
/// |---|---|---|
/// | ``authenticate(sector:keyA:key:)`` | the frontend's three passes (`60`/`61` block, nT, {nR}{aR}, {aT}) | a wrong key: ``TagError/Code/commandRejected``, and the card is re-activated |
/// | ``readBlock(_:)`` | `30 BB` | 16 bytes |
/// | ``writeBlock(_:_:)`` | `A0 BB`, then 16 bytes | ACK, ACK |
/// | ``increment(_:by:)`` / ``decrement(_:by:)`` / ``restore(_:)`` | `C1`/`C0`/`C2 BB`, then 4 bytes | ACK, then no answer (success) or a NAK |
/// | ``transfer(_:)`` | `B0 BB` | ACK |
///
/// A NAK is ``TagError/Code/commandRejected`` with ``TagError/nak``; the card then needs a new activation and
/// authentication (``reactivate()``). Sizes: sectors 0–31 of 4 blocks, 32–39 of 16 (the 4K), the model from SAK.
package final class MifareClassicCard {
    /// Mini (SAK `09`, 5 sectors), 1K (`08`, 16), 4K (`18`, 40).
    package enum Model: String, Sendable, Hashable {
        case mini, classic1K = "1k", classic4K = "4k"

        package var sectorCount: Int { self == .mini ? 5 : self == .classic1K ? 16 : 40 }
        package var blockCount: Int { self == .classic4K ? 256 : sectorCount * 4 }

        /// The model a SAK announces (ISO/IEC 14443-3 SAK as NXP AN10833 lists it; unknown SAKs read as 1K).
        package init(sak: UInt8) {
            switch sak {
            case 0x09: self = .mini
            case 0x18, 0x38: self = .classic4K
            default: self = .classic1K
            }
        }
    }

    package let frontend: any RFFrontend
    package private(set) var target: RFTarget
    package let model: Model
    /// The sector and key type authenticated now, if any.
    package private(set) var authenticated: (sector: Int, keyA: Bool)?

    package init(target: RFTarget, frontend: any RFFrontend, model: Model? = nil) {
        self.target = target
        self.frontend = frontend
        self.model = model ?? Model(sak: target.selRes ?? 0x08)
    }

    // MARK: Layout

    package static func firstBlock(ofSector s: Int) -> Int { s < 32 ? s * 4 : 128 + (s - 32) * 16 }
    package static func blockCount(inSector s: Int) -> Int { s < 32 ? 4 : 16 }
    package static func trailerBlock(ofSector s: Int) -> Int { firstBlock(ofSector: s) + blockCount(inSector: s) - 1 }
    package static func sector(ofBlock b: Int) -> Int { b < 128 ? b / 4 : 32 + (b - 128) / 16 }
    package static func isTrailer(_ b: Int) -> Bool { trailerBlock(ofSector: sector(ofBlock: b)) == b }
    /// The access group (0–2, 3 for the trailer) of a block.
    package static func accessGroup(ofBlock b: Int) -> Int {
        let s = sector(ofBlock: b)
        if isTrailer(b) { return 3 }
        let i = b - firstBlock(ofSector: s)
        return s < 32 ? i : i / 5
    }

    // MARK: Authentication

    /// Activates the card again (after a NAK or a failed authentication the card is silent until then).
    package func reactivate() throws(TagError) {
        authenticated = nil
        frontend.deactivate()
        do {
            let found = try frontend.poll([.nfcA]).first { $0.identifier == target.identifier } ?? target
            target = try frontend.activate(found, isoDEP: false)
        } catch {
            throw TagError(.rf, "re-activating the card failed: \(error)", rfError: error)
        }
    }

    /// Authenticates `sector` with key A (`keyA`) or key B. A nested authentication when another sector is
    /// authenticated. A wrong key: `commandRejected`, and the card has been re-activated.
    package func authenticate(sector: Int, keyA: Bool, key: [UInt8]) throws(TagError) {
        guard (0..<model.sectorCount).contains(sector) else {
            throw TagError(.invalidResponse, "sector \(sector) is outside a MIFARE Classic \(model.rawValue)")
        }
        guard key.count == 6 else { throw TagError(.invalidResponse, "a key has 6 bytes, not \(key.count)") }
        let block = UInt8(Self.firstBlock(ofSector: sector))
        do {
            try frontend.authenticate(.mifareClassic(block: block, keyType: keyA ? .a : .b, key: key))
            authenticated = (sector, keyA)
        } catch {
            authenticated = nil
            if error.code == .unsupported {
                throw TagError(.unsupported, "this reader cannot authenticate MIFARE Classic: \(error.detail)")
            }
            let linkGone = error.code == .linkLost || error.code == .notActivated
            if !linkGone { try? reactivate() }
            throw TagError(
                linkGone ? .rf : .commandRejected,
                "authentication of sector \(sector) with key \(keyA ? "A" : "B") failed: \(error.detail)",
                rfError: error)
        }
    }

    /// Tries every key of `dictionary` on `sector` until one authenticates; returns it, or nil (the card is then
    /// re-activated and unauthenticated).
    package func findKey(sector: Int, keyA: Bool, in dictionary: MifareClassicKeyDictionary) throws(TagError)
        -> [UInt8]?
    {
        for key in dictionary.keys {
            do {
                try authenticate(sector: sector, keyA: keyA, key: key)
                return key
            } catch {
                if error.code != .commandRejected { throw error }
            }
        }
        return nil
    }

    // MARK: Blocks

    private func exchange(_ frame: [UInt8], _ what: String) throws(TagError) -> RFResponse {
        do {
            return try frontend.exchange(frame)
        } catch {
            throw TagError(.rf, "\(what): \(error)", rfError: error)
        }
    }

    private func expectACK(_ r: RFResponse, _ what: String) throws(TagError) {
        switch r {
        case .ack: return
        case .nak(let n):
            authenticated = nil
            throw TagError(.commandRejected, "\(what) refused (NAK \(n))", nak: n)
        case .frame(let b):
            throw TagError(.invalidResponse, "\(what): expected ACK, got \(b.count) bytes")
        }
    }

    private func checkBlock(_ block: Int) throws(TagError) {
        guard (0..<model.blockCount).contains(block) else {
            throw TagError(
                .invalidResponse,
                "block \(block) is outside a MIFARE Classic \(model.rawValue) (0–\(model.blockCount - 1))")
        }
    }

    /// READ of one block (16 bytes); the sector must be authenticated.
    package func readBlock(_ block: Int) throws(TagError) -> [UInt8] {
        try checkBlock(block)
        let what = "READ of block \(block)"
        switch try exchange([0x30, UInt8(block)], what) {
        case .frame(let b) where b.count == 16: return b
        case .frame(let b): throw TagError(.invalidResponse, "\(what): expected 16 bytes, got \(b.count)")
        case .nak(let n):
            authenticated = nil
            throw TagError(.commandRejected, "\(what) refused (NAK \(n)): access conditions or wrong sector", nak: n)
        case .ack: throw TagError(.invalidResponse, "\(what): expected 16 bytes, got ACK")
        }
    }

    /// WRITE of one block (16 bytes) in two parts.
    package func writeBlock(_ block: Int, _ data: [UInt8]) throws(TagError) {
        try checkBlock(block)
        guard data.count == 16 else {
            throw TagError(.invalidResponse, "block \(block) needs 16 bytes, not \(data.count)")
        }
        let what = "WRITE of block \(block)"
        try expectACK(try exchange([0xA0, UInt8(block)], what), what)
        try expectACK(try exchange(data, "\(what) (data)"), "\(what) (data)")
    }

    // MARK: Value blocks

    /// A value block: value, ¬value, value (4 bytes LE), addr, ¬addr, addr, ¬addr (MF1S50yyX §8.6.2.1).
    package static func valueBlock(_ value: Int32, address: UInt8) -> [UInt8] {
        let u = UInt32(bitPattern: value)
        let v = (0..<4).map { UInt8(truncatingIfNeeded: u >> UInt32(8 * $0)) }
        return v + v.map { ~$0 } + v + [address, ~address, address, ~address]
    }

    /// The value and address of a block in value format; `invalidResponse` naming the first broken byte otherwise.
    package static func decodeValue(_ b: [UInt8], block: Int) throws(TagError) -> (value: Int32, address: UInt8) {
        guard b.count == 16 else { throw TagError(.invalidResponse, "block \(block) has \(b.count) bytes, not 16") }
        for i in 0..<4 {
            guard b[4 + i] == ~b[i] else {
                throw TagError(
                    .invalidResponse, "block \(block) is no value block: byte \(4 + i) is not the inverse of byte \(i)")
            }
            guard b[8 + i] == b[i] else {
                throw TagError(
                    .invalidResponse, "block \(block) is no value block: byte \(8 + i) differs from byte \(i)")
            }
        }
        guard b[13] == ~b[12], b[14] == b[12], b[15] == ~b[12] else {
            throw TagError(.invalidResponse, "block \(block) is no value block: address bytes 12–15 do not match")
        }
        let u = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
        return (Int32(bitPattern: u), b[12])
    }

    /// Reads a value block.
    package func readValue(_ block: Int) throws(TagError) -> (value: Int32, address: UInt8) {
        try Self.decodeValue(try readBlock(block), block: block)
    }

    /// Writes a value block (a plain WRITE of the value format).
    package func writeValue(_ block: Int, _ value: Int32, address: UInt8? = nil) throws(TagError) {
        try writeBlock(block, Self.valueBlock(value, address: address ?? UInt8(truncatingIfNeeded: block)))
    }

    private func valueOperation(_ code: UInt8, _ name: String, _ block: Int, _ operand: Int32) throws(TagError) {
        try checkBlock(block)
        let what = "\(name) of block \(block)"
        try expectACK(try exchange([code, UInt8(block)], what), what)
        let u = UInt32(bitPattern: operand)
        do {
            // The second part has no answer when it succeeds (MF1S50yyX §10.5: the reader waits out the timeout).
            let r = try frontend.exchange((0..<4).map { UInt8(truncatingIfNeeded: u >> UInt32(8 * $0)) })
            try expectACK(r, "\(what) (operand)")
        } catch let e as TagError {
            throw e
        } catch let e as RFError where e.code == .timeout {
            return
        } catch let e as RFError {
            throw TagError(.rf, "\(what) (operand): \(e)", rfError: e)
        } catch {
            throw TagError(.rf, "\(what) (operand): \(error)")
        }
    }

    /// INCREMENT: the block's value plus `amount` into the transfer buffer (``transfer(_:)`` stores it).
    package func increment(_ block: Int, by amount: Int32) throws(TagError) {
        try valueOperation(0xC1, "INCREMENT", block, amount)
    }

    /// DECREMENT: the block's value minus `amount` into the transfer buffer.
    package func decrement(_ block: Int, by amount: Int32) throws(TagError) {
        try valueOperation(0xC0, "DECREMENT", block, amount)
    }

    /// RESTORE: the block's value into the transfer buffer.
    package func restore(_ block: Int) throws(TagError) { try valueOperation(0xC2, "RESTORE", block, 0) }

    /// TRANSFER: the transfer buffer into `block`.
    package func transfer(_ block: Int) throws(TagError) {
        try checkBlock(block)
        let what = "TRANSFER to block \(block)"
        try expectACK(try exchange([0xB0, UInt8(block)], what), what)
    }

    // MARK: Trailers

    /// Writes a sector trailer: key A, access bits, GPB, key B.
    package func writeTrailer(
        sector: Int, keyA: [UInt8], access: MifareClassicAccessBits, gpb: UInt8, keyB: [UInt8]
    ) throws(TagError) {
        guard keyA.count == 6, keyB.count == 6 else { throw TagError(.invalidResponse, "keys have 6 bytes") }
        try writeBlock(Self.trailerBlock(ofSector: sector), keyA + access.bytes + [gpb] + keyB)
    }
}
