// `import CoreNFC` on iOS brings Foundation with it (the framework's umbrella header imports Foundation and the
// module re-exports it), so Core NFC code uses NSObject, Data, URL and DispatchQueue without importing Foundation.
// Re-exporting it here keeps "only the import changes" true for such code.
@_exported public import Foundation
