// The command-line layer (Command, Invocation, the parser) and the doctor's source scanner live in OpenNFCCLIKit,
// a library so that the fuzz targets reach them (docs/RELIABILITY.md, "Fuzzing"); every file of this executable
// sees them through this one import.
@_exported public import OpenNFCCLIKit
