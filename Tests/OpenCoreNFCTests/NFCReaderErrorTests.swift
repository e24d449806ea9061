import Foundation
import OpenCoreNFC
import Testing

@Suite struct NFCReaderErrorTests {
    @Test func rawValuesAreApples() {
        let expected: [(NFCReaderError.Code, Int)] = [
            (.readerErrorUnsupportedFeature, 1), (.readerErrorSecurityViolation, 2), (.readerErrorInvalidParameter, 3),
            (.readerErrorInvalidParameterLength, 4), (.readerErrorParameterOutOfBound, 5),
            (.readerErrorRadioDisabled, 6), (.readerErrorIneligible, 7), (.readerErrorAccessNotAccepted, 8),
            (.readerTransceiveErrorTagConnectionLost, 100), (.readerTransceiveErrorRetryExceeded, 101),
            (.readerTransceiveErrorTagResponseError, 102), (.readerTransceiveErrorSessionInvalidated, 103),
            (.readerTransceiveErrorTagNotConnected, 104), (.readerTransceiveErrorPacketTooLong, 105),
            (.readerSessionInvalidationErrorUserCanceled, 200), (.readerSessionInvalidationErrorSessionTimeout, 201),
            (.readerSessionInvalidationErrorSessionTerminatedUnexpectedly, 202),
            (.readerSessionInvalidationErrorSystemIsBusy, 203), (.readerSessionInvalidationErrorFirstNDEFTagRead, 204),
            (.tagCommandConfigurationErrorInvalidParameters, 300), (.ndefReaderSessionErrorTagNotWritable, 400),
            (.ndefReaderSessionErrorTagUpdateFailure, 401), (.ndefReaderSessionErrorTagSizeTooSmall, 402),
            (.ndefReaderSessionErrorZeroLengthMessage, 403),
        ]
        for (code, raw) in expected { #expect(code.rawValue == raw) }
        #expect(NFCReaderError.Code(rawValue: 9) == nil)
    }

    @Test func domainUserInfoAndDescription() {
        let e = NFCReaderError(.readerSessionInvalidationErrorSessionTimeout)
        #expect(NFCReaderError.errorDomain == "NFCError")
        #expect(NFCErrorDomain == "NFCError")
        #expect(e.errorCode == 201)
        #expect(e.localizedDescription == "Session timeout")
        #expect(e.errorUserInfo[NSLocalizedDescriptionKey] as? String == "Session timeout")
        let ns = e as NSError
        #expect(ns.domain == "NFCError")
        #expect(ns.code == 201)
        let tagged = NFCReaderError(
            .readerTransceiveErrorTagResponseError, userInfo: [NFCISO15693TagResponseErrorKey: 0x0F])
        #expect(tagged.userInfo["ISO15693TagResponseErrorCode"] as? Int == 0x0F)
        #expect(NFCTagResponseUnexpectedLengthErrorKey == "TagResponseInvalidLength")
        #expect(e == NFCReaderError(.readerSessionInvalidationErrorSessionTimeout))
        #expect(e != NFCReaderError(.readerSessionInvalidationErrorUserCanceled))
    }

    @Test func catchPatternsMatch() {
        func thrower() throws { throw NFCReaderError(.readerTransceiveErrorTagConnectionLost) }
        var matched = false
        do { try thrower() } catch NFCReaderError.readerTransceiveErrorTagConnectionLost {
            matched = true
        } catch {}
        #expect(matched)
        let bridged: any Error = NSError(domain: "NFCError", code: 204)
        #expect(NFCReaderError.readerSessionInvalidationErrorFirstNDEFTagRead ~= bridged)
        #expect(!(NFCReaderError.readerSessionInvalidationErrorUserCanceled ~= bridged))
    }
}
