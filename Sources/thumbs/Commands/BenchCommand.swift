import ArgumentParser
import Foundation
import Thumbs

struct BenchCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure Thumbs on your own library.",
        subcommands: [BenchDeliveryCommand.self])
}
