import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTags
import Testing

/// Walks the delivery-policy table on the simulated iPhone: for one virtual chip of each family and each kind of
/// reading, what the app receives through Core NFC's public API is what `DeliveryPolicy` says.
@Suite struct DeliveryTableWalkTests {
    /// A DESFire EV1's GetVersion (hardware 04 01 01 01 00 18 05: NXP, DESFire, EV1, 4 KB, ISO 14443-2 and -3).
    static let ev1 = DESFireVersion(
        hardware: [0x04, 0x01, 0x01, 0x01, 0x00, 0x18, 0x05], software: [0x04, 0x01, 0x01, 0x01, 0x04, 0x18, 0x05],
        production: [UInt8](repeating: 0x00, count: 14))!
    /// A MIFARE Plus EV1 2K's GetVersion (hardware 04 02 01 11 00 16 05).
    static let plus = MIFAREPlusVersion(
        hardware: [0x04, 0x02, 0x01, 0x11, 0x00, 0x16, 0x05], software: [0x04, 0x02, 0x01, 0x11, 0x00, 0x16, 0x05],
        production: [UInt8](repeating: 0x00, count: 14))!
    static let uri = RealStackTests.uri("walk.example")
    static let aid = "D2760000850101"

    static func chips() throws -> [(TagKind, any VirtualTag)] {
        [
            (.type1, try Type1Tag.factory(.topaz512, uid: [0x11, 0x22, 0x33, 0x44], holding: uri)),
            (.type2(.ntag213), try Type2Tag.factory(.ntag213, uid: [4, 1, 2, 3, 4, 5, 6], holding: uri)),
            (
                .type5(Type5Chip(uid: [0xE0, 0x04, 0x01, 0x10, 1, 2, 3, 4])),
                try ISO15693Tag.factory(.icodeSLIX, uid: [0xE0, 0x04, 0x01, 0x10, 1, 2, 3, 4], holding: uri)
            ),
            (.desfire(ev1), try DESFireEV1Tag.ndefFormatted(uid: [0x04, 1, 2, 3, 4, 5, 6], holding: uri)),
            (.iso7816, try Type4Tag.factory(uid: [0x02, 0x01, 0x02, 0x03], holding: uri)),
            (
                .mifarePlus(plus),
                try MIFAREPlusTag(
                    model: MIFAREPlusModel(generation: .ev1, is4K: false, uidLength: 7), uid: [0x04, 1, 2, 3, 4, 5, 6],
                    securityLevel: 3)
            ),
        ]
    }

    /// What the table says, in the words `describe` uses for what arrived.
    static func expected(_ d: Delivery) -> String? {
        switch d {
        case .deliver(let kind): return describe(kind)
        case .selectDeclaredAID: return "iso7816 \(aid)"  // every chip here has the NDEF application
        case .readNDEF: return "notification"
        case .nothing, .deliverIfPACE, .endSession: return nil
        }
    }

    static func describe(_ kind: DeliveredTag.Kind) -> String {
        switch kind {
        case .miFare(let family): return "miFare \(family)"
        case .iso7816(let aid): return "iso7816 \(aid)"
        case .iso15693: return "iso15693"
        case .feliCa: return "feliCa"
        case .ndefOnly: return "ndef"
        }
    }

    static func describe(_ tag: any NFCNDEFTag) -> String {
        if let t = tag as? any NFCISO15693Tag { return t.identifier.isEmpty ? "iso15693 ?" : "iso15693" }
        if let t = tag as? any NFCISO7816Tag { return "iso7816 \(t.initialSelectedAID)" }
        if let t = tag as? any NFCMiFareTag {
            switch t.mifareFamily {
            case .ultralight: return "miFare ultralight"
            case .desfire: return "miFare desfire"
            case .plus: return "miFare plus"
            case .unknown: return "miFare unknown"
            @unknown default: return "miFare ?"
            }
        }
        return "ndef"
    }

    static let configuration = AppConfiguration(iso7816SelectIdentifiers: [aid])
    static let declarations = DeliveryDeclarations(hasSelectIdentifiers: true, desktop: false)

    @Test func ndefSessionsReceiveWhatTheTableSays() throws {
        for (family, chip) in try Self.chips() {
            let phone = VirtualPhone(configuration: Self.configuration)
            phone.put(chip)
            let app = NDEFTagRecorder()
            let seen = LogBox()
            app.onDetect = { session, tags in
                for tag in tags { seen.append(Self.describe(tag)) }
                session.invalidate()
            }
            phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false).begin() }
            phone.settle()
            let want = Self.expected(DeliveryPolicy.decide(family, .ndef, Self.declarations))
            #expect(seen.lines == (want.map { [$0] } ?? []), "\(family)")
        }
    }

    @Test func tagSessionsReceiveWhatTheTableSays() throws {
        for (family, chip) in try Self.chips() {
            let phone = VirtualPhone(configuration: Self.configuration)
            phone.put(chip)
            let app = TagSessionRecorder()
            let seen = LogBox()
            app.onDetect = { session, tags in
                for tag in tags {
                    switch tag {
                    case .iso15693(let t): seen.append(Self.describe(t))
                    case .iso7816(let t): seen.append(Self.describe(t))
                    case .miFare(let t): seen.append(Self.describe(t))
                    case .feliCa: seen.append("feliCa")
                    @unknown default: seen.append("?")
                    }
                }
                session.invalidate()
            }
            phone.run {
                NFCTagReaderSession(configuration: .init(pollingOption: [.iso14443, .iso15693]), delegate: app).begin()
            }
            phone.settle()
            let want = Self.expected(DeliveryPolicy.decide(family, .tag, Self.declarations))
            #expect(seen.lines == (want.map { [$0] } ?? []), "\(family)")
        }
    }

    @Test func backgroundReadingDoesWhatTheTableSays() throws {
        for (family, chip) in try Self.chips() {
            let phone = VirtualPhone(configuration: Self.configuration)
            phone.put(chip)
            let want = Self.expected(DeliveryPolicy.decide(family, .background, Self.declarations))
            #expect(phone.notifications.map { _ in "notification" } == (want.map { [$0] } ?? []), "\(family)")
            #expect(phone.notifications.first?.uri == (want == nil ? nil : "https://walk.example"), "\(family)")
        }
    }
}
