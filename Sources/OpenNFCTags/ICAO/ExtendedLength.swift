internal import OpenNFCBytes

/// The chip's buffer sizes from EF.ATR/INFO (file identifier `2F01`, short EF identifier `01`, in the MF; ICAO Doc
/// 9303 Part 10 §3.11.1): the extended length information `7F66` of ISO/IEC 7816-4 §12.7.1 holds two INTEGERs, the
/// most bytes the chip takes in a command APDU and the most it sends in a response APDU. BSI TR-03110-3 §B.12 lets
/// an inspection system use extended length freely only when the chip states these sizes; without them (or with
/// values of 256 and less) the reader keeps to short APDUs.
///
/// | Step | Command | Frames |
/// |---|---|---|
/// | read EF.ATR/INFO (the MF being current) | `00 B0 81 00 00` (READ BINARY, SFI `01`, Le `00`) | 1 |
///
/// The sizes are taken as whole APDUs (the response's includes SW1 SW2): the reading of the two that never asks for
/// more than the chip can send.
package struct ExtendedLengthInfo: Sendable, Hashable {
    /// The largest command APDU the chip accepts.
    package var maxCommandLength: Int
    /// The largest response APDU the chip sends.
    package var maxResponseLength: Int

    package init(maxCommandLength: Int, maxResponseLength: Int) {
        self.maxCommandLength = maxCommandLength
        self.maxResponseLength = maxResponseLength
    }

    /// The `7F66` object of EF.ATR/INFO's contents, or nil when the file has none. Other data objects (card service
    /// data `43`, card capabilities `47`, …) are skipped.
    package init?(atrInfo: [UInt8]) throws(PassportError) {
        let objects: [DataObject]
        do { objects = try DataObject.decodeAll(atrInfo) } catch {
            throw PassportError(.malformed, "EF.ATR/INFO: \(error)")
        }
        guard let info = objects.first(where: { $0.tag == 0x7F66 }) else { return nil }
        let values: [DataObject]
        do { values = try DataObject.decodeAll(info.value) } catch {
            throw PassportError(.malformed, "EF.ATR/INFO's extended length information 7F66: \(error)")
        }
        guard values.count >= 2, values[0].tag == 0x02, values[1].tag == 0x02,
            let command = Self.unsigned(values[0].value), let response = Self.unsigned(values[1].value)
        else {
            throw PassportError(
                .malformed, "EF.ATR/INFO's 7F66 does not start with two INTEGERs (\(Hex.encode(info.value)))")
        }
        self.init(maxCommandLength: command, maxResponseLength: response)
    }

    /// A non-negative INTEGER of 1–4 content bytes.
    static func unsigned(_ bytes: [UInt8]) -> Int? {
        guard (1...4).contains(bytes.count), bytes[0] & 0x80 == 0 else { return nil }
        return bytes.reduce(0) { $0 << 8 | Int($1) }
    }

    /// Reads EF.ATR/INFO by its short identifier from the current DF (the MF, selected before); nil when the chip
    /// has no such file or it holds no `7F66` — then only short APDUs are used. A file that cannot be parsed is not
    /// fatal either: the read goes on with short APDUs, as it would on a chip without the file.
    static func read(_ session: EMRTDSession) throws(PassportError) -> ExtendedLengthInfo? {
        let r = try session.send(CommandAPDU(ins: 0xB0, p1: 0x81, p2: 0x00, le: 256), name: "READ BINARY EF.ATR/INFO")
        guard r.isSuccess || r.sw == 0x6282, !r.data.isEmpty else { return nil }
        return try? ExtendedLengthInfo(atrInfo: r.data)
    }
}
