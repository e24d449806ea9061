// An app developer's test imports OpenCoreNFC and OpenCoreNFCTesting and nothing else: the virtual chips
// (Type2Tag, Type4Tag, DESFireEV1Tag, applets, fault plans) and the durations VirtualPhone takes come with the
// testing product, so no internal module has to be named.
@_exported public import OpenNFCRF
@_exported public import OpenNFCSimulation
// The phone's configuration (AppConfiguration, DeviceProfile), what the user saw (SystemSheet, TranscriptEntry) and the
// phone's state types; NFCSystem itself and the rest of the system stay `package`.
@_exported public import OpenNFCSystem
