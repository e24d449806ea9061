public import Foundation

/// An ISO 7816-4 command APDU (Core NFC §7.1).
///
/// Encoding follows ISO/IEC 7816-4 §5.1 (cases 1–4, short and extended) with the choices Core NFC makes:
/// Lc is extended (`00 hi lo`) when the data is 256 bytes or longer or Le exceeds 256; Le is written only when
/// `expectedResponseLength >= 1` — one byte (`00` for 256) in short form, `00 hi lo` extended without data,
/// `hi lo` extended after data (`00 00` for 65536). `-1` means no Le.
///
/// Apple's initializer cannot fail although Le must be −1 or 1…65536 and the data at most 65535 bytes; here an APDU
/// built with values outside those ranges is kept, and sending it fails with `readerErrorParameterOutOfBound` (Le)
/// or `readerErrorInvalidParameterLength` (data) instead of trapping.
open class NFCISO7816APDU: NSObject, NSCopying {
    /// CLA.
    open private(set) var instructionClass: UInt8
    /// INS.
    open private(set) var instructionCode: UInt8
    /// P1.
    open private(set) var p1Parameter: UInt8
    /// P2.
    open private(set) var p2Parameter: UInt8
    /// The command data field; nil when there is none.
    open private(set) var data: Data?
    /// Le: the expected response length, 1…65536, or −1 when no response data is expected.
    open private(set) var expectedResponseLength: Int

    /// Creates an APDU from its fields; Lc is taken from `data.count` (an empty `data` means no data field).
    public init(
        instructionClass: UInt8, instructionCode: UInt8, p1Parameter: UInt8, p2Parameter: UInt8, data: Data,
        expectedResponseLength: Int
    ) {
        self.instructionClass = instructionClass
        self.instructionCode = instructionCode
        self.p1Parameter = p1Parameter
        self.p2Parameter = p2Parameter
        self.data = data.isEmpty ? nil : data
        self.expectedResponseLength = expectedResponseLength
        super.init()
    }

    /// Parses a complete raw APDU (ISO/IEC 7816-4 §5.1 cases 1–4, short and extended); nil when the bytes are not
    /// one well-formed APDU (fewer than 4 bytes, or Lc/Le inconsistent with the length).
    public init?(data: Data) {
        guard let fields = APDUFields(parsing: [UInt8](data)) else { return nil }
        self.instructionClass = fields.cla
        self.instructionCode = fields.ins
        self.p1Parameter = fields.p1
        self.p2Parameter = fields.p2
        self.data = fields.data.isEmpty ? nil : Data(fields.data)
        self.expectedResponseLength = fields.le
        super.init()
    }

    /// APDUs are immutable: a copy is the same object.
    open func copy(with zone: NSZone? = nil) -> Any { self }

    /// The fields as the internal APDU model.
    var fields: APDUFields {
        APDUFields(
            cla: instructionClass, ins: instructionCode, p1: p1Parameter, p2: p2Parameter,
            data: data.map { [UInt8]($0) } ?? [], le: expectedResponseLength)
    }
}
