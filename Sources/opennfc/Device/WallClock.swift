import Dispatch
import OpenNFCRF

/// Real time for real readers: progress rates and timeouts on a PC/SC device (monotonic, from process uptime).
final class WallClock: NFCClock {
    private let origin = DispatchTime.now().uptimeNanoseconds

    var now: NFCInstant { NFCInstant(nanoseconds: DispatchTime.now().uptimeNanoseconds - origin) }
}
