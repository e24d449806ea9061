import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Testing

/// A virtual field with one tag in it, read through the reader procedures exactly as a session would
/// (``FieldBench``): NFC-A, B and F polled, the first answer activated and identified, then its NDEF procedure.
typealias InteropBench = FieldBench

extension FieldBench {
    /// Puts `tag` alone in the field, activates and identifies it, and returns its NDEF procedure with the frame
    /// counts reset (identification frames are not part of a procedure's count).
    func connect(_ tag: any VirtualTag) throws -> (IdentifiedTag, any NDEFTagProcedure) {
        try connect(tag, polling: RFPollRequest([.nfcA, .nfcB, .nfcF]))
    }
}

let uid7 = h("04 A1 B2 C3 D4 E5 F6")

/// The code of a thrown TagError, or nil.
func tagErrorCode(_ body: () throws -> Void) -> TagError.Code? {
    do {
        try body()
        return nil
    } catch let e as TagError {
        return e.code
    } catch {
        return nil
    }
}
