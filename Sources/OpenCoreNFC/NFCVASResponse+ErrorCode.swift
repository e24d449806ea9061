extension NFCVASResponse {
    /// The response APDU status word (ObjC `NFCVASErrorCode`, raw values as Apple's).
    public enum ErrorCode: Int, Sendable, Hashable {
        case success = 0x9000
        case dataNotFound = 0x6A83
        case dataNotActivated = 0x6287
        case wrongParameters = 0x6B00
        case wrongLCField = 0x6700
        case userIntervention = 0x6984
        case incorrectData = 0x6A80
        case unsupportedApplicationVersion = 0x6340

        @available(*, deprecated, renamed: "success")
        public static var VASErrorCodeSuccess: NFCVASResponse.ErrorCode { .success }
        @available(*, deprecated, renamed: "dataNotFound")
        public static var VASErrorCodeDataNotFound: NFCVASResponse.ErrorCode { .dataNotFound }
        @available(*, deprecated, renamed: "dataNotActivated")
        public static var VASErrorCodeDataNotActivated: NFCVASResponse.ErrorCode { .dataNotActivated }
        @available(*, deprecated, renamed: "wrongParameters")
        public static var VASErrorCodeWrongParameters: NFCVASResponse.ErrorCode { .wrongParameters }
        @available(*, deprecated, renamed: "wrongLCField")
        public static var VASErrorCodeWrongLCField: NFCVASResponse.ErrorCode { .wrongLCField }
        @available(*, deprecated, renamed: "userIntervention")
        public static var VASErrorCodeUserIntervention: NFCVASResponse.ErrorCode { .userIntervention }
        @available(*, deprecated, renamed: "incorrectData")
        public static var VASErrorCodeIncorrectData: NFCVASResponse.ErrorCode { .incorrectData }
        @available(*, deprecated, renamed: "unsupportedApplicationVersion")
        public static var VASErrorCodeUnsupportedApplicationVersion: NFCVASResponse.ErrorCode {
            .unsupportedApplicationVersion
        }
    }
}

/// The iOS 13 name of ``NFCVASResponse/ErrorCode``.
@available(*, deprecated, renamed: "NFCVASResponse.ErrorCode")
public typealias VASErrorCode = NFCVASResponse.ErrorCode
