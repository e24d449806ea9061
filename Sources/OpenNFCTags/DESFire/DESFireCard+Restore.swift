internal import OpenNFCBytes

extension DESFireCard {
    /// Restores `image` onto the card: each application the card lacks is created (CreateApplication `CA` with the
    /// dump's key settings, key count, ISO DF id and DF name), each file it lacks too (CreateStdDataFile `CD`, same
    /// ISO id, communication, access rights and size), then every file's contents are written (WriteData `3D`,
    /// `AF`-chained in frames of 59 bytes). Applications and files the card has and the dump lacks are left alone.
    ///
    /// - Returns: the number of applications created, files created and bytes written.
    /// - Throws: ``TagError`` `capacityExceeded` when an existing file's size differs from the dump's (nothing of
    ///   that application is written), `commandRejected` when the card needs a key for a step.
    package func restore(_ image: DESFireImage) throws(TagError) -> (applications: Int, files: Int, bytes: Int) {
        var counts = (applications: 0, files: 0, bytes: 0)
        let present = Set(try applicationIDs())
        for app in image.applications {
            let name = Self.aidName(app.aid)
            if !present.contains(app.aid) {
                var data = Self.le(Int(app.aid), 3) + [app.keySettings, app.keyCount]
                if let fid = app.isoFileID { data += Self.le(Int(fid), 2) + (app.dfName ?? []) }
                try command(0x5A, [0, 0, 0], name: "SelectApplication PICC")
                try command(0xCA, data, name: "CreateApplication \(name)")
                counts.applications += 1
            }
            try select(app.aid)
            let existing = Set(try fileIDs(app.aid))
            for file in app.files where existing.contains(file.number) {
                let size = try fileSettings(file.number, app.aid).size
                guard size == file.contents.count else {
                    throw TagError(
                        .capacityExceeded,
                        "file \(file.number) of application \(name) has \(size) bytes on the card, "
                            + "\(file.contents.count) in the dump")
                }
            }
            for file in app.files {
                if !existing.contains(file.number) {
                    var data: [UInt8] = [file.number]
                    if let fid = file.isoFileID { data += Self.le(Int(fid), 2) }
                    data += [file.communication] + Self.le(Int(file.accessRights), 2) + Self.le(file.contents.count, 3)
                    try command(0xCD, data, name: "CreateStdDataFile \(file.number) in application \(name)")
                    counts.files += 1
                }
                guard !file.contents.isEmpty else { continue }
                try writeData(file, name: "WriteData of file \(file.number) in application \(name)")
                counts.bytes += file.contents.count
            }
        }
        return counts
    }

    /// WriteData `3D` of the whole file: header and first bytes, then `AF` frames of ``frameData`` bytes.
    func writeData(_ file: DESFireFileImage, name: String) throws(TagError) {
        let header = [file.number] + Self.le(0, 3) + Self.le(file.contents.count, 3)
        let first = min(file.contents.count, Self.frameData - header.count)
        var apdu =
            [0x90, 0x3D, 0x00, 0x00] + [UInt8(header.count + first)] + header + file.contents[0..<first] + [0x00]
        var sent = first
        while true {
            let r = try link.send(apdu, name: name)
            guard r.sw >> 8 == 0x91 else { throw TagError(.invalidResponse, "\(name) answered no DESFire status") }
            let status = UInt8(r.sw & 0xFF)
            guard status == 0xAF, sent < file.contents.count else { return try Self.check(status, name) }
            let n = min(Self.frameData, file.contents.count - sent)
            apdu = [0x90, 0xAF, 0x00, 0x00, UInt8(n)] + file.contents[sent..<sent + n] + [0x00]
            sent += n
        }
    }
}
