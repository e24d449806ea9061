package import OpenNFCBytes
internal import OpenNFCCrypto

/// The data groups and files of the LDS (ICAO Doc 9303 Part 10 §4.6–4.7): numbers, file identifiers, tags.
package enum LDS {
    /// The tag of DGn's outer TLV (Part 10 Table 34), index n − 1.
    static let dataGroupTags: [UInt8] = [
        0x61, 0x75, 0x63, 0x76, 0x65, 0x66, 0x67, 0x68, 0x69, 0x6A, 0x6B, 0x6C, 0x6D, 0x6E, 0x6F, 0x70,
    ]

    /// The data group number of an EF.COM tag, or nil.
    package static func dataGroup(tag: UInt8) -> Int? { dataGroupTags.firstIndex(of: tag).map { $0 + 1 } }

    /// DGn's file identifier `01 0n`.
    package static func fileID(dataGroup n: Int) -> UInt16 { 0x0100 | UInt16(n) }

    static func parse(_ bytes: [UInt8], _ name: String, tag: UInt32) throws(PassportError) -> DERNode {
        do { return try DERNode.parse(bytes).expect(tag, name) } catch {
            throw PassportError(.malformed, "\(name): \(error)")
        }
    }

    static func malformed<T>(_ name: String, _ body: () throws(DERError) -> T) throws(PassportError) -> T {
        do { return try body() } catch { throw PassportError(.malformed, "\(name): \(error)") }
    }
}

/// EF.COM (Part 10 §4.6.1): the LDS and Unicode versions and the list of present data groups.
package struct EFCOM: Sendable, Hashable {
    package var ldsVersion: String
    package var unicodeVersion: String
    package var dataGroups: [Int]

    package init(_ bytes: [UInt8]) throws(PassportError) {
        let node = try LDS.parse(bytes, "EF.COM", tag: 0x60)
        var lds = ""
        var unicode = ""
        var groups: [Int] = []
        try LDS.malformed("EF.COM") { () throws(DERError) in
            for child in try node.children() {
                switch child.tag {
                case 0x5F01: lds = try child.string()
                case 0x5F36: unicode = try child.string()
                case 0x5C: groups = child.value.compactMap(LDS.dataGroup(tag:))
                default: continue
                }
            }
        }
        (ldsVersion, unicodeVersion, dataGroups) = (lds, unicode, groups)
    }
}

/// DG1 (Part 10 §4.7.1): the MRZ, `61 { 5F1F <MRZ> }`.
package enum DG1 {
    package static func mrz(_ bytes: [UInt8]) throws(PassportError) -> MRZ {
        let node = try LDS.parse(bytes, "DG1", tag: 0x61)
        let text = try LDS.malformed("DG1") { () throws(DERError) in
            try node.first(0x5F1F, "DG1's MRZ (5F1F)").string()
        }
        do throws(PassportError) { return try MRZ(text) } catch {
            throw PassportError(.malformed, "DG1's MRZ: \(error.reason)")
        }
    }
}

/// The face of DG2 (Part 10 §4.7.2; ISO/IEC 7816-11 biometric templates, ISO/IEC 19794-5:2005 §5.4–5.7).
package struct FaceImage: Sendable, Hashable {
    /// `image/jpeg` or `image/jp2`.
    package var mimeType: String
    package var width: Int
    package var height: Int
    package var data: [UInt8]

    /// The first face image of DG2: `75 { 7F61 { 02 n, 7F60 { A1 header, 5F2E record } … } }`; the record is
    /// "FAC\0" "010\0", length, count, then per image the facial information (20 bytes), the feature points (8
    /// bytes each), the image information (12 bytes) and the image.
    package static func firstFace(dg2 bytes: [UInt8]) throws(PassportError) -> FaceImage {
        let node = try LDS.parse(bytes, "DG2", tag: 0x75)
        let (record, at) = try LDS.malformed("DG2") { () throws(DERError) -> ([UInt8], Int) in
            let group = try node.first(0x7F61, "DG2's biometric information group template (7F61)")
            var f = try group.fields()
            _ = try f.next(0x02, "the number of instances")
            let template = try f.next(0x7F60, "a biometric information template (7F60)")
            guard let bdb = try template.children().first(where: { $0.tag == 0x5F2E || $0.tag == 0x7F2E }) else {
                throw DERError("the template has no biometric data block (5F2E)", at: template.offset)
            }
            guard bdb.tag == 0x5F2E else {
                throw DERError("an ISO/IEC 39794-5 face record (7F2E) is not supported", at: bdb.offset)
            }
            return (bdb.value, bdb.valueRange.lowerBound)
        }
        var r = ByteReader(record)
        func fail(_ why: String) -> PassportError {
            PassportError(.malformed, "DG2's face record: \(why) (byte \(at + r.index))")
        }
        do {
            guard Array(try r.readBytes(4)) == Array("FAC\0".utf8) else { throw fail("no FAC format identifier") }
            _ = try r.readBytes(4)  // version "010\0"
            _ = try r.readBytes(4)  // record length
            guard try r.readUInt16() >= 1 else { throw fail("no face image") }
            let blockStart = r.index
            let blockLength = Int(try r.readUInt32())
            let featurePoints = Int(try r.readUInt16())
            _ = try r.readBytes(14)  // gender, eye, hair, feature mask, expression, pose, pose uncertainty
            _ = try r.readBytes(8 * featurePoints)
            _ = try r.readBytes(1)  // face image type
            let dataType = try r.readUInt8()
            let width = Int(try r.readUInt16())
            let height = Int(try r.readUInt16())
            _ = try r.readBytes(6)  // colour space, source type, device type, quality
            let imageLength = blockLength - (r.index - blockStart)
            guard imageLength > 0 else { throw fail("the image block is \(blockLength) bytes, too short") }
            let image = Array(try r.readBytes(imageLength))
            return FaceImage(
                mimeType: dataType == 1 ? "image/jp2" : "image/jpeg", width: width, height: height, data: image)
        } catch let e as PassportError { throw e } catch { throw fail("\(error)") }
    }
}

