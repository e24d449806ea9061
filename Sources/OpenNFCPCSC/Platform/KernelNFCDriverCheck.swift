internal import Foundation

/// Detects the Linux kernel NFC driver holding an ACR122U: `pn533_usb` binds the reader's USB interface, pcscd's
/// CCID driver then cannot claim it, and the reader silently disappears from PC/SC.
enum KernelNFCDriverCheck {
    /// ACS ACR122U vendor/product (libccid's list: 072F:2200).
    static let acr122u = (vendor: "072f", product: "2200")

    /// A message naming the problem and the fix when an ACR122U is plugged in and pn533_usb is loaded; nil otherwise.
    static func heldReaderMessage(
        modules: String? = try? String(contentsOfFile: "/proc/modules", encoding: .utf8),
        usbDevices: [(vendor: String, product: String)] = usbDevicesFromSysfs()
    ) -> String? {
        let loaded = modules?.split(separator: "\n").contains { $0.hasPrefix("pn533_usb ") } ?? false
        guard loaded else { return nil }
        let plugged = usbDevices.contains { $0.vendor == acr122u.vendor && $0.product == acr122u.product }
        let what = plugged ? "an ACR122U is plugged in but the kernel module pn533_usb holds it" : "pn533_usb is loaded"
        return
            "\(what), so pcscd cannot use the reader; run `sudo modprobe -r pn533_usb pn533 nfc` and blacklist them "
            + "(`echo 'blacklist pn533_usb' | sudo tee /etc/modprobe.d/blacklist-pn533.conf`), then replug the reader"
    }

    static func usbDevicesFromSysfs() -> [(vendor: String, product: String)] {
        let root = "/sys/bus/usb/devices"
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: root) else { return [] }
        return entries.compactMap { e in
            guard
                let v = try? String(contentsOfFile: "\(root)/\(e)/idVendor", encoding: .utf8),
                let p = try? String(contentsOfFile: "\(root)/\(e)/idProduct", encoding: .utf8)
            else { return nil }
            return (
                v.trimmingCharacters(in: .whitespacesAndNewlines), p.trimmingCharacters(in: .whitespacesAndNewlines)
            )
        }
    }
}
