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
    // The fields as given; the public properties read them and are `open` read-only, as Apple's, so a subclass can
    // override any of them with a computed property (the session reads the overridden value when it sends).
    private let storedClass: UInt8
    private let storedCode: UInt8
    private let storedP1: UInt8
    private let storedP2: UInt8
    private let storedData: Data?
    private let storedLe: Int

    /// CLA.
    open var instructionClass: UInt8 { storedClass }
    /// INS.
    open var instructionCode: UInt8 { storedCode }
    /// P1.
    open var p1Parameter: UInt8 { storedP1 }
    /// P2.
    open var p2Parameter: UInt8 { storedP2 }
    /// The command data field; nil when there is none.
    open var data: Data? { storedData }
    /// Le: the expected response length, 1…65536, or −1 when no response data is expected.
    open var expectedResponseLength: Int { storedLe }

    /// Creates an APDU from its fields; Lc is taken from `data.count` (an empty `data` means no data field).
    public init(
        instructionClass: UInt8, instructionCode: UInt8, p1Parameter: UInt8, p2Parameter: UInt8, data: Data,
        expectedResponseLength: Int
    ) {
        self.storedClass = instructionClass
        self.storedCode = instructionCode
        self.storedP1 = p1Parameter
        self.storedP2 = p2Parameter
        self.storedData = data.isEmpty ? nil : data
        self.storedLe = expectedResponseLength
        super.init()
    }

    /// Parses a complete raw APDU (ISO/IEC 7816-4 §5.1 cases 1–4, short and extended); nil when the bytes are not
    /// one well-formed APDU (fewer than 4 bytes, or Lc/Le inconsistent with the length).
    public init?(data: Data) {
        guard let fields = APDUFields(parsing: [UInt8](data)) else { return nil }
        self.storedClass = fields.cla
        self.storedCode = fields.ins
        self.storedP1 = fields.p1
        self.storedP2 = fields.p2
        self.storedData = fields.data.isEmpty ? nil : Data(fields.data)
        self.storedLe = fields.le
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
