internal import OpenNFCBytes
internal import OpenNFCRF

/// Block 0 of the "magic" clones and the way back to the transport configuration, as a reader does them.
///
/// | Operation | Frames | On a genuine chip |
/// |---|---|---|
/// | ``openBackdoor()`` (gen1a) | `40` (7 bits) → ACK, `43` → ACK; then READ/WRITE of any block without keys | silence: ``TagError/Code/unsupported``, card re-activated |
/// | ``writeBlockZero(_:keys:)`` | the backdoor, else (gen2/CUID) authentication of sector 0 and a plain WRITE of block 0 | block 0 is read-only (MF1S50yyX §8.6.1): ``TagError/Code/commandRejected`` |
/// | ``resetToTransport(keys:)`` | per sector: the trailer first (`FFFFFFFFFFFF FF0780 69 FFFFFFFFFFFF`, MF1S50yyX §8.6.3), then every data block zeroed with key A | sectors whose access bits cannot be written are reported, not changed |
///
/// The backdoor's 7-bit `40` frame needs a frontend that sends short frames; a PC/SC reader behind the Part 3
/// pseudo-APDUs has none, so there only gen2 cards take a new block 0.
extension MifareClassicCard {
    /// Opens the gen1a backdoor. Afterwards the card answers READ and WRITE of any block, plain, until it is
    /// deactivated. A card without the backdoor stays silent: `unsupported` (the card is re-activated).
    package func openBackdoor() throws(TagError) {
        for command: UInt8 in [0x40, 0x43] {
            let r: RFResponse
            do {
                r = try frontend.exchange([command])
            } catch {
                if error.code == .linkLost || error.code == .notActivated {
                    throw TagError(
                        .rf, "the gen1a backdoor (\(command == 0x40 ? "40" : "43")): \(error)", rfError: error)
                }
                try reactivate()
                throw TagError(
                    .unsupported, "the card has no gen1a backdoor (no ACK to \(command == 0x40 ? "40" : "43"))")
            }
            guard case .ack = r else {
                try reactivate()
                throw TagError(
                    .unsupported, "the card has no gen1a backdoor (\(command == 0x40 ? "40" : "43") answered \(r))")
            }
        }
    }

    /// Writes block 0 (UID, BCC, SAK, ATQA, manufacturer data) of a magic card: through the gen1a backdoor when the
    /// card has it, else with the first key of `keys` that opens sector 0 (gen2/CUID). Returns which way it went.
    @discardableResult
    package func writeBlockZero(_ data: [UInt8], keys: MifareClassicKeyDictionary) throws(TagError) -> String {
        guard data.count == 16 else { throw TagError(.invalidResponse, "block 0 needs 16 bytes, not \(data.count)") }
        guard data[0..<4].reduce(0, ^) == data[4] else {
            throw TagError(.invalidResponse, "byte 4 of block 0 must be the BCC (XOR of bytes 0–3)")
        }
        if authenticated != nil { try reactivate() }
        do {
            try openBackdoor()
            try writeBlock(0, data)
            try reactivate()
            return "gen1a backdoor"
        } catch {
            guard error.code == .unsupported else { throw error }
        }
        // Key A, then key B: sector 0's access bits may let only one of them write (the MAD's let only key B).
        var refused: UInt8?
        var opened = false
        for keyA in [true, false] {
            if authenticated != nil { try reactivate() }
            guard try findKey(sector: 0, keyA: keyA, in: keys) != nil else { continue }
            opened = true
            do {
                try writeBlock(0, data)
                try reactivate()
                return "gen2 write with key \(keyA ? "A" : "B")"
            } catch {
                guard error.code == .commandRejected else { throw error }
                refused = error.nak
                try reactivate()
            }
        }
        guard opened else {
            throw TagError(.commandRejected, "no known key opens sector 0 and the card has no gen1a backdoor")
        }
        throw TagError(
            .commandRejected,
            "block 0 is read-only on this card (NAK \(refused.map { String($0) } ?? "?")): it is neither a gen1a nor "
                + "a gen2/CUID magic card")
    }

    /// What ``resetToTransport(keys:)`` did with one sector.
    package enum ResetOutcome: Sendable, Hashable {
        /// Trailer and data blocks back to the factory state.
        case reset(keyA: Bool, key: [UInt8])
        /// Left as it was, and why.
        case kept(String)
    }

    /// Puts every sector back into the transport configuration a new card has: trailer `FFFFFFFFFFFF FF 07 80 69
    /// FFFFFFFFFFFF` written with a key the current access bits let write all of it (key B first, then key A, from
    /// `keys`; a card ACKs a trailer WRITE and changes only what the access bits allow, MF1S50yyX §8.7.2, so the
    /// result is read back), then every data block but block 0 zeroed with key A `FFFFFFFFFFFF`. Sectors no key
    /// may reset are kept and reported.
    package func resetToTransport(keys: MifareClassicKeyDictionary) throws(TagError) -> [ResetOutcome] {
        var outcomes: [ResetOutcome] = []
        for s in 0..<model.sectorCount {
            outcomes.append(try resetSector(s, keys: keys))
        }
        if authenticated != nil { try reactivate() }
        return outcomes
    }

    private func resetSector(_ s: Int, keys: MifareClassicKeyDictionary) throws(TagError) -> ResetOutcome {
        let transport = [UInt8](repeating: 0xFF, count: 6)
        let trailer = Self.trailerBlock(ofSector: s)
        var reason = "no key of the dictionary opens it"
        for keyA in [false, true] {
            if authenticated != nil { try reactivate() }
            guard let key = try findKey(sector: s, keyA: keyA, in: keys) else { continue }
            // The access bits say whether this key may write the whole trailer (Table 7).
            if let t = try? readBlock(trailer), let access = try? MifareClassicAccessBits(bytes: Array(t[6..<9])) {
                let r = access.trailer
                guard r.keyAWrite.grants(keyA: keyA), r.accessBitsWrite.grants(keyA: keyA),
                    r.keyBWrite.grants(keyA: keyA)
                else {
                    reason =
                        "its access bits (trailer condition \(String(access.conditions[3], radix: 2))) do not let key "
                        + "\(keyA ? "A" : "B") write keys and access bits"
                    continue
                }
            } else {
                try reactivate()
                try authenticate(sector: s, keyA: keyA, key: key)
            }
            do {
                try writeTrailer(sector: s, keyA: transport, access: .transport, gpb: 0x69, keyB: transport)
            } catch {
                guard error.code == .commandRejected else { throw error }
                reason = "key \(keyA ? "A" : "B") \(key.hexString) opens it but may not write its trailer"
                try reactivate()
                continue
            }
            try reactivate()
            do {
                try authenticate(sector: s, keyA: true, key: transport)
                let t = try readBlock(trailer)
                guard Array(t[6..<10]) == [0xFF, 0x07, 0x80, 0x69] else {
                    return .kept("the card kept access bits \(Array(t[6..<10]).hexString) after the trailer write")
                }
            } catch {
                guard error.code == .commandRejected else { throw error }
                return .kept("after the trailer write key A FFFFFFFFFFFF does not open it")
            }
            let first = Self.firstBlock(ofSector: s)
            for b in first..<trailer where b != 0 { try writeBlock(b, [UInt8](repeating: 0, count: 16)) }
            return .reset(keyA: keyA, key: key)
        }
        return .kept(reason)
    }
}
