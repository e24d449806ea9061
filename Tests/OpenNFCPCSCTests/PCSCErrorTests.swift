import Testing

@testable import OpenNFCPCSC

@Suite struct PCSCErrorTests {
    @Test func statusCodesMapToActionableErrors() {
        let noService = PCSCError(status: 0x8010_001D, function: "SCardEstablishContext")
        #expect(noService.code == .serviceUnavailable)
        #expect(noService.detail.contains("pcscd"))
        #expect(noService.detail.contains("SCARD_E_NO_SERVICE"))

        let unplugged = PCSCError(status: 0x8010_0017, function: "SCardTransmit", reader: "ACS ACR122U 00 00")
        #expect(unplugged.code == .readerUnavailable)
        #expect(unplugged.detail.contains("unplugged"))
        #expect(unplugged.detail.contains("'ACS ACR122U 00 00'"))

        #expect(PCSCError(status: 0x8010_0069, function: "SCardTransmit").code == .cardRemoved)
        #expect(PCSCError(status: 0x8010_0016, function: "SCardTransmit").code == .cardUnresponsive)
        #expect(PCSCError(status: 0x8010_000B, function: "SCardConnect").code == .sharingViolation)
        #expect(PCSCError(status: 0x8010_002E, function: "SCardListReaders").code == .noReaders)
        #expect(PCSCError(status: 0x8010_000A, function: "SCardGetStatusChange").code == .timeout)
        let odd = PCSCError(status: 0x8010_00FF, function: "SCardControl")
        #expect(odd.code == .failure)
        #expect(odd.detail == "SCardControl failed (0x801000FF)")
    }

    @Test func statusNames() {
        #expect(PCSCStatus.name(0) == "SCARD_S_SUCCESS")
        #expect(PCSCStatus.name(0x8010_0069) == "SCARD_W_REMOVED_CARD")
        #expect(PCSCStatus.name(0x1234) == "0x00001234")
    }

    @Test func rfMapping() {
        #expect(PCSCError(status: PCSCStatus.removedCard, function: "SCardTransmit").rfError.code == .linkLost)
        #expect(PCSCError(status: PCSCStatus.noService, function: "SCardTransmit").rfError.code == .frontendFailure)
        #expect(PCSCError(status: PCSCStatus.notTransacted, function: "SCardTransmit").rfError.code == .timeout)
    }

    @Test func kernelDriverHoldingACR122U() {
        let modules = "nfc 151552 1 pn533, Live 0x0\npn533_usb 20480 0 - Live 0x0\npn533 45056 1 pn533_usb\n"
        let message = KernelNFCDriverCheck.heldReaderMessage(
            modules: modules, usbDevices: [(vendor: "072f", product: "2200")])
        #expect(message?.contains("an ACR122U is plugged in but the kernel module pn533_usb holds it") == true)
        #expect(message?.contains("modprobe -r pn533_usb") == true)
        #expect(KernelNFCDriverCheck.heldReaderMessage(modules: "snd 1 0 - Live\n", usbDevices: []) == nil)
        #expect(KernelNFCDriverCheck.heldReaderMessage(modules: nil, usbDevices: []) == nil)
    }

    #if canImport(Glibc) && !canImport(PCSC)
        @Test func readerStateMirrorsPCSCLiteLayout() {
            // pcsc-lite on 64-bit Linux: sizeof(SCARD_READERSTATE) = 80 (pcsc-lite's PCSC/pcsclite.h, measured with C sizeof).
            #expect(MemoryLayout<CReaderState>.size == 73)
            #expect(MemoryLayout<CReaderState>.stride == 80)
            #expect(MemoryLayout<DWORD>.size == 8)
        }

        @Test func multiStringSplitting() {
            let chars: [CChar] = Array("Virtual PCD 00 00\0Virtual PCD 00 01\0\0".utf8).map { CChar(bitPattern: $0) }
            #expect(
                PCSCLiteBinding.splitMultiString(chars[...]) == ["Virtual PCD 00 00", "Virtual PCD 00 01"])
        }
    #endif
}
