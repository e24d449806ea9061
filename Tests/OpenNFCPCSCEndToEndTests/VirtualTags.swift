import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport

/// An NDEF message with one Text record "hi" (en), written by hand from NFC Forum RTD Text §3.
let textHi = h("D101055402656E6869")

func ntag215(uid: String = "04A1B2C3D4E580", message: [UInt8] = textHi) throws -> Type2Tag {
    try Type2Tag.factory(Type2ChipProfile.named("ntag215")!, uid: h(uid), holding: message)
}

func ultralight(uid: String = "04112233445566") throws -> Type2Tag {
    try Type2Tag.factory(Type2ChipProfile.named("ultralight")!, uid: h(uid), holding: textHi)
}

func type4(uid: String = "04C1C2C3C4C5C6") throws -> Type4Tag {
    try Type4Tag.factory(uid: h(uid), holding: textHi)
}
