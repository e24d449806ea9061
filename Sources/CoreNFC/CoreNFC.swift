// The module `CoreNFC` for platforms whose SDK has none (Linux; on Apple platforms only where the SDK lacks Core NFC,
// e.g. macOS): it re-exports OpenCoreNFC, which re-exports Foundation as Apple's framework does, so code written
// for iOS with `import CoreNFC` and `#if canImport(CoreNFC)` guards compiles with no edit at all.
//
// Never depend on this product where the SDK ships Core NFC (iOS, iPadOS): the SDK's module would clash with it.
// A package that builds for both declares the dependency per platform (README.md, "Two ways to import"):
// `.product(name: "CoreNFC", package: "OpenCoreNFC", condition: .when(platforms: [.linux, .macOS]))`.
@_exported public import OpenCoreNFC
