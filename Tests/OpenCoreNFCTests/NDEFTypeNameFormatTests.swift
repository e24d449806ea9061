import OpenCoreNFC
import Testing

/// `NFCTypeNameFormat` raw values are Core NFC's (Apple's Core NFC documentation; docs/PARITY.md §6.2) and the NDEF wire values (NDEF 1.0 §3.2.6).
@Suite struct NDEFTypeNameFormatTests {
    @Test func rawValuesMatchCoreNFC() {
        let expected: [(NFCTypeNameFormat, UInt8)] = [
            (.empty, 0), (.nfcWellKnown, 1), (.media, 2), (.absoluteURI, 3), (.nfcExternal, 4), (.unknown, 5),
            (.unchanged, 6),
        ]
        for (format, raw) in expected {
            #expect(format.rawValue == raw)
            #expect(NFCTypeNameFormat(rawValue: raw) == format)
        }
        #expect(NFCTypeNameFormat(rawValue: 7) == nil)
    }
}
