/// Entry points of the PC/SC backend.
package enum PCSC {
    /// The platform's real PC/SC binding: pcsc-lite through `dlopen` on Linux, `PCSC.framework` on macOS.
    ///
    /// Throws ``PCSCError/Code/libraryUnavailable`` with installation advice when the library is missing.
    package static func systemBinding() throws(PCSCError) -> any PCSCBinding {
        #if canImport(PCSC)
            return try PCSCFrameworkBinding.load()
        #elseif canImport(Glibc)
            return try PCSCLiteBinding.load()
        #else
            throw PCSCError(
                .libraryUnavailable, function: "PCSC.systemBinding",
                detail: "PC/SC is not available on this platform (supported: Linux with pcsc-lite, macOS)")
        #endif
    }
}
