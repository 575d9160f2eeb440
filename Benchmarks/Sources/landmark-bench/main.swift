#if canImport(Glibc)
import Glibc
#endif

// landmark-bench: data generators and benchmarks of LandmarkNear (see Benchmarks/README.md).
// Run from the repository root: `swift run -c release landmark-bench <subcommand>`.

let usage = """
    Usage: landmark-bench <subcommand> [options]   (run from the repository root)

      \(GenerateCommand.usage)
      \(IndexBenchmark.usage)
      \(WatchBenchmark.usage)
      \(ServeBenchmark.usage)
      \(MQTTBenchmark.usage)
      \(PushBenchmark.usage)
      \(AllCommand.usage)
      \(DistanceCheck.usage)
      \(NearestStreamBenchmark.usage)
      \(PlacesBenchmark.usage)
    """

func runMain() -> Int32 {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard let subcommand = arguments.first else {
        Stderr.line(usage)
        return 64
    }
    let rest = Array(arguments.dropFirst())
    do {
        switch subcommand {
        case "generate": try GenerateCommand.run(rest)
        case "index": try IndexBenchmark.run(rest)
        case "watch": try WatchBenchmark.run(rest)
        case "serve": try ServeBenchmark.run(rest)
        case "mqtt": try MQTTBenchmark.run(rest)
        case "push": try PushBenchmark.run(rest)
        case "all": try AllCommand.run(rest)
        case "distance": try DistanceCheck.run(rest)
        case "nearest": try NearestStreamBenchmark.run(rest)
        case "places": try PlacesBenchmark.run(rest)
        case "--help", "-h", "help":
            print(usage)
        default:
            Stderr.line("landmark-bench: unknown subcommand '\(subcommand)'\n" + usage)
            return 64
        }
    } catch {
        Stderr.line("landmark-bench \(subcommand): \(error.description)")
        return 1
    }
    return 0
}

exit(runMain())
