/*
 * Declaration-only stand-in for the parts of macOS's <PCSC/pcsclite.h> (PCSC.framework) that
 * Sources/OpenNFCPCSC/Platform/PCSCFrameworkBinding.swift uses. It exists so that scripts/check-darwin-pcsc can
 * typecheck that binding on Linux; it is never linked and never run. Written for this project from the facts of
 * Apple's headers, not copied from them:
 *
 * - pcsclite.h (Apple's SmartCardServices PCSC sources, the same declarations as PCSC.framework/Headers/pcsclite.h in
 *   the macOS SDKs): SCARDCONTEXT and SCARDHANDLE are int32_t (pcsc-lite on Linux: long); SCARD_READERSTATE_A is
 *   declared between `#pragma pack(1)` and `#pragma pack()` with the fields szReader (const char *), pvUserData
 *   (void *), dwCurrentState, dwEventState, cbAtr (uint32_t each) and rgbAtr (unsigned char[MAX_ATR_SIZE], 33);
 *   SCARD_READERSTATE is a typedef of it; SCARD_IO_REQUEST holds dwProtocol and cbPciLength (uint32_t each, inside
 *   the same packing); g_rgSCardT0Pci, g_rgSCardT1Pci and g_rgSCardRawPci are declared `extern SCARD_IO_REQUEST`
 *   (not const, unlike current pcsc-lite).
 * - wintypes.h (same sources): DWORD is uint32_t and LONG is int32_t. Apple's prototypes are written with
 *   uint32_t / int32_t directly, and the SDK's module map for PCSC.framework is reported not to export wintypes.h
 *   (kotlin-pcsc's macOS bindings declare DWORD themselves for that reason), so this stand-in declares neither: a
 *   binding that typechecks here does not depend on them.
 *
 * Apple spells the packing pragma `pack(1)` / `pack()` under __APPLE__; push/pop below has the same effect.
 */
#ifndef OPENNFC_DARWIN_PCSC_PCSCLITE_H
#define OPENNFC_DARWIN_PCSC_PCSCLITE_H

#include <stdint.h>

typedef int32_t SCARDCONTEXT;
typedef SCARDCONTEXT *LPSCARDCONTEXT;
typedef int32_t SCARDHANDLE;
typedef SCARDHANDLE *LPSCARDHANDLE;

#define MAX_ATR_SIZE 33

#pragma pack(push, 1)

typedef struct {
    const char *szReader;
    void *pvUserData;
    uint32_t dwCurrentState;
    uint32_t dwEventState;
    uint32_t cbAtr;
    unsigned char rgbAtr[MAX_ATR_SIZE];
} SCARD_READERSTATE_A;

typedef SCARD_READERSTATE_A SCARD_READERSTATE, *LPSCARD_READERSTATE_A;

typedef struct _SCARD_IO_REQUEST {
    uint32_t dwProtocol;
    uint32_t cbPciLength;
} SCARD_IO_REQUEST, *LPSCARD_IO_REQUEST;

typedef const SCARD_IO_REQUEST *LPCSCARD_IO_REQUEST;

extern SCARD_IO_REQUEST g_rgSCardT0Pci, g_rgSCardT1Pci, g_rgSCardRawPci;

#pragma pack(pop)

#endif
