// pressdb: the command-line entry point. Commands live in Commands/ (one file each; the list
// is in Commands/Registry.swift), parsing and output in CLI/.
import Foundation

// A reader that goes away (`pressdb report sessions | head`) is not an error: with SIGPIPE
// ignored, the write fails with EPIPE and the command ends quietly (StandardOutput).
signal(SIGPIPE, SIG_IGN)
exit(runMain(Array(CommandLine.arguments.dropFirst())))
