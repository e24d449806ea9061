/// Namespace for the subcommand definitions.
enum Commands {}

extension Commands {
    static let demo = Command(
        name: "demo",
        abstract: "Walk through the seed flows on the simulated default device, step by step.",
        run: { _ in
            Console.out("OpenCoreNFC demo\n")
            return 0
        }
    )
}
