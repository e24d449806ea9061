/// The Android Application Record: external type `android.com:pkg` whose payload is a package name in UTF-8
/// (Android's `NdefRecord.createApplicationRecord`; the type is an NFC Forum external type, RTD 1.0 §3.3).
///
/// Strict decoding requires a non-empty package name of letters, digits, `_` and `.`; lenient keeps what is there.
package struct NDEFAndroidApplicationRecord: NDEFTypedRecord {
    package var packageName: String

    package init(packageName: String) {
        self.packageName = packageName
    }

    /// The external type, `android.com:pkg`.
    package static let externalType = "android.com:pkg"

    static func isAAR(_ record: NDEFRecord) -> Bool {
        record.tnf == .external && record.type.count == 15
            && String(decoding: record.type, as: UTF8.self).lowercased() == externalType
    }

    static func isValidPackage(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty
            && bytes.allSatisfy { b in
                (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) || b == 0x5F || b == 0x2E
            }
    }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        guard Self.isAAR(record) else {
            throw NDEFError(.wrongRecordType, at: record.payloadOffset, detail: "expected android.com:pkg")
        }
        if !Self.isValidPackage(record.payload) {
            try violate(
                .invalidAndroidApplication, at: record.payloadOffset, options, &repairs,
                detail: "not a package name", action: "kept the package name as written")
        }
        packageName = String(decoding: record.payload, as: UTF8.self)
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        let p = Array(packageName.utf8)
        guard Self.isValidPackage(p) else { throw NDEFError(.invalidAndroidApplication, at: 0) }
        return NDEFRecord(unchecked: .external, type: Array(Self.externalType.utf8)[...], id: [], payload: p[...])
    }
}
