internal import OpenNFCBytes
internal import OpenNFCCrypto

/// A trace of a real MIFARE DESFire EV1 8K (hardware 1.0, software 1.4, made in week 49 of 2013), read through a PN532
/// by the author of the "DIY electronic RFID Door Lock with Battery Backup" project (codeproject.com article
/// 1096861), published as "DESFire EV1 Communication Examples" (a copy: github.com/sotechcllc/RFDoorLock,
/// `Desfire EV1 Communication Examples.htm`). It covers ISO (`1A`) authentication with DES, 2K3DES and 3K3DES keys and
/// AES (`AA`) authentication, the session keys, CMACs on commands and answers, ChangeKey of the authenticated key and
/// of another key, ChangeKeySettings, and a standard data file written and read in plain communication inside an
/// AES session.
///
/// Only the native DESFire frames are kept (the PN532 framing dropped), in the transcript grammar of the test suites
/// (`command -> answer`, status first, hex). The random numbers are the trace's: RndB is what the card drew, RndA what
/// the reader drew, so a virtual card fed the RndBs and a reader fed the RndAs must reproduce every byte. A test
/// vector from a public source, not computed by this project: the card is the one independent reading.
package enum DESFireEV1Trace {
    /// One part of the trace: the frames, and the random numbers each authentication in it drew, in order.
    package struct Section: Sendable {
        package var name: String
        package var transcript: String
        package var rndB: [[UInt8]]
        package var rndA: [[UInt8]]
    }

    /// The card of the trace: its UID, batch number and GetVersion bytes.
    package static let uid: [UInt8] = [0x04, 0x06, 0x3F, 0x72, 0x63, 0x34, 0x80]
    package static let batch: [UInt8] = [0xBA, 0x45, 0x19, 0xE3, 0x20]
    package static let hardware: [UInt8] = [0x04, 0x01, 0x01, 0x01, 0x00, 0x1A, 0x05]
    package static let software: [UInt8] = [0x04, 0x01, 0x01, 0x01, 0x04, 0x1A, 0x05]
    /// Production week and year (BCD).
    package static let production: (week: UInt8, year: UInt8) = (0x49, 0x13)

    /// The keys the trace sets. The DES-family keys carry their key version 0x10 in the low bits of their first eight
    /// bytes, as the card stores it (MF3ICD81, ChangeKey).
    package static let tdes2A = h("00 10 20 31 40 50 60 70 80 90 A0 B0 B0 A0 90 80")
    package static let tdes2B = h("10 18 20 29 30 38 40 48 50 58 60 68 70 78 80 88")
    package static let tdes3A = h("00 10 20 31 40 50 60 70 80 90 A0 B0 B0 A0 90 80 70 60 50 40 30 20 10 00")
    package static let tdes3B = h("10 18 20 29 30 38 40 48 50 58 60 68 70 78 80 88 90 98 A0 A8 B0 B8 C0 C8")
    package static let aesA = h("00 10 20 30 40 50 60 70 80 90 A0 B0 B0 A0 90 80")
    package static let aesB = h("10 18 20 28 30 38 40 48 50 58 60 68 70 78 80 88")

    /// The data the trace writes to file 5: 80 bytes, 00 to 4F.
    package static let fileData: [UInt8] = Array(0x00...0x4F)

    /// PICC level: a DES session on the master key, GetVersion, FormatPICC, four applications created (one deleted),
    /// then application 00DE16's key settings changed from 0F to 0D.
    package static let picc = Section(
        name: "PICC",
        transcript: """
            5A 000000 -> 00                                          # SelectApplication PICC
            64 00 -> 00 00                                           # GetKeyVersion 0: 00
            1A 00 -> AF 5D994CE085F24089                             # Authenticate ISO, key 0 (DES zeros): ek(RndB)
            AF 21D0AD5F2FD97454A746CC80567F1B1C -> 00 913C6DED84221C41
            60 -> AF 04010101001A05                                  # GetVersion: hardware
            AF -> AF 04010101041A05                                  # software
            AF -> 00 04063F72633480BA4519E3204913CDC810BAFA401759    # UID, batch, week 49, 2013, CMAC
            FC -> 00 9C2C813A065C45F7                                # FormatPICC
            CA 16DE00 0F 02 -> 00 0A1379B01D85AD47                   # CreateApplication 00DE16, 2 DES keys
            CA 24DE00 0F 42 -> 00 5D73AE5287A1BBE4                   # 00DE24, 2 3K3DES keys
            CA 16AE00 0F 82 -> 00 3B68D72A3BE0D20C                   # 00AE16, 2 AES keys
            CA CCBBAA 0F 01 -> 00 F11AC0738EF83878                   # AABBCC, 1 DES key
            6A -> 00 16DE00 24DE00 16AE00 CCBBAA 2739154E2630D650    # GetApplicationIDs
            DA CCBBAA -> 00 A9AF19052292F662                         # DeleteApplication AABBCC
            6A -> 00 16DE00 24DE00 16AE00 520E51E00AF06D5E
            5A 16DE00 -> 00                                          # SelectApplication 00DE16
            1A 00 -> AF 8476D1CF3024B7C7                             # Authenticate ISO, key 0 (zeros)
            AF DAC67AB743763DC9FAF8A0AE504E80C5 -> 00 13E9E4FA4388BF16
            45 -> 00 0F02 25DD8D7731B1CFD5                           # GetKeySettings: 0F, 2 keys
            54 27882805FC3FD49D -> 00 A628378374270ACD               # ChangeKeySettings 0D (enciphered)
            45 -> 00 0D02 613FB2D3F453D2E4                           # GetKeySettings: 0D
            """,
        rndB: [h("4F D1 B7 59 42 A8 B8 E1"), h("3B 3D FE 62 81 64 BF DA")],
        rndA: [h("84 9B 36 C5 F8 BF 4A 09"), h("49 EC 63 DE CD E0 07 72")])

    /// Application 00DE16: key 0 changed DES → 2K3DES A → 2K3DES B → DES zeros, key 1 DES → 2K3DES A → B.
    package static let tdes2 = Section(
        name: "2K3DES",
        transcript: """
            5A 16DE00 -> 00
            1A 00 -> AF DE50F92310CAF5A5                             # key 0, DES zeros
            AF E00616668704D5549C8D6A13A0F8FCED -> 00 1D9D2954697DE760
            C4 00 BEDE0FC6ED347DCF0D51C717DF75D97D2C5A2BA6CAC7479D -> 00  # ChangeKey 0 to 2K3DES A: the session ends
            1A 00 -> AF B295579926155AE3                             # key 0, 2K3DES A
            AF 70F349740C945DAE159BA9FEDBCC461A -> 00 B8FD7FE56B241FC4
            C4 00 94E4F709DC2A2B07552610A1966E5C49EC90F616EDECA55B -> 00  # ChangeKey 0 to 2K3DES B
            1A 00 -> AF 9414819CC8BB62C3                             # key 0, 2K3DES B
            AF 937E6B1854A6D92E0FD975D9909001E8 -> 00 E055D11DD9535060
            64 00 -> 00 10 3345AA95F2D956CF                          # GetKeyVersion 0: 10
            C4 00 FC9E20FD77191E2AAB0CFD53D9999984BC59E886BFEB42D0 -> 00  # ChangeKey 0 to DES zeros (IV: that CMAC)
            1A 00 -> AF 53A670D78C0DFFD6                             # key 0, DES zeros
            AF B308408B575A2025253D49D693CCC29C -> 00 525BB01E5B70B794
            C4 01 4EB669E48DCA584749542E1BE89CB4C7845A38C57D19DE59 -> 00 2EAD04DCF121E0FE  # ChangeKey 1 to 2K3DES A
            C4 01 FA7BEFA6782C93E8D69CF7352CFD33DF5BC8AC4FBA4906FC -> 00 CB0A506405512893  # ChangeKey 1 to 2K3DES B
            1A 01 -> AF 87D3AC1E09570AAD                             # key 1, 2K3DES B
            AF D82E8C092631FE15257D67629FC929D5 -> 00 C4132CEF0D13F812
            """,
        rndB: [
            h("4C 64 7E 56 72 E2 A6 51"), h("BC D8 29 97 47 33 2D AF"), h("A4 0E 79 E0 F5 2F 63 AF"),
            h("CB E9 52 5F B7 DF 5C 3A"), h("60 8B EC D6 0A 7E 49 34"),
        ],
        rndA: [
            h("C9 6C E3 5E 4D 60 87 F2"), h("53 0E 3D 90 F7 A2 01 C4"), h("DD B0 97 C2 A1 E4 7B 96"),
            h("CB A6 75 E8 EF BA B9 9C"), h("F7 A2 01 C4 DB 76 05 38"),
        ])

    /// Application 00DE24: the same with 3K3DES keys.
    package static let tdes3 = Section(
        name: "3K3DES",
        transcript: """
            5A 24DE00 -> 00
            1A 00 -> AF BC1C570BC948156187132364E4DCE176             # key 0, 3K3DES zeros
            AF DDDC9A77597F03A40C7FAA362F45A8EADBE46A115D98198CBF36A6E51B39D87C -> 00 7244D935ED9A1306CD8C841A7C1DE39A
            C4 00 F4F865F318CB9DE80B2B165145021F4F3AFEF1244FEA42FC997726FDE750741D -> 00  # to 3K3DES A
            1A 00 -> AF FA2FB9A17B359D034DF3EB1C4179207E
            AF 7BF9E1AC2D7C2836112E642D398FBAEF5CA61CC3A629FA8BD52F43F9D931C043 -> 00 1E3051B59BA31E4CEF64BBE8721B7BD6
            C4 00 0A9BE77E7203CD8D3EB13D5F2C1F11FFE897ECAC1FE054CE4287685F3CE2162E -> 00  # to 3K3DES B
            1A 00 -> AF EDFAC076F7F75F3FA930D8365A7C9206
            AF B4F5266DBF4BF93970BC386E94F4FA59884E94F9F113B1BFB5A54E5A1BA08892 -> 00 65F4F5DADE89E12E2405FCE14D5CD798
            64 00 -> 00 10 AD4A52B1E31CC741                          # GetKeyVersion 0: 10
            C4 00 E6D4F3409549F638364D6E64694EC051D60847159E1040C16B613618C797F707 -> 00  # to 3K3DES zeros
            1A 00 -> AF 8F3154AFA86DA533EABE28859E5D5742
            AF 1DD98B71B9006198B8B80043FF296386775ED2C2DBC877BBD952FD06F5F87361 -> 00 AECD4704210BCAAFE1533D483FBEF3F8
            C4 01 0170A4721342A8C4C5C4DB5BA1F1AEDFE9CEF73BB46BAC44B8C11498CA17D945 -> 00 DC85C9A5A753B17A  # key 1 to A
            C4 01 E3E2DD9F1E2C8DB578652F78C30C533EADE1E663625E0F74DD13D4F9B9B3E43C -> 00 FA142DEBA3080191  # key 1 to B
            1A 01 -> AF 660B0E97E23B9C0F93FD82D0F069C298             # key 1, 3K3DES B
            AF 46D182F6B3C5C458EC1EC8BD43F0CA898CC9CD77F9BBC87F4E60617C1FF94266 -> 00 8018B80E2246BD1C1C05A067CD8E6E17
            """,
        rndB: [
            h("31 6E 6D 76 A4 49 F9 25 BA 30 4F B2 65 36 56 A2"), h("F4 D6 56 42 AE EB 3D 12 FB 8A C6 FE 46 CE 7A 2F"),
            h("58 14 D2 51 3D 9E C0 66 68 C0 CC 1B 59 23 7A FD"), h("E5 94 26 66 6D 90 09 A7 15 8E DE 04 43 6B DA 5E"),
            h("41 C4 0C 7F 0E 89 71 0D 08 A3 94 E3 04 D1 15 E8"),
        ],
        rndA: [
            h("36 C5 F8 BF 4A 09 AC 23 9E 8D A0 C7 32 51 D4 AB"), h("03 FE 6D 00 A7 92 31 34 8B 66 35 A8 AF 7A 79 5C"),
            h("D1 54 2B 86 D5 C8 4F 9A 19 7C B3 EE 9D 70 57 82"), h("02 E1 24 BB D6 E5 98 DF EA 29 4C 43 3E AD 40 E7"),
            h("7F 0A C9 6C E3 5E 4D 60 87 F2 11 94 6B C6 15 08"),
        ])

    /// Application 00AE16: AES keys with version 10, then file 5 (80 bytes, plain) created, written, read, deleted,
    /// and at the end the PICC formatted again in a DES session.
    package static let aes = Section(
        name: "AES",
        transcript: """
            5A 16AE00 -> 00
            AA 00 -> AF B969FDFE56FD91FC9DE6F6F213B8FD1E             # Authenticate AES, key 0 (zeros)
            AF 36AAD7DF6E436BA08D18613830A70D5AD43E3D3F4A8D47541EEE623A934E4774 -> 00 800DB680BC146BD121D6578F2D2E2059
            C4 00 E9F85E219496C2B58C1090DC3935FAE9E840CF61B383D9531946256B1F110C10 -> 00  # to AES A, version 10
            AA 00 -> AF CCC8316C2B2613FE9A189BAC9CC89D03
            AF C02E061E72E17726489CAEEC997C523758BF863EFE7671C55B4665D06ACCD97B -> 00 72ACCC0BDEA482B53185BB5AD0086246
            C4 00 2945E3760E60F4A4046BB8A505B31CF559A3A2E05213BC82942CA6AB5DBCECF5 -> 00  # to AES B, version 10
            AA 00 -> AF 3E2BE626C05E7798EE518355A751648E
            AF FABF71BB0DC45B8F31BAEDDFF7F3439652D4094DF12C17EF0C94353E6D7770C8 -> 00 1CE6C574E24923D404E18B6A240C1B08
            64 00 -> 00 10 8A8FA36F55CD210D                          # GetKeyVersion 0: 10 (CMAC: 8 of 16 bytes)
            C4 00 635375E4919F8AF2E9E86B1C1BA55B0C0807EAF484D7A7EF6E0C3084160F5A61 -> 00  # to AES zeros, version 00
            AA 00 -> AF EDDAF0C5D9A7CF42B8808BE2013899A1
            AF D8105F874E2CA57B76C354A8066B0D7880B0C4EC399DBF253438DB46D75F8F60 -> 00 459C76B71AB9F1736413F5ACD73E7DF9
            C4 01 E7ECCB6BD1CA64BC161A12B1C024F71430337408C8A87EACAB7A1FF18951FCA3 -> 00 2128D3CD9C9ACFFF  # key 1 to A
            C4 01 2841938C40A4BC2C33064482FEADA5F43EC535D34255B0286C2352CD173863C7 -> 00 CAF3BF0B2836E9DE  # key 1 to B
            AA 01 -> AF B351CB2465D4F33AC627FD6E87A168F2             # key 1, AES B
            AF 044B6CAC343A0865895149649CA8DDE1F5AC4EC67BD208900AF02F049E05F0B0 -> 00 A2EE144B1012FBEB7B2F11132D95A454
            CD 05 00 1100 500000 -> 00 A75316AD1596B953              # CreateStdDataFile 5, plain, RW and Change key 1
            6F -> 00 05 2D5FF67FFEC9D2D3                             # GetFileIDs
            F5 05 -> 00 00 00 1100 500000 2AAC7517024E09DC           # GetFileSettings 5
            3D 05 000000 340000 \(hex(fileData[0..<0x34])) -> 00 765C9DAA50ECB62F   # WriteData 52 bytes at 0
            3D 05 340000 1C0000 \(hex(fileData[0x34...])) -> 00 3E0AED986B8B0F37    # 28 bytes at 52
            BD 05 000000 300000 -> 00 \(hex(fileData[0..<0x30])) 4C65F1F842262BAC  # ReadData 48 bytes at 0
            BD 05 300000 200000 -> 00 \(hex(fileData[0x30...])) F02205CF913C03C9   # 32 bytes at 48
            DF 05 -> 00 1BEF0D32B6D1D7F9                             # DeleteFile 5
            6F -> 00 FC194EA93E3EF8E7                                # GetFileIDs: none
            5A 000000 -> 00
            1A 00 -> AF 4415939B21D8EEE8                             # PICC master key, DES zeros
            AF 89D611809D605F8C917A18BF26DE2D6F -> 00 21696214FDDA2504
            FC -> 00 3C28C112182E3BE8                                # FormatPICC
            """,
        rndB: [
            h("C0 5D DD 71 4F D7 88 A6 B7 B7 54 F3 C4 D0 66 E8"), h("27 10 47 12 5A 2A A5 81 78 F5 C5 1B 11 77 A1 9B"),
            h("91 03 68 45 7E 2E 9A A1 67 35 5B FB 54 4B 99 31"), h("D8 10 00 44 4B 97 6F 48 34 0D CD E3 4D 7A B1 7C"),
            h("62 6F FB D4 5C AF 33 4A CC A4 55 99 30 4F 5B 17"), h("14 4A 72 D2 5B 22 70 62"),
        ],
        rndA: [
            h("F4 4B 26 F5 68 6F 3A 39 1C D3 8E BD 10 77 22 81"), h("C2 A1 E4 7B 96 A5 58 9F AA E9 0C 03 FE 6D 00 A7"),
            h("90 F7 A2 01 C4 DB 76 05 38 FF 8A 49 EC 63 DE CD"), h("C2 A1 E4 7B 96 A5 58 9F AA E9 0C 03 FE 6D 00 A7"),
            h("40 E7 D2 71 74 CB A6 75 E8 EF BA B9 9C 53 0E 3D"), h("6D 00 A7 92 31 34 8B 66"),
        ])

    /// The four sections in the order the trace runs them (each starts where the previous one left the card).
    package static let sections = [picc, tdes2, tdes3, aes]

    private static func hex(_ b: ArraySlice<UInt8>) -> String { Hex.encode(Array(b)) }
}

/// A random source that hands out fixed bytes in order (then zeros): a trace's random numbers, or a test's chosen
/// challenge. Not for keys.
package final class FixedRandomSource: RandomSource, @unchecked Sendable {
    private var queue: [UInt8]
    package init(_ bytes: [UInt8]) { queue = bytes }
    package func bytes(_ count: Int) -> [UInt8] {
        let out = Array(queue.prefix(count)) + [UInt8](repeating: 0, count: max(0, count - queue.count))
        queue.removeFirst(min(count, queue.count))
        return out
    }
    /// How many fixed bytes are left.
    package var remaining: Int { queue.count }
}
