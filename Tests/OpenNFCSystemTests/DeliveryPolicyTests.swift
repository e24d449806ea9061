import Testing

@testable import OpenNFCSystem

/// Walks the delivery-policy table (family × kind of reading × Info.plist): the rules every row keeps, and the
/// Info.plist column.
@Suite struct DeliveryPolicyTests {
    static let families: [TagIdentity.Family] = [
        .type1, .type2(chip: "ntag213"), .type3, .type5(chip: "icode-slix"), .desfire, .iso7816, .mifareClassic,
        .unsupported("NFC-F"),
    ]
    static let declarations: [DeliveryDeclarations] = [false, true].flatMap { aids in
        [false, true].map { DeliveryDeclarations(hasSelectIdentifiers: aids, desktop: $0) }
    }

    /// Core NFC reads NDEF from Types 1–5 in NDEF sessions and in the background (Type 4 through ISO 7816 and
    /// DESFire), never from MIFARE Classic.
    static func isNFCForumType(_ f: TagIdentity.Family) -> Bool {
        switch f {
        case .type1, .type2, .type3, .type5, .desfire, .iso7816: return true
        case .mifareClassic, .unsupported: return false
        }
    }

    @Test(arguments: families)
    func everyRowKeepsTheRulesOfItsColumns(family: TagIdentity.Family) {
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
        #expect(DeliveryPolicy.decide(.type5(chip: "st25dv04k"), .ndef, d) == .deliver(.iso15693))
        #expect(DeliveryPolicy.decide(.type5(chip: "st25dv04k"), .tag, d) == .deliver(.iso15693))
        #expect(DeliveryPolicy.decide(.type5(chip: "st25dv04k"), .pace, d) == DeliveryPolicy.notISO7816)
    }

    @Test func theInfoPlistColumnDecidesISO7816AndDESFireInTagSessionsOnly() {
        let none = DeliveryDeclarations(hasSelectIdentifiers: false, desktop: false)
        let declared = DeliveryDeclarations(hasSelectIdentifiers: true, desktop: false)
        let desktop = DeliveryDeclarations(hasSelectIdentifiers: false, desktop: true)
        #expect(DeliveryPolicy.decide(.iso7816, .tag, declared) == .selectDeclaredAID(otherwise: nil))
        #expect(DeliveryPolicy.decide(.desfire, .tag, declared) == .selectDeclaredAID(otherwise: .miFare(.desfire)))
        guard case .endSession(let why) = DeliveryPolicy.decide(.iso7816, .tag, none) else {
            Issue.record("an ISO 7816 card with no declared AID ends the session")
            return
        }
        #expect(why.contains(AppConfiguration.selectIdentifiersKey))
        #expect(DeliveryPolicy.decide(.desfire, .tag, none) == .deliver(.miFare(.desfire)))
        #expect(DeliveryPolicy.decide(.iso7816, .tag, desktop) == .deliver(.iso7816(initialSelectedAID: "")))
        #expect(DeliveryPolicy.decide(.desfire, .tag, desktop) == .deliver(.iso7816(initialSelectedAID: "")))
        // Everything else ignores the declarations.
        for family in Self.families where family != .iso7816 && family != .desfire {
            for reading in DeliveryReading.allCases {
                let cells = Set(Self.declarations.map { DeliveryPolicy.decide(family, reading, $0) })
                #expect(cells.count == 1, "\(family) \(reading): \(cells)")
            }
        }
        for reading in [DeliveryReading.ndef, .pace, .background] {
            for family in [TagIdentity.Family.iso7816, .desfire] {
                #expect(Set(Self.declarations.map { DeliveryPolicy.decide(family, reading, $0) }).count == 1)
            }
        }
    }
}
