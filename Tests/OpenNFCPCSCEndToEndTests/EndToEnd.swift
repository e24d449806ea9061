import OpenNFCTestSupport
import Testing

/// Every end-to-end suite nests in this one, so they run one test at a time (they share the two vpcd slots) and are
/// all skipped, with the reason shown, when pcscd is not there. The set-up itself (``EndToEnd``, ``SlotLock``,
/// ``EmulatedSlot``) is in OpenNFCTestSupport.
@Suite(.serialized, .enabled(if: EndToEnd.enabled, Comment(rawValue: EndToEnd.skipReason)))
enum EndToEndSuite {}
