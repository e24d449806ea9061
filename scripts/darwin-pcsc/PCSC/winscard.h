/*
 * Declaration-only stand-in for the prototypes of macOS's <PCSC/winscard.h> (PCSC.framework) that
 * Sources/OpenNFCPCSC/Platform/PCSCFrameworkBinding.swift calls; see pcsclite.h next to it for what this is for and
 * where its facts come from. Facts from Apple's winscard.h (SmartCardServices PCSC sources; the macOS SDKs' copy
 * prefixes each prototype with PCSC_API, an export attribute that changes no type):
 *
 * - every SCard* function returns int32_t and takes uint32_t where PC/SC says DWORD (pcsc-lite on Linux: long and
 *   unsigned long, 64-bit);
 * - SCardGetStatusChange takes LPSCARD_READERSTATE_A, the packed SCARD_READERSTATE_A of pcsclite.h;
 * - SCardControl is `#define`d to SCardControl132, the PC/SC 2 form (control code, send buffer and length, receive
 *   buffer, its capacity, the bytes returned); the old five-argument SCardControl stays under USE_SCARD_CONTROL_112.
 */
#ifndef OPENNFC_DARWIN_PCSC_WINSCARD_H
#define OPENNFC_DARWIN_PCSC_WINSCARD_H

#include <PCSC/pcsclite.h>
#include <stdint.h>

int32_t SCardEstablishContext(uint32_t dwScope, const void *pvReserved1, const void *pvReserved2,
                              LPSCARDCONTEXT phContext);
int32_t SCardReleaseContext(SCARDCONTEXT hContext);
int32_t SCardListReaders(SCARDCONTEXT hContext, const char *mszGroups, char *mszReaders, uint32_t *pcchReaders);
int32_t SCardGetStatusChange(SCARDCONTEXT hContext, uint32_t dwTimeout, LPSCARD_READERSTATE_A rgReaderStates,
                             uint32_t cReaders);
int32_t SCardCancel(SCARDCONTEXT hContext);
int32_t SCardConnect(SCARDCONTEXT hContext, const char *szReader, uint32_t dwShareMode,
                     uint32_t dwPreferredProtocols, LPSCARDHANDLE phCard, uint32_t *pdwActiveProtocol);
int32_t SCardReconnect(SCARDHANDLE hCard, uint32_t dwShareMode, uint32_t dwPreferredProtocols,
                       uint32_t dwInitialization, uint32_t *pdwActiveProtocol);
int32_t SCardDisconnect(SCARDHANDLE hCard, uint32_t dwDisposition);
int32_t SCardBeginTransaction(SCARDHANDLE hCard);
int32_t SCardEndTransaction(SCARDHANDLE hCard, uint32_t dwDisposition);
int32_t SCardStatus(SCARDHANDLE hCard, char *mszReaderNames, uint32_t *pcchReaderLen, uint32_t *pdwState,
                    uint32_t *pdwProtocol, unsigned char *pbAtr, uint32_t *pcbAtrLen);
int32_t SCardTransmit(SCARDHANDLE hCard, LPCSCARD_IO_REQUEST pioSendPci, const unsigned char *pbSendBuffer,
                      uint32_t cbSendLength, LPSCARD_IO_REQUEST pioRecvPci, unsigned char *pbRecvBuffer,
                      uint32_t *pcbRecvLength);
int32_t SCardControl132(SCARDHANDLE hCard, uint32_t dwControlCode, const void *pbSendBuffer, uint32_t cbSendLength,
                        void *pbRecvBuffer, uint32_t cbRecvLength, uint32_t *lpBytesReturned);

#endif
