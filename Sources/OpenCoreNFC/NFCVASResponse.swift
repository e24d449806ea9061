public import Foundation

/// The response to one GET VAS DATA command.
open class NFCVASResponse: NSObject, NSCopying, @unchecked Sendable {
    /// The response APDU status.
    open private(set) var status: NFCVASResponse.ErrorCode
    /// VAS data (on a real pass: its encrypted payload).
    open private(set) var vasData: Data
    /// Mobile token value.
    open private(set) var mobileToken: Data

    init(status: NFCVASResponse.ErrorCode, vasData: Data, mobileToken: Data) {
        self.status = status
        self.vasData = vasData
        self.mobileToken = mobileToken
        super.init()
    }

    /// A new response with the same values.
    open func copy(with zone: NSZone? = nil) -> Any {
        NFCVASResponse(status: status, vasData: vasData, mobileToken: mobileToken)
    }

    open override var description: String {
        "NFCVASResponse(status 0x\(String(status.rawValue, radix: 16, uppercase: true)), vasData \(vasData.count) "
            + "bytes, mobileToken \(mobileToken.count) bytes)"
    }
}
