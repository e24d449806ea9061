import Foundation
import OpenCoreNFC
import Testing

/// The ISO 15693 flags and structs carry Apple's raw values (the header's `NS_OPTIONS` bits) and keep what they are
/// given.
@Suite struct ISO15693ValueTypeTests {
    @Test func requestFlagBitsAreApplesAndSkipTheInventoryBit() {
        let all: [NFCISO15693RequestFlag] = [
            .dualSubCarriers, .highDataRate, .protocolExtension, .select, .address, .option, .commandSpecificBit8,
        ]
        #expect(all.map(\.rawValue) == [0x01, 0x02, 0x08, 0x10, 0x20, 0x40, 0x80])
        let union = all.reduce(NFCISO15693RequestFlag()) { $0.union($1) }
        #expect(union.rawValue == 0xFB)
        #expect(!union.contains(NFCISO15693RequestFlag(rawValue: 0x04)))
        #expect(NFCISO15693RequestFlag.RawValue.self == UInt8.self)
    }

    @Test func responseFlagBitsAreApples() {
        let all: [NFCISO15693ResponseFlag] = [
            .error, .responseBufferValid, .finalResponse, .protocolExtension, .blockSecurityStatusBit5,
            .blockSecurityStatusBit6, .waitTimeExtension,
        ]
        #expect(all.map(\.rawValue) == [0x01, 0x02, 0x04, 0x08, 0x10, 0x20, 0x40])
        let answer = NFCISO15693ResponseFlag(rawValue: 0x09)
        #expect(answer.contains(.error) && answer.contains(.protocolExtension) && !answer.contains(.finalResponse))
    }

    @Test func systemInfoAndSecurityStatusKeepTheirFields() {
        let uid = Data([0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x04, 0xE0])
        var info = NFCISO15693SystemInfo(
            uniqueIdentifier: uid, dataStorageFormatIdentifier: 0, applicationFamilyIdentifier: -1, blockSize: 4,
            totalBlocks: 28, icReference: 1)
        #expect(info.uniqueIdentifier == uid && info.dataStorageFormatIdentifier == 0)
        #expect(info.applicationFamilyIdentifier == -1 && info.blockSize == 4 && info.totalBlocks == 28)
        #expect(info.icReference == 1)
        info.totalBlocks = 80
        #expect(info.totalBlocks == 80)
        let status = NFCISO15693MultipleBlockSecurityStatus(blockSecurityStatus: [0x00, 0x01, 0x00])
        #expect(status.blockSecurityStatus == [0, 1, 0])
    }
}
