import OpenNFCTags
import Testing

@testable import OpenNFCSystem

/// Walks the delivery-policy table (family × kind of reading × Info.plist): the rules every row keeps, and the
/// Info.plist column.
@Suite struct DeliveryPolicyTests {
    /// A DESFire EV1's GetVersion (hardware 04 01 01 01 00 18 05: NXP, DESFire, EV1, 4 KB, ISO 14443-2 and -3).
    static let ev1 = DESFireVersion(
        hardware: [0x04, 0x01, 0x01, 0x01, 0x00, 0x18, 0x05], software: [0x04, 0x01, 0x01, 0x01, 0x04, 0x18, 0x05],
        production: [UInt8](repeating: 0x00, count: 14))!
    static let families: [TagKind] = [
        .type1, .type2(.ntag213), .type3, .type5(Type5Chip(uid: [0xE0, 0x04, 0x01, 0x10, 1, 2, 3, 4])), .desfire(ev1),
        .iso7816, .mifareClassic, .mifarePlus(plus),
        .unsupported("NFC-F"),
    ]
    /// A MIFARE Plus EV1 2K's GetVersion (hardware 04 02 01 11 00 16 05: NXP, Plus, EV1, 2 KB).
    static let plus = MIFAREPlusVersion(
        hardware: [0x04, 0x02, 0x01, 0x11, 0x00, 0x16, 0x05], software: [0x04, 0x02, 0x01, 0x11, 0x00, 0x16, 0x05],
        production: [UInt8](repeating: 0x00, count: 14))!
    static let declarations: [DeliveryDeclarations] = [false, true].flatMap { aids in
        [false, true].map { DeliveryDeclarations(hasSelectIdentifiers: aids, desktop: $0) }
    }

    /// Core NFC reads NDEF from Types 1–5 in NDEF sessions and in the background (Type 4 through ISO 7816 and
    /// DESFire), never from MIFARE Classic.
    static func isNFCForumType(_ f: TagKind) -> Bool {
        switch f {
        case .type1, .type2, .type3, .type5, .desfire, .iso7816: return true
        case .mifareClassic, .mifarePlus, .unsupported: return false
        }
    }

    @Test func mifarePlusIsAMiFareTagOfThePlusFamilyInTagSessionsOnly() {
        for d in Self.declarations {
            #expect(DeliveryPolicy.decide(.mifarePlus(Self.plus), .tag, d) == .deliver(.miFare(.plus)))
            if case .nothing = DeliveryPolicy.decide(.mifarePlus(Self.plus), .ndef, d) {
            } else {
                Issue.record("an NDEF session got a MIFARE Plus")
            }
        }
    }

    @Test(arguments: families)
    func everyRowKeepsTheRulesOfItsColumns(family: TagKind) {
        for d in Self.declarations {
            for reading in DeliveryReading.allCases {
                let cell = DeliveryPolicy.decide(family, reading, d)
                switch (reading, cell) {
                case (.background, .readNDEF), (.background, .nothing): break
                case (.background, _): Issue.record("background reading delivers no tag object: \(family) \(cell)")
                case (_, .readNDEF): Issue.record("only background reading reads by itself: \(family) \(reading)")
                case (.pace, .deliverIfPACE), (.pace, .nothing): break
                case (.pace, _): Issue.record("PACE polling delivers only cards that advertise PACE: \(family)")
                case (.ndef, .deliver), (.ndef, .nothing): break
                case (.ndef, _): Issue.record("an NDEF session neither selects AIDs nor ends: \(family) \(cell)")
                case (.tag, .deliverIfPACE): Issue.record("a tag session without .pace checks no PACE: \(family)")
                case (.tag, _): break
                }
                if case .selectDeclaredAID = cell, !d.hasSelectIdentifiers {
                    Issue.record("the Info.plist column leaves no AID selection without a declared AID: \(family)")
                }
            }
            let readsNDEF = Self.isNFCForumType(family)
            #expect((DeliveryPolicy.decide(family, .background, d) == .readNDEF) == readsNDEF, "\(family)")
            if case .deliver = DeliveryPolicy.decide(family, .ndef, d) {
                #expect(readsNDEF, "\(family)")
            } else {
                #expect(!readsNDEF, "\(family) must reach an NDEF session")
            }
        }
    }

    @Test func type5IsAnISO15693TagInBothSessionKinds() {
        let d = DeliveryDeclarations(hasSelectIdentifiers: false, desktop: false)
        #expect(
            DeliveryPolicy.decide(.type5(Type5Chip(uid: [0xE0, 0x02, 0x24, 0x00, 1, 2, 3, 4])), .ndef, d)
                == .deliver(.iso15693))
        #expect(
            DeliveryPolicy.decide(.type5(Type5Chip(uid: [0xE0, 0x02, 0x24, 0x00, 1, 2, 3, 4])), .tag, d)
                == .deliver(.iso15693))
        #expect(
            DeliveryPolicy.decide(.type5(Type5Chip(uid: [0xE0, 0x02, 0x24, 0x00, 1, 2, 3, 4])), .pace, d)
                == DeliveryPolicy.notISO7816)
    }

    @Test func theInfoPlistColumnDecidesISO7816AndDESFireInTagSessionsOnly() {
        let none = DeliveryDeclarations(hasSelectIdentifiers: false, desktop: false)
        let declared = DeliveryDeclarations(hasSelectIdentifiers: true, desktop: false)
        let desktop = DeliveryDeclarations(hasSelectIdentifiers: false, desktop: true)
        #expect(DeliveryPolicy.decide(.iso7816, .tag, declared) == .selectDeclaredAID(otherwise: nil))
        #expect(
            DeliveryPolicy.decide(.desfire(Self.ev1), .tag, declared)
                == .selectDeclaredAID(otherwise: .miFare(.desfire)))
        guard case .endSession(let why) = DeliveryPolicy.decide(.iso7816, .tag, none) else {
            Issue.record("an ISO 7816 card with no declared AID ends the session")
            return
        }
        #expect(why.contains(AppConfiguration.selectIdentifiersKey))
        #expect(DeliveryPolicy.decide(.desfire(Self.ev1), .tag, none) == .deliver(.miFare(.desfire)))
        #expect(DeliveryPolicy.decide(.iso7816, .tag, desktop) == .deliver(.iso7816(initialSelectedAID: "")))
        #expect(DeliveryPolicy.decide(.desfire(Self.ev1), .tag, desktop) == .deliver(.iso7816(initialSelectedAID: "")))
        // Everything else ignores the declarations.
        for family in Self.families where family != .iso7816 && family != .desfire(Self.ev1) {
            for reading in DeliveryReading.allCases {
                let cells = Set(Self.declarations.map { DeliveryPolicy.decide(family, reading, $0) })
                #expect(cells.count == 1, "\(family) \(reading): \(cells)")
            }
        }
        for reading in [DeliveryReading.ndef, .pace, .background] {
            for family in [TagKind.iso7816, .desfire(Self.ev1)] {
                #expect(Set(Self.declarations.map { DeliveryPolicy.decide(family, reading, $0) }).count == 1)
            }
        }
    }
}
