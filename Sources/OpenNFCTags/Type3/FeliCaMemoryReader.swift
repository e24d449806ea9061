internal import OpenNFCBytes
package import OpenNFCRF

/// The memory reader behind `opennfc dump` and `restore` for NFC Forum Type 3 (FeliCa): everything a card gives
/// without a key, read with the commands of ``Type3Link``.
///
/// A FeliCa Lite-S (PMm IC code `F1`; also the Lite `F0` and FeliCa Link `F2` in Lite-S mode): every block a Read
/// Without Encryption returns without authentication (S_PAD0–13, REG, ID, D_ID, SER_C, SYS_C, CKV, MC, WCNT, STATE,
/// CRC_CHECK; FeliCa Lite-S User's Manual §3.2), four a command. Any other FeliCa card is read as a FeliCa Standard:
/// Request System Code, then for each system Polling (its own IDm), Search Service Code for its areas and services,
/// Request Service for their key versions, and Read Without Encryption of every block of every service that needs no
/// key (attribute bit 0 set); services that need one are listed, not read.
package enum FeliCaMemoryReader {
    /// PMm byte 1, the IC code: `F0` Lite (RC-S965), `F1` Lite-S (RC-S966), `F2` FeliCa Link in Lite-S mode.
    package static func icCode(_ target: RFTarget) -> UInt8? { target.nfcF.map { $0.pmm[1] } }

    /// Whether the card is read as a Lite-S (IC codes `F0`, `F1`, `F2`).
    package static func isLiteS(_ target: RFTarget) -> Bool {
        icCode(target).map { (0xF0...0xF2).contains($0) } ?? false
    }

    // MARK: FeliCa Lite-S

    /// The Lite-S blocks a dump reads, with their names (Lite-S User's Manual §3.2 Table 3-1).
    package static let liteSBlocks: [(block: Int, name: String)] =
        (0..<14).map { ($0, "S_PAD\($0)") } + [
            (0x0E, "REG"), (0x82, "ID"), (0x83, "D_ID"), (0x84, "SER_C"), (0x85, "SYS_C"), (0x86, "CKV"),
            (0x88, "MC"), (0x90, "WCNT"), (0x92, "STATE"), (0xA0, "CRC_CHECK"),
        ]

    /// The Lite-S read-only service `000B` and read/write service `0009` (Lite-S User's Manual §3.1).
    package static let liteSReadService: UInt16 = 0x000B
    package static let liteSWriteService: UInt16 = 0x0009

    /// Status flags that refused a block.
    package struct Refusal: Error, Equatable, Sendable {
        package var sf1: UInt8
        package var sf2: UInt8
    }

    /// Block number → its 16 bytes, or the status flags that refused it.
    package typealias LiteSImage = [Int: Result<[UInt8], Refusal>]

    /// Every block of ``liteSBlocks``, four a Read; a group refused is read again one block at a time, so a
    /// read-restricted S_PAD (it needs authentication) is told apart.
    package static func readLiteS(_ link: Type3Link) throws(TagError) -> LiteSImage {
        var image: LiteSImage = [:]
        let numbers = liteSBlocks.map(\.block)
        var i = 0
        while i < numbers.count {
            let group = Array(numbers[i..<min(i + 4, numbers.count)])
            switch try link.read(service: liteSReadService, blocks: group) {
            case .done(let blocks):
                for (b, d) in zip(group, blocks) { image[b] = .success(d) }
            case .refused:
                for b in group {
                    switch try link.read(service: liteSReadService, blocks: [b]) {
                    case .done(let d): image[b] = .success(d[0])
                    case .refused(let sf1, let sf2): image[b] = .failure(Refusal(sf1: sf1, sf2: sf2))
                    }
                }
            }
            i += group.count
        }
        return image
    }

    // MARK: FeliCa Standard

    package struct StandardImage: Sendable {
        package var systems: [SystemImage]
    }

    package struct Area: Sendable, Equatable {
        package var code: UInt16
        package var end: UInt16
        package var keyVersion: UInt16?
    }

    package struct SystemImage: Sendable {
        package var code: UInt16
        package var idm: [UInt8]
        package var areas: [Area]
        package var services: [ServiceImage]
    }

    package struct ServiceImage: Sendable {
        package var code: UInt16
        package var keyVersion: UInt16?
        /// The blocks read; nil for a service that needs a key (not read).
        package var blocks: [[UInt8]]?
        /// What ended the read other than "no such block".
        package var refusal: Refusal?

        /// Attribute bit 0 clear: the service needs a key (FeliCa Card User's Manual §2.3.1).
        package var needsKey: Bool { code & 0x01 == 0 }
        /// The service kind from attribute bits 2–5.
        package var kind: String {
            switch code & 0x3C {
            case 0x08: "random"
            case 0x0C: "cyclic"
            case 0x10, 0x14, 0x18, 0x1C: "purse"
            default: "other"
            }
        }
        package var isReadOnly: Bool { code & 0x02 != 0 }
        /// Writable without a key: a random or cyclic read/write service without key.
        package var isWritable: Bool { !needsKey && !isReadOnly && (kind == "random" || kind == "cyclic") }
    }

    /// Every system, area and service of the card, and the blocks of every service that needs no key.
    package static func readStandard(_ link: Type3Link, target: RFTarget) throws(TagError) -> StandardImage {
        let codes = try link.systemCodes()
        var systems: [SystemImage] = []
        for (k, code) in codes.enumerated() {
            let system: Type3Link
            if k == 0 && (target.nfcF?.systemCode == nil || target.nfcF?.systemCode == code) {
                system = link
            } else {
                guard let answered = try link.polling(code) else {
                    throw TagError(.invalidResponse, "system \(FeliCaFrame.hex4(code)) did not answer Polling")
                }
                system = link.addressing(answered.idm)
            }
            var nodes: [(code: UInt16, end: UInt16?)] = []
            while nodes.count < 0x1_0000, let node = try system.searchServiceCode(index: nodes.count) {
                nodes.append(node)
            }
            let versions = try system.keyVersions(nodes.map(\.code))
            var image = SystemImage(code: code, idm: system.idm, areas: [], services: [])
            for (node, version) in zip(nodes, versions) {
                if let end = node.end {
                    image.areas.append(Area(code: node.code, end: end, keyVersion: version))
                    continue
                }
                var service = ServiceImage(code: node.code, keyVersion: version, blocks: nil, refusal: nil)
                if !service.needsKey {
                    let (blocks, refusal) = try system.readAll(service: node.code, batch: system.readBatch)
                    service.blocks = blocks
                    service.refusal = refusal.map { Refusal(sf1: $0.sf1, sf2: $0.sf2) }
                }
                image.services.append(service)
            }
            systems.append(image)
        }
        return StandardImage(systems: systems)
    }
}
