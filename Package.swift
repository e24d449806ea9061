// swift-tools-version:6.0
// OpenCoreNFC: Apple's Core NFC API re-implemented in Swift for Linux and macOS.
// Layering (docs/ARCHITECTURE.md, whose table of targets scripts/check-layers compares with this file):
//   Bytes → NDEF, RF → Tags | Simulation | PCSC | Remote (→ HTTP) → System (the arbiter, the policies, the driver
//   over Tags and RF) → Devices (sim:, pcsc, remote:, replay:) → OpenCoreNFC (wires the default devices) → CoreNFC.
// The simulation never imports the reader procedures (OpenNFCTags) nor they the simulation: two independent
// readings of the specs. The System links no device: neither the simulation, PC/SC nor the remote field.
import PackageDescription

let strict: [SwiftSetting] = [
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "OpenCoreNFC",
    products: [
        .library(name: "OpenCoreNFC", targets: ["OpenCoreNFC"]),
        .library(name: "OpenCoreNFCTesting", targets: ["OpenCoreNFCTesting"]),
        // `import CoreNFC` where the platform has none: re-exports OpenCoreNFC (README.md, "Two ways to import").
        .library(name: "CoreNFC", targets: ["CoreNFC"]),
        .executable(name: "opennfc", targets: ["opennfc"]),
        .executable(name: "opennfc-bench", targets: ["opennfc-bench"]),
    ],
    targets: [
        .target(name: "OpenNFCBytes", swiftSettings: strict),
        .target(name: "OpenNFCNDEF", dependencies: ["OpenNFCBytes"], swiftSettings: strict),
        .target(name: "OpenNFCRF", dependencies: ["OpenNFCBytes"], swiftSettings: strict),
        // HTTP/1.1 and WebSocket over POSIX sockets, loopback only: the remote field's transport.
        .target(name: "OpenNFCHTTP", swiftSettings: strict),
        // The remote field's app side (protocol, RemoteFieldFrontend) and record/replay of any frontend.
        .target(
            name: "OpenNFCRemote", dependencies: ["OpenNFCBytes", "OpenNFCRF", "OpenNFCHTTP", "OpenNFCCrypto"],
            swiftSettings: strict),
        // The field server of `opennfc field serve`: virtual field, shelf, HTTP/JSON API, web page (card side only).
        .target(
            name: "OpenNFCFieldServer",
            dependencies: [
                "OpenNFCBytes", "OpenNFCNDEF", "OpenNFCRF", "OpenNFCHTTP", "OpenNFCRemote", "OpenNFCSimulation",
                "OpenNFCTags",
            ],
            swiftSettings: strict),
        // OpenSSL 3 libcrypto through dlopen (block ciphers, CMAC) and Crypto1; a vetted library both sides may use.
        .target(name: "OpenNFCCrypto", dependencies: ["OpenNFCBytes"], swiftSettings: strict),
        .target(
            name: "OpenNFCSimulation", dependencies: ["OpenNFCBytes", "OpenNFCRF", "OpenNFCCrypto"],
            swiftSettings: strict),
        .target(
            name: "OpenNFCTags", dependencies: ["OpenNFCBytes", "OpenNFCRF", "OpenNFCCrypto"], swiftSettings: strict),
        // PC/SC backend: libpcsclite through dlopen (PCSC.framework on macOS); never imports Simulation or Tags.
        .target(name: "OpenNFCPCSC", dependencies: ["OpenNFCBytes", "OpenNFCRF"], swiftSettings: strict),
        // vpcd card server: presents virtual tags to any PC/SC application through vsmartcard's virtual reader.
        .target(
            name: "OpenNFCVPCD", dependencies: ["OpenNFCBytes", "OpenNFCRF", "OpenNFCSimulation"], swiftSettings: strict
        ),
        // The PN532 driver (reader side): host frames, commands, HSU/I2C/SPI transports, PN532Frontend.
        .target(name: "OpenNFCPN532", dependencies: ["OpenNFCBytes", "OpenNFCRF"], swiftSettings: strict),
        // The virtual PN532 (card side): the chip's firmware over the simulation's virtual chips, served on a pty;
        // never imports the reader procedures nor the driver.
        .target(
            name: "OpenNFCPN532Emulator",
            dependencies: ["OpenNFCBytes", "OpenNFCRF", "OpenNFCSimulation", "OpenNFCCrypto"], swiftSettings: strict),
        .target(
            name: "OpenNFCSystem", dependencies: ["OpenNFCBytes", "OpenNFCNDEF", "OpenNFCRF", "OpenNFCTags"],
            swiftSettings: strict),
        // The devices and their scheme registry (`sim:`, `pcsc`, `remote:`, `replay:`, recording, the process
        // default): one folder per device, one registration line in BuiltInDevices.swift.
        .target(
            name: "OpenNFCDevices",
            // PC/SC exists on Linux (pcsc-lite) and macOS (PCSC.framework), not on iOS; nor does an iPhone app reach
            // a PN532 on a serial line, I2C or SPI, or serve its card to a vpcd in pcscd. On iOS the `pcsc:`,
            // `pn532:` and `vpcd:` devices are left out: `sim:`, `remote:` and `replay:` remain
            // (docs/APPLE-PLATFORMS.md).
            dependencies: [
                "OpenNFCRF", "OpenNFCSystem", "OpenNFCSimulation", "OpenNFCRemote",
                .target(name: "OpenNFCPCSC", condition: .when(platforms: [.linux, .macOS])),
                .target(name: "OpenNFCPN532", condition: .when(platforms: [.linux, .macOS])),
                .target(name: "OpenNFCVPCD", condition: .when(platforms: [.linux, .macOS])),
            ],
            swiftSettings: strict),
        // libmosquitto through dlopen (MQTT 3.1.1 client: QoS 1, Will, TLS), for reader stations; libcrypto (through
        // OpenNFCCrypto) checks a client key and its passphrase before libmosquitto is handed the file.
        .target(name: "OpenNFCMQTT", dependencies: ["OpenNFCBytes", "OpenNFCCrypto"], swiftSettings: strict),
        // Reader stations (`opennfc watch`): device watchers, events, the on-disk journal, publishing to MQTT.
        .target(
            name: "OpenNFCStation",
            dependencies: [
                "OpenNFCBytes", "OpenNFCNDEF", "OpenNFCRF", "OpenNFCTags", "OpenNFCDevices", "OpenNFCPCSC",
                "OpenNFCMQTT",
            ],
            swiftSettings: strict),
        .target(
            name: "OpenCoreNFC",
            dependencies: [
                "OpenNFCBytes", "OpenNFCNDEF", "OpenNFCRF", "OpenNFCSystem", "OpenNFCTags", "OpenNFCDevices",
            ],
            swiftSettings: strict),
        .target(name: "CoreNFC", dependencies: ["OpenCoreNFC"], swiftSettings: strict),
        .target(
            name: "OpenCoreNFCTesting",
            dependencies: [
                "OpenCoreNFC", "OpenNFCSystem", "OpenNFCDevices", "OpenNFCSimulation", "OpenNFCRF", "OpenNFCNDEF",
                "OpenNFCBytes", "OpenNFCTags",
            ],
            swiftSettings: strict),
        // The seed flows `opennfc demo` plays and the sessions benchmark: drivers, not product API (no product).
        .target(
            name: "OpenNFCDemo",
            dependencies: ["OpenCoreNFC", "OpenCoreNFCTesting", "OpenNFCSystem", "OpenNFCSimulation", "OpenNFCRF"],
            swiftSettings: strict),
        // The CLI's command tree types and option parser and the doctor's source scanner (no product): a library so
        // that the fuzz targets reach them; the commands themselves stay in the executable.
        .target(name: "OpenNFCCLIKit", dependencies: ["OpenNFCBytes"], swiftSettings: strict),
        .executableTarget(
            name: "opennfc",
            dependencies: [
                "OpenNFCDemo", "OpenNFCCLIKit",
                "OpenNFCBytes", "OpenNFCNDEF", "OpenNFCRF", "OpenNFCSystem", "OpenNFCDevices", "OpenNFCPCSC",
                "OpenNFCSimulation", "OpenNFCTags", "OpenCoreNFCTesting", "OpenNFCVPCD", "OpenNFCHTTP", "OpenNFCRemote",
                "OpenNFCFieldServer", "OpenNFCPN532", "OpenNFCPN532Emulator", "OpenNFCStation", "OpenNFCMQTT",
            ],
            swiftSettings: strict),
        // A plain program written against Core NFC's API, run by the integration tests with OPENCORENFC_DEVICE.
        .executableTarget(name: "opencorenfc-example", dependencies: ["OpenCoreNFC"], swiftSettings: strict),
        // Release-build benchmarks (`swift run -c release opennfc-bench <mode>`); one file per mode.
        .executableTarget(
            name: "opennfc-bench",
            dependencies: [
                "OpenNFCBytes", "OpenNFCNDEF", "OpenNFCPCSC", "OpenNFCVPCD", "OpenNFCSimulation", "OpenCoreNFC",
                "OpenCoreNFCTesting",
                "OpenNFCTestSupport", "OpenNFCDemo", "OpenNFCRF", "OpenNFCTags",
            ],
            swiftSettings: strict),
        // Test support (no product), written once for every test target: hex literals and helpers, the seeded
        // generator, the one transcript grammar, the field bench of frame pins and tear sweeps, phone sessions,
        // subprocess and daemon launchers, the vpcd slot lock and the emulated-slot fixture (also the benchmarks').
        .target(
            name: "OpenNFCTestSupport",
            dependencies: [
                "OpenNFCBytes", "OpenNFCNDEF", "OpenNFCRF", "OpenNFCPCSC", "OpenNFCVPCD", "OpenNFCSimulation",
                "OpenNFCCrypto", "OpenNFCTags", "OpenCoreNFC", "OpenCoreNFCTesting",
            ],
            swiftSettings: strict),
        // Fuzz target bodies (no product): every parser fed outside bytes, with its invariants (docs/RELIABILITY.md).
        .target(
            name: "OpenNFCFuzzTargets",
            dependencies: [
                "OpenNFCBytes", "OpenNFCNDEF", "OpenNFCRF", "OpenNFCTags", "OpenNFCSimulation", "OpenNFCPCSC",
                "OpenNFCVPCD", "OpenNFCSystem", "OpenNFCCrypto", "OpenNFCTestSupport",
                "OpenNFCHTTP", "OpenNFCRemote", "OpenNFCCLIKit", "OpenNFCPN532", "OpenNFCPN532Emulator",
            ],
            swiftSettings: strict),
        // libFuzzer driver (`scripts/fuzz`, -DOPENNFC_FUZZ) or, built normally, the corpus replay and seed tool.
        .executableTarget(
            name: "opennfc-fuzz", dependencies: ["OpenNFCFuzzTargets", "OpenNFCBytes"], swiftSettings: strict),
        .testTarget(
            name: "OpenNFCBytesTests", dependencies: ["OpenNFCBytes", "OpenNFCTestSupport"], swiftSettings: strict),
        .testTarget(name: "OpenNFCCryptoTests", dependencies: ["OpenNFCCrypto"], swiftSettings: strict),
        .testTarget(
            name: "OpenNFCNDEFTests", dependencies: ["OpenNFCNDEF", "OpenNFCBytes", "OpenNFCTestSupport"],
            swiftSettings: strict),
        // Reader procedures against the virtual chips: the two independent readings of the specs meet here.
        .testTarget(
            name: "OpenNFCInteropTests",
            dependencies: [
                "OpenNFCTags", "OpenNFCSimulation", "OpenNFCRF", "OpenNFCBytes", "OpenNFCCrypto", "OpenNFCTestSupport",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "OpenNFCTagsTests",
            dependencies: ["OpenNFCTags", "OpenNFCBytes", "OpenNFCRF", "OpenNFCCrypto", "OpenNFCTestSupport"],
            swiftSettings: strict),
        .testTarget(name: "OpenNFCRFTests", dependencies: ["OpenNFCRF"], swiftSettings: strict),
        .testTarget(
            name: "OpenNFCHTTPTests", dependencies: ["OpenNFCHTTP", "OpenNFCTestSupport"], swiftSettings: strict),
        // The field server, the remote frontend and record/replay; the example program and the CLI as processes.
        .testTarget(
            name: "OpenNFCFieldTests",
            dependencies: [
                "OpenNFCFieldServer", "OpenNFCRemote", "OpenNFCHTTP", "OpenNFCRF", "OpenNFCSimulation", "OpenNFCBytes",
                "OpenNFCSystem", "OpenNFCDevices", "OpenNFCTestSupport", "opennfc", "opencorenfc-example",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "OpenNFCPCSCTests", dependencies: ["OpenNFCPCSC", "OpenNFCBytes", "OpenNFCRF", "OpenNFCTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "OpenNFCSimulationTests",
            dependencies: ["OpenNFCSimulation", "OpenNFCRF", "OpenNFCBytes", "OpenNFCCrypto", "OpenNFCTestSupport"],
            swiftSettings: strict),
        .testTarget(
            name: "OpenNFCSystemTests",
            dependencies: ["OpenNFCSystem", "OpenNFCRF", "OpenNFCTags", "OpenNFCTestSupport"],
            swiftSettings: strict),
        // The device strings and their registry: the one grammar for `OPENCORENFC_DEVICE` and `opennfc --device`.
        .testTarget(
            name: "OpenNFCDevicesTests", dependencies: ["OpenNFCDevices", "OpenNFCSystem", "OpenNFCRF"],
            swiftSettings: strict),
        .testTarget(
            name: "OpenCoreNFCTests",
            dependencies: [
                "opencorenfc-example", "OpenCoreNFC", "OpenCoreNFCTesting", "OpenNFCNDEF", "OpenNFCSystem", "OpenNFCRF",
                "OpenNFCSimulation", "OpenNFCTags", "OpenNFCDevices", "OpenNFCTestSupport",
            ],
            swiftSettings: strict),
        // Compiled with `import CoreNFC` only: iOS code with `#if canImport(CoreNFC)` guards, unchanged.
        .testTarget(name: "CoreNFCImportTests", dependencies: ["CoreNFC"], swiftSettings: strict),
        .testTarget(
            name: "OpenCoreNFCTestingTests",
            dependencies: [
                "OpenCoreNFCTesting", "OpenCoreNFC", "OpenNFCSimulation", "OpenNFCRF", "OpenNFCSystem", "OpenNFCCrypto",
                "OpenNFCDemo", "OpenNFCTestSupport", "OpenNFCTags",
            ],
            swiftSettings: strict),
        .testTarget(
            name: "OpenNFCVPCDTests",
            dependencies: ["OpenNFCVPCD", "OpenNFCSimulation", "OpenNFCBytes", "OpenNFCTestSupport"],
            swiftSettings: strict),
        // Real pcscd + vpcd + our card server; skipped (visibly) unless OPENNFC_E2E_PCSCD=1 (scripts/test sets it).
        .testTarget(
            name: "OpenNFCPCSCEndToEndTests",
            dependencies: [
                "OpenNFCPCSC", "OpenNFCVPCD", "OpenNFCSimulation", "OpenNFCTags", "OpenNFCNDEF", "OpenNFCRF",
                "OpenNFCBytes", "OpenNFCSystem", "OpenNFCDevices", "OpenCoreNFC", "OpenCoreNFCTesting",
                "OpenNFCTestSupport", "opencorenfc-example", "opennfc",
            ],
            swiftSettings: strict),
        // The PN532 driver and the virtual PN532: frames, the chip's commands, the two sides over a pty, and libnfc,
        // mfoc, libfreefare and nfcpy run as subprocesses against the virtual PN532 (skipped loudly when missing).
        .testTarget(
            name: "OpenNFCPN532Tests",
            dependencies: [
                "OpenNFCPN532", "OpenNFCPN532Emulator", "OpenNFCSimulation", "OpenNFCRF", "OpenNFCBytes",
                "OpenNFCCrypto", "OpenNFCTestSupport", "OpenNFCTags",
            ],
            swiftSettings: strict),
        // Replays every committed fuzz corpus file and every past finding through its target.
        .testTarget(
            name: "OpenNFCFuzzTests",
            dependencies: [
                "OpenNFCFuzzTargets", "OpenNFCSimulation", "OpenNFCTags", "OpenNFCRF", "OpenNFCTestSupport",
                "OpenNFCCLIKit", "OpenNFCHTTP", "OpenNFCRemote",
            ],
            swiftSettings: strict),
        // The station: journal, watcher, MQTT against a private mosquitto broker, and `opennfc watch` as a process.
        .testTarget(
            name: "OpenNFCStationTests",
            dependencies: [
                "OpenNFCStation", "OpenNFCMQTT", "OpenNFCDevices", "OpenNFCRF", "OpenNFCBytes", "OpenNFCSimulation",
                "OpenNFCTestSupport", "opennfc",
            ],
            swiftSettings: strict),
        // Runs the built `opennfc` binary; depends on it so `swift build --build-tests` builds it first.
        .testTarget(
            name: "OpenNFCCLITests",
            dependencies: [
                "opennfc", "OpenNFCTestSupport", "OpenNFCSimulation", "OpenNFCPCSC", "OpenNFCRF", "OpenNFCRemote",
                "OpenNFCBytes",
            ],
            // The bad-input corpus: data read by BadInputTests through #filePath, not sources.
            exclude: ["BadInput"], swiftSettings: strict),
    ]
)
