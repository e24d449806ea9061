internal import OpenNFCBytes
package import OpenNFCRF

/// Reads and restores a MIFARE DESFire EV1's applications and standard data files without authentication, with
/// ISO 7816-wrapped native commands (`90 CMD 00 00 Lc data 00` → `data 91 status`; `91 AF`: send `90 AF 00 00 00`
/// for the next frame; NXP AN12752 / MF3ICD81 §9).
///
/// | Supported | Not supported (why) |
/// |---|---|
/// | GetVersion, GetApplicationIDs, GetDFNames, GetKeySettings, GetFileIDs, GetISOFileIDs, GetFileSettings | key values are never read (a card does not give them) |
/// | Every file type free access or given keys open (`DESFireCard+Keys.swift`) | files no given key opens (reported closed) |
/// | CreateApplication, CreateStdDataFile where missing | deleting what the target has and the dump lacks (left alone) |
package struct DESFireCard {
    let link: APDULink
    let target: RFTarget

    /// A procedure for the activated ISO-DEP `target` reached through `frontend`.
    package init(target: RFTarget, frontend: any RFFrontend) {
        self.target = target
        self.link = APDULink(frontend: frontend)
    }

    /// Native data bytes per frame sent (WriteData chaining), within an EV1's 64-byte frame.
    static let frameData = 59

    static func le(_ v: Int, _ n: Int) -> [UInt8] { (0..<n).map { UInt8(v >> (8 * $0) & 0xFF) } }
    static func le(_ b: ArraySlice<UInt8>) -> Int {
        b.reversed().reduce(0) { $0 << 8 | Int($1) }
    }
    static func aidName(_ aid: UInt32) -> String { Hex.encode(le(Int(aid), 3).reversed()) }

    /// Sends one native command and every `AF` continuation; returns the concatenated data and the last status.
    func exchange(_ command: UInt8, _ data: [UInt8], name: String) throws(TagError) -> (data: [UInt8], status: UInt8) {
        var apdu = [0x90, command, 0x00, 0x00] + (data.isEmpty ? [] : [UInt8(data.count)] + data) + [0x00]
        var out: [UInt8] = []
        for _ in 0..<4096 {
            let r = try link.send(apdu, name: name)
            guard r.sw >> 8 == 0x91 else {
                throw TagError(
                    .invalidResponse,
                    "\(name) answered SW \(Hex.encode(Self.le(Int(r.sw), 2).reversed())), not a DESFire status")
            }
            out += r.data
            let status = UInt8(r.sw & 0xFF)
            if status != 0xAF { return (out, status) }
            apdu = [0x90, 0xAF, 0x00, 0x00, 0x00]
        }
        throw TagError(.invalidResponse, "\(name) kept answering AF (more frames) past 4096 frames")
    }

    /// A native command that must end with status `00`.
    @discardableResult
    func command(_ command: UInt8, _ data: [UInt8], name: String) throws(TagError) -> [UInt8] {
        let (out, status) = try exchange(command, data, name: name)
        try Self.check(status, name)
        return out
    }

    static func check(_ status: UInt8, _ name: String) throws(TagError) {
        let sw = 0x9100 | UInt16(status)
        switch status {
        case 0x00: return
        case 0xAE: throw TagError(.commandRejected, "\(name) needs authentication with a key", statusWord: sw)
        case 0x9D: throw TagError(.commandRejected, "\(name) is not permitted", statusWord: sw)
        case 0x0E: throw TagError(.commandRejected, "\(name): the card's memory is full", statusWord: sw)
        default: throw TagError(.commandRejected, "\(name) refused", statusWord: sw)
        }
    }

    /// The AIDs at PICC level (GetApplicationIDs `6A`, 3 bytes LE each).
    func applicationIDs() throws(TagError) -> [UInt32] {
        try command(0x5A, [0, 0, 0], name: "SelectApplication PICC")
        let ids = try command(0x6A, [], name: "GetApplicationIDs")
        guard ids.count % 3 == 0 else {
            throw TagError(.invalidResponse, "GetApplicationIDs answered \(ids.count) bytes, not a multiple of 3")
        }
        return stride(from: 0, to: ids.count, by: 3).map { UInt32(Self.le(ids[$0..<$0 + 3])) }
    }

    func select(_ aid: UInt32) throws(TagError) {
        try command(0x5A, Self.le(Int(aid), 3), name: "SelectApplication \(Self.aidName(aid))")
    }

    func fileIDs(_ aid: UInt32) throws(TagError) -> [UInt8] {
        try command(0x6F, [], name: "GetFileIDs of application \(Self.aidName(aid))")
    }

    /// GetFileSettings `F5`: (file type, communication, access rights, size of a data file).
    func fileSettings(_ number: UInt8, _ aid: UInt32) throws(TagError) -> (
        type: UInt8, communication: UInt8, access: UInt16, size: Int
    ) {
        let name = "GetFileSettings of file \(number) in application \(Self.aidName(aid))"
        let s = try command(0xF5, [number], name: name)
        guard s.count >= 7 else { throw TagError(.invalidResponse, "\(name) answered \(s.count) bytes, expected 7") }
        return (s[0], s[1], UInt16(Self.le(s[2..<4])), Self.le(s[4..<7]))
    }

    /// Reads the version, every application and every file free access opens (``readImage(keys:random:)``
    /// without keys: key-protected files are listed, marked closed).
    package func readImage() throws(TagError) -> DESFireImage {
        try readImage(keys: [:])
    }

    /// GetDFNames `6D` one frame at a time: AID(3 LE) ISO FID(2 LE) DF name per frame.
    func dfNamesByFrame() throws(TagError) -> [UInt32: (UInt16, [UInt8])] {
        var result: [UInt32: (UInt16, [UInt8])] = [:]
        var apdu: [UInt8] = [0x90, 0x6D, 0x00, 0x00, 0x00]
        for _ in 0..<64 {
            let r = try link.send(apdu, name: "GetDFNames")
            guard r.sw >> 8 == 0x91 else { throw TagError(.invalidResponse, "GetDFNames answered no DESFire status") }
            if r.data.count >= 5 {
                result[UInt32(Self.le(r.data[0..<3]))] = (UInt16(Self.le(r.data[3..<5])), Array(r.data[5...]))
            }
            if r.sw & 0xFF != 0xAF {
                try Self.check(UInt8(r.sw & 0xFF), "GetDFNames")
                return result
            }
            apdu = [0x90, 0xAF, 0x00, 0x00, 0x00]
        }
        throw TagError(.invalidResponse, "GetDFNames kept answering AF past 64 frames")
    }
}
