internal import Foundation
internal import OpenNFCRF
package import OpenNFCSystem
internal import Synchronization

/// The process-wide system, for programs that use the public module without the testing product: built once from
/// the environment (Core NFC parity issue item 5).
///
/// | Variable | Meaning |
/// |---|---|
/// | `OPENCORENFC_DEVICE` | `sim:<tagfile>[+<tagfile>…]` (`,` works as `+`), `sim:empty`, `pcsc[:<reader>]`, or any registered scheme (`OPENNFC_DEVICE`, the CLI's older name, is read when it is unset) |
/// | `OPENCORENFC_PROFILE` | `iphone` (default) or `desktop` |
/// | `OPENCORENFC_INFO_PLIST` | path of the app's Info.plist (XML or binary) |
/// | `OPENCORENFC_ENTITLEMENTS` | path of the app's `.entitlements` (XML or binary) |
/// | `OPENCORENFC_RECORD` | a file: record every poll, activation, frame and answer there (replay it with `replay:<file>`) |
/// | `OPENCORENFC_TRACE` | `1`: print the sheet, session and app lines on stderr as they happen; `frames`: RF frames too |
/// | `OPENCORENFC_HCE` | card emulation on this phone: `eligible` (default), `ineligible`, `access-not-accepted`, `unsupported` |
/// | `OPENCORENFC_SIM_SAVE` | `0`: a `sim:` device leaves its tag files untouched (by default the app's writes and locks are saved back) |
///
/// With no device configured the system has no reader: `readingAvailable` is false, and beginning a session prints
/// what to set and ends it with `readerErrorUnsupportedFeature`.
extension NFCSystem {
    private static let defaultSystem = Mutex<NFCSystem?>(nil)

    /// The process default system (created from the environment on first use).
    package static var processDefault: NFCSystem {
        get {
            defaultSystem.withLock { s in
                if let s { return s }
                let made = fromEnvironment(ProcessInfo.processInfo.environment)
                s = made
                return made
            }
        }
        set { defaultSystem.withLock { $0 = newValue } }
    }

    /// Builds a system from environment variables; problems are reported on stderr and give a device without a
    /// reader, so the app's sessions fail the way Core NFC fails on a phone without NFC.
    package static func fromEnvironment(_ env: [String: String]) -> NFCSystem {
        do {
            return try configured(env)
        } catch {
            FileHandle.standardError.write(Data("OpenCoreNFC: \(error)\n".utf8))
            let profile = DeviceProfile(rawValue: env["OPENCORENFC_PROFILE"] ?? "") ?? .iphone
            let system = NFCSystem(
                frontend: nil, clock: WallClock(), configuration: .empty(profile),
                platform: standardPlatform)
            return system
        }
    }

    /// Builds a system from environment variables, throwing what is wrong.
    package static func configured(_ env: [String: String]) throws(DeviceError) -> NFCSystem {
        let profileName = env["OPENCORENFC_PROFILE"] ?? "iphone"
        guard let profile = DeviceProfile(rawValue: profileName) else {
            throw DeviceError("OPENCORENFC_PROFILE must be iphone or desktop, not \"\(profileName)\"")
        }
        let configuration: AppConfiguration
        do {
            configuration = try AppConfiguration(
                infoPlistPath: env["OPENCORENFC_INFO_PLIST"], entitlementsPath: env["OPENCORENFC_ENTITLEMENTS"],
                profile: profile)
        } catch {
            throw DeviceError("configuration: \(error)")
        }
        guard let (_, device) = DeviceRegistry.fromEnvironment(env) else {
            throw DeviceError(
                "no NFC device configured. Set OPENCORENFC_DEVICE=sim:<tagfile>[+<tagfile>…] (or sim:empty) for the "
                    + "simulated iPhone, or pcsc[:<reader>] for a USB reader; OPENCORENFC_INFO_PLIST and "
                    + "OPENCORENFC_ENTITLEMENTS for the app's configuration, or OPENCORENFC_PROFILE=desktop.")
        }
        var opened = try DeviceRegistry.open(device)
        switch env["OPENCORENFC_SIM_SAVE"] ?? "1" {
        case "1": break
        case "0": opened.tagFiles?.isEnabled = false
        case let other: throw DeviceError("OPENCORENFC_SIM_SAVE must be 0 or 1, not \"\(other)\"")
        }
        if let record = env["OPENCORENFC_RECORD"], !record.isEmpty {
            opened = DeviceRecording.wrap(opened, device: device, path: record)
        }
        let system = make(opened, configuration: configuration, idleJumps: true)
        if let hce = env["OPENCORENFC_HCE"], !hce.isEmpty {
            guard let availability = CardEmulationAvailability(rawValue: hce) else {
                throw DeviceError(
                    "OPENCORENFC_HCE must be eligible, ineligible, access-not-accepted or unsupported, not \"\(hce)\"")
            }
            system.setCardEmulation(availability)
        }
        switch env["OPENCORENFC_TRACE"] ?? "" {
        case "", "0": break
        case "frames":
            system.recordsFrames = true
            system.trace = { FileHandle.standardError.write(Data("OpenCoreNFC \($0)\n".utf8)) }
        default:
            system.trace = { FileHandle.standardError.write(Data("OpenCoreNFC \($0)\n".utf8)) }
        }
        return system
    }

    /// Builds a system over an opened device.
    package static func make(_ opened: OpenedDevice, configuration: AppConfiguration, idleJumps: Bool) -> NFCSystem {
        let platform = standardPlatform
        let system: NFCSystem
        switch opened.clock {
        case .virtual(let clock):
            system = NFCSystem(
                frontend: opened.frontend, clock: clock, configuration: configuration, platform: platform,
                presence: opened.presence)
            if idleJumps { IdleDetector.start(system: system, clock: clock) }
        case .wall:
            system = NFCSystem(
                frontend: opened.frontend, clock: WallClock(), configuration: configuration, platform: platform,
                presence: opened.presence)
        }
        system.pollInterval = opened.pollInterval
        // A long-running program must not accumulate a transcript; OPENCORENFC_TRACE could turn it on later.
        system.recordsTranscript = false
        opened.connect?(system)
        return system
    }
}
