import Foundation

/// The `opennfc` command tree. Each subcommand lives in its own file under Commands/ as a thin layer over
/// library calls.
let root = Command(
    name: "opennfc",
    abstract: "Read, write, inspect and simulate NFC tags; Core NFC for Linux and macOS.",
    subcommands: [
        Commands.demo,
        Commands.ndef,
        Commands.readers,
        Commands.emulate,
        Commands.field,
        Commands.tag,
        Commands.info,
        Commands.read,
        Commands.write,
        Commands.lock,
        Commands.format,
        Commands.dump,
        Commands.restore,
        Commands.send,
        Commands.trace,
        Commands.terminal,
        Commands.password,
        Commands.desfire,
        Commands.classic,
        Commands.iso15693,
        Commands.batch,
        Commands.watch,
        Commands.doctor,
    ]
)

var io = StandardIO()
let status = CLI.main(root: root, arguments: Array(CommandLine.arguments.dropFirst()), io: &io)
exit(status)
