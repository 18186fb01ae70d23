// A JSON file named on the command line (`config add`, `displays add`): its text, or standard
// input's for `-`, with one message for a file that cannot be read.
import Foundation

enum TextArgument {
    /// The UTF-8 text of `path`, or of standard input when `path` is `-`.
    /// - Throws: `CLIError.failure` naming the file and why it cannot be read.
    static func read(_ path: String) throws -> String {
        if path == "-" { return String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self) }
        do { return try String(contentsOfFile: path, encoding: .utf8) } catch {
            let reason = FileManager.default.fileExists(atPath: path) ? "it is not readable UTF-8 text" : "no such file"
            throw CLIError.failure("cannot read \(path): \(reason)")
        }
    }
}