/// DG11 (additional personal details) and DG12 (additional document details), Part 10 §4.7.11–4.7.12: their text
/// fields by name.
package enum DetailsGroup {
    static let dg11Names: [UInt32: String] = [
        0x5F0E: "fullName", 0x5F0F: "otherName", 0x5F10: "personalNumber", 0x5F2B: "fullDateOfBirth",
        0x5F11: "placeOfBirth", 0x5F42: "address", 0x5F12: "telephone", 0x5F13: "profession", 0x5F14: "title",
        0x5F15: "personalSummary", 0x5F17: "otherTravelDocuments", 0x5F18: "custodyInformation",
    ]
    static let dg12Names: [UInt32: String] = [
        0x5F19: "issuingAuthority", 0x5F26: "dateOfIssue", 0x5F1A: "otherPersons", 0x5F1B: "endorsements",
        0x5F1C: "taxOrExitRequirements", 0x5F55: "personalizationTime", 0x5F56: "personalizationDeviceSerial",
    ]

    /// The named text fields of DG11 (`6B`) or DG12 (`6C`); images and binary fields are left out; BCD dates
    /// (a quirk of some issuers) are shown in hex.
    package static func fields(_ bytes: [UInt8], dataGroup: Int) throws(PassportError) -> [(String, String)] {
        let names = dataGroup == 11 ? dg11Names : dg12Names
        let node = try LDS.parse(bytes, "DG\(dataGroup)", tag: dataGroup == 11 ? 0x6B : 0x6C)
        return try LDS.malformed("DG\(dataGroup)") { () throws(DERError) -> [(String, String)] in
            var out: [(String, String)] = []
            func visit(_ n: DERNode) throws(DERError) {
                if n.tag == 0xA0 {
                    for c in try n.children() { try visit(c) }
                } else if let name = names[n.tag] {
                    let text = (try? n.string()) ?? Hex.encode(n.value)
                    out.append((name, text.replacingOccurrences(of: "<", with: " ")))
                }
            }
            for child in try node.children() { try visit(child) }
            return out
        }
    }
}

extension String {
    fileprivate func replacingOccurrences(of a: Character, with b: String) -> String {
        String(self.map { $0 == a ? Character(b) : $0 })
    }
}

/// The SecurityInfos of DG14 (Part 10 §4.7.14; Part 11 §9.2): what Chip and Active Authentication need.
package struct SecurityInfos: Sendable {
    package struct ChipAuthenticationKey: Sendable {
        package var protocolOID: String
        package var subjectPublicKeyInfo: DERNode
        package var keyID: Int?
    }
    package struct ChipAuthenticationInfo: Sendable, Hashable {
        package var oid: String
        package var version: Int
        package var keyID: Int?
    }

    package var chipAuthenticationKeys: [ChipAuthenticationKey] = []
    package var chipAuthentication: [ChipAuthenticationInfo] = []
    package var pace: [PACEInfo] = []
    /// ActiveAuthenticationInfo's signature algorithm OID (`2.23.136.1.1.5`), for ECDSA Active Authentication.
    package var activeAuthenticationSignatureAlgorithm: String?

    /// Reads DG14 (`6E { SET OF SecurityInfo }`); unknown SecurityInfos are skipped.
    package init(dg14 bytes: [UInt8]) throws(PassportError) {
        let node = try LDS.parse(bytes, "DG14", tag: 0x6E)
        try LDS.malformed("DG14") { () throws(DERError) in
            let set = try node.first(0x31, "DG14's SecurityInfos")
            for info in try set.children() {
                var f = try info.expect(0x30, "a SecurityInfo").fields()
                let oid = try f.next(0x06, "the protocol").oid()
                if oid.hasPrefix("0.4.0.127.0.7.2.2.1.") {
                    let spki = try f.next(0x30, "the chip authentication public key")
                    chipAuthenticationKeys.append(
                        ChipAuthenticationKey(
                            protocolOID: oid, subjectPublicKeyInfo: spki, keyID: try f.optional(0x02)?.int()))
                } else if oid.hasPrefix("0.4.0.127.0.7.2.2.3.") {
                    chipAuthentication.append(
                        ChipAuthenticationInfo(
                            oid: oid, version: try f.next(0x02, "the CA version").int(),
                            keyID: try f.optional(0x02)?.int()))
                } else if oid.hasPrefix("0.4.0.127.0.7.2.2.4.") {
                    pace.append(
                        PACEInfo(
                            oid: oid, version: try f.next(0x02, "the PACE version").int(),
                            parameterID: try f.optional(0x02)?.int()))
                } else if oid == "2.23.136.1.1.5" {
                    _ = try f.next(0x02, "the AA version")
                    activeAuthenticationSignatureAlgorithm = try f.next(0x06, "the AA signature algorithm").oid()
                }
            }
        }
    }
}

/// DG15 (Part 10 §4.7.15): the Active Authentication public key, `6F { SubjectPublicKeyInfo }`.
package enum DG15 {
    package static func publicKeyInfo(_ bytes: [UInt8]) throws(PassportError) -> [UInt8] {
        let node = try LDS.parse(bytes, "DG15", tag: 0x6F)
        return try LDS.malformed("DG15") { () throws(DERError) in try node.first(0x30, "DG15's key").encoded }
    }
}
