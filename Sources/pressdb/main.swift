// pressdb: the command-line entry point. Commands live in Commands/ (one file each; the list
// is in Commands/Registry.swift), parsing and output in CLI/.
import Foundation

exit(runMain(Array(CommandLine.arguments.dropFirst())))
