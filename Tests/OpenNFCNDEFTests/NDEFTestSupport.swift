import OpenNFCBytes
import OpenNFCNDEF

/// Hex literal for test vectors (spaces allowed); traps only on a malformed literal in the test itself.
func hex(_ s: String) -> [UInt8] { try! Hex.decode(s) }

func bytes(_ s: String) -> [UInt8] { Array(s.utf8) }

/// A record built in a test; traps only when the test itself builds an invalid one.
func rec(_ tnf: NDEFRecord.TypeNameFormat, _ type: String = "", id: [UInt8] = [], _ payload: [UInt8] = []) -> NDEFRecord
{
    try! NDEFRecord(tnf: tnf, type: Array(type.utf8), id: id, payload: payload)
}

/// Deterministic PRNG for sweeps (SplitMix64), so every run flips the same bits.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A record without a type (unknown TNF) built in a test.
func rec(_ tnf: NDEFRecord.TypeNameFormat, id: [UInt8] = [], _ payload: [UInt8]) -> NDEFRecord {
    try! NDEFRecord(tnf: tnf, id: id, payload: payload)
}
