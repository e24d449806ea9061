import OpenNFCBytes
import OpenNFCPN532
import OpenNFCPN532Emulator
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// The command dialog under faults, over a scripted link: every fault ends in a clear error, none in a hang.
@Suite struct PN532DriverTests {
    static let ack = PN532Frame.ack.encoded
    static let firmware = PN532Frame.information(tfi: 0xD5, data: h("0332010607")).encoded

    @Test func wakesUpOnceAndDecodesAnAnswerSplitAnyhow() throws {
        let answer = Self.ack + Self.firmware
        let t = ScriptedTransport([
            .bytes(Array(answer[0..<3])), .bytes(Array(answer[3..<9])), .bytes(Array(answer[9...])),
        ])
        let d = PN532Driver(transport: t)
        #expect(try d.call(0x02) == h("32010607"))
        #expect(t.wakeUps == 1 && t.writes == [h("0000FF02FED4022A00")] && t.allRead)
    }

    @Test func aGarbledAnswerIsAskedForAgainWithNACK() throws {
        var bad = Self.firmware
        bad[bad.count - 2] ^= 0xFF  // DCS
        let t = ScriptedTransport([.bytes(Self.ack), .bytes(bad), .bytes(Self.firmware)])
        let d = PN532Driver(transport: t)
        #expect(try d.call(0x02) == h("32010607"))
        #expect(t.writes.last == PN532Frame.nack.encoded)
    }

    @Test func aGarbledAnswerThatStaysGarbledNamesTheByte() throws {
        var bad = Self.firmware
        bad[bad.count - 2] ^= 0xFF
        let t = ScriptedTransport([.bytes(Self.ack), .bytes(bad), .bytes(bad), .bytes(bad)])
        let d = PN532Driver(transport: t)
        do {
            _ = try d.call(0x02)
            Issue.record("must fail")
        } catch {
            #expect(error.code == .garbled)
            #expect(error.detail.contains("DCS") && error.detail.contains("at byte "))
        }
        #expect(t.writes.filter { $0 == PN532Frame.nack.encoded }.count == 2)
    }

    @Test func noACKIsRetriedThenATimeoutThatSaysWhatToCheck() throws {
        let t = ScriptedTransport([.timeout, .timeout, .timeout])
        let d = PN532Driver(transport: t)
        do {
            _ = try d.call(0x02)
            Issue.record("must fail")
        } catch {
            #expect(error.code == .timeout)
            #expect(error.detail.contains("scripted link") && error.detail.contains("GetFirmwareVersion"))
            #expect(error.detail.contains("did not acknowledge") && error.detail.contains("3 tries"))
        }
        #expect(t.writes.count == 3)
    }

    @Test func silenceAfterTheACKAbortsTheCommand() throws {
        let t = ScriptedTransport([.bytes(Self.ack), .timeout])
        let d = PN532Driver(transport: t)
        #expect(throws: PN532Error.self) { try d.call(0x4A, h("0100"), timeoutMilliseconds: 10) }
        #expect(t.writes.last == PN532Frame.ack.encoded)  // the host ACK aborts the pending command
    }

    @Test func unpluggedMidCommand() throws {
        let t = ScriptedTransport([.bytes(Array(Self.ack.prefix(4))), .unplugged])
        let d = PN532Driver(transport: t)
        do {
            _ = try d.call(0x02)
            Issue.record("must fail")
        } catch {
            #expect(error.code == .unplugged)
            #expect(error.detail.contains("unplugged"))
        }
    }

    @Test func theErrorFrameAndEndlessNoiseAreClearErrors() throws {
        let t = ScriptedTransport([.bytes(Self.ack + PN532Frame.syntaxError.encoded)])
        do {
            _ = try PN532Driver(transport: t).call(0x7E)
            Issue.record("must fail")
        } catch {
            #expect(error.code == .syntaxError)
        }
        let noise = ScriptedTransport((0..<20).map { _ in .bytes([UInt8](repeating: 0x55, count: 1000)) })
        do {
            _ = try PN532Driver(transport: noise).call(0x02)
            Issue.record("must fail")
        } catch {
            #expect(error.code == .garbled)
            #expect(error.detail.contains("without a PN532 frame"))
        }
    }

    @Test func aNonPN532IsRefusedAtOpen() throws {
        let other = PN532Frame.information(tfi: 0xD5, data: h("0333010607")).encoded
        let sam = PN532Frame.information(tfi: 0xD5, data: [0x15]).encoded
        let t = ScriptedTransport([.bytes(Self.ack + sam), .bytes(Self.ack + other)])
        do {
            _ = try PN532Frontend(transport: t)
            Issue.record("must fail")
        } catch {
            #expect(error.code == .unsupported && error.detail.contains("not a PN532"))
        }
    }

    @Test func deviceStrings() throws {
        #expect(try PN532DeviceString(parsing: "/dev/ttyUSB0") == .serial(path: "/dev/ttyUSB0", baudRate: 115_200))
        #expect(try PN532DeviceString(parsing: "/dev/pts/3:921600") == .serial(path: "/dev/pts/3", baudRate: 921_600))
        #expect(try PN532DeviceString(parsing: "i2c:/dev/i2c-1") == .i2c(path: "/dev/i2c-1"))
        #expect(
            try PN532DeviceString(parsing: "spi:/dev/spidev0.0:500000")
                == .spi(path: "/dev/spidev0.0", speedHz: 500_000))
        for bad in ["", "/dev/ttyUSB0:12345", "i2c:", "spi:/dev/spidev0.0:9", "/dev/a:1:2"] {
            #expect(throws: PN532Error.self) { try PN532DeviceString(parsing: bad) }
        }
        do {
            _ = try PN532DeviceString(parsing: "/dev/does-not-exist-pn532").open()
            Issue.record("must fail")
        } catch {
            #expect(error.code == .open && error.detail.contains("/dev/does-not-exist-pn532"))
        }
    }
}
