import OpenNFCBytes
import OpenNFCNDEF
import OpenNFCTestSupport

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

/// A record built in a test; traps only when the test itself builds an invalid one.
func rec(_ tnf: NDEFRecord.TypeNameFormat, _ type: String = "", id: [UInt8] = [], _ payload: [UInt8] = []) -> NDEFRecord
{
    try! NDEFRecord(tnf: tnf, type: Array(type.utf8), id: id, payload: payload)
}

/// A record without a type (unknown TNF) built in a test.
func rec(_ tnf: NDEFRecord.TypeNameFormat, id: [UInt8] = [], _ payload: [UInt8]) -> NDEFRecord {
    try! NDEFRecord(tnf: tnf, id: id, payload: payload)
}
