// Running another program from a test: pressdb's binary, sqlite3, a headless browser. One runner,
// so that every test reads a child's output the same safe way.
import Foundation

/// How a finished process ended and what it wrote.
public struct ProcessResult: Sendable, CustomStringConvertible {
    /// False when a signal ended it (`status` is then the signal's number).
    public var exited: Bool
    /// The exit status, or the signal number when `exited` is false.
    public var status: Int32
    public var stdout: String
    public var stderr: String

    public var description: String { "(exited: \(exited), status: \(status), stderr: \(stderr))" }
}

/// A started process whose standard output and error are read while it runs (each on its own
/// thread, so a full pipe never blocks the child), or written to files when `outputDirectory` is
/// given (for programs whose own children may hold a pipe open after they exit, like Chromium).
public final class RunningProcess: @unchecked Sendable {
    public let process = Process()
    private let group = DispatchGroup()
    private let lock = NSLock()
    private var outData = Data()
    private var errData = Data()
    private let outputFiles: (out: URL, err: URL)?

    /// Starts `executable` with `arguments`.
    /// - Parameters:
    ///   - environment: Added to (and overriding) this process's environment.
    ///   - directory: The working directory (default: this process's).
    ///   - stdin: Written to the child's standard input, which is then closed; nil: /dev/null.
    ///   - collectsStdout: False sends standard output to /dev/null.
    ///   - outputDirectory: Collect the output in files there instead of pipes.
    /// - Throws: What `Process.run()` throws (no such executable).
    public init(_ executable: URL, _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
                stdin: String? = nil, collectsStdout: Bool = true, outputDirectory: URL? = nil) throws {
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        if let directory { process.currentDirectoryURL = directory }
        let input = stdin.map { _ in Pipe() }
        process.standardInput = input ?? FileHandle.nullDevice

        var pipes: [(pipe: Pipe, isStdout: Bool)] = []
        if let outputDirectory {
            let files = (outputDirectory.appendingPathComponent("out-\(UUID().uuidString).txt"),
                         outputDirectory.appendingPathComponent("err-\(UUID().uuidString).txt"))
            try Data().write(to: files.0)
            try Data().write(to: files.1)
            outputFiles = files
            process.standardOutput = collectsStdout ? try FileHandle(forWritingTo: files.0) : FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: files.1)
        } else {
            outputFiles = nil
            let err = Pipe()
            process.standardError = err
            pipes.append((err, false))
            if collectsStdout {
                let out = Pipe()
                process.standardOutput = out
                pipes.append((out, true))
            } else {
                process.standardOutput = FileHandle.nullDevice
            }
        }
        try process.run()
        for (pipe, isStdout) in pipes {
            group.enter()
            DispatchQueue.global().async { [self] in
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                lock.withLock { if isStdout { outData = data } else { errData = data } }
                group.leave()
            }
        }
        if let input, let stdin {
            input.fileHandleForWriting.write(Data(stdin.utf8))
            try? input.fileHandleForWriting.close()
        }
    }

    public var isRunning: Bool { process.isRunning }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits for the child to end and its output to be read.
    public func wait() -> ProcessResult {
        process.waitUntilExit()
        group.wait()
        if let outputFiles {
            for handle in [process.standardOutput, process.standardError] { try? (handle as? FileHandle)?.close() }
            outData = (try? Data(contentsOf: outputFiles.out)) ?? Data()
            errData = (try? Data(contentsOf: outputFiles.err)) ?? Data()
        }
        return lock.withLock {
            ProcessResult(exited: process.terminationReason == .exit, status: process.terminationStatus,
                          stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self))
        }
    }

    /// Runs `executable` to its end (the parameters as for `init`).
    public static func run(_ executable: URL, _ arguments: [String], environment: [String: String] = [:],
                           directory: URL? = nil, stdin: String? = nil, outputDirectory: URL? = nil) throws -> ProcessResult {
        try RunningProcess(executable, arguments, environment: environment, directory: directory, stdin: stdin,
                           outputDirectory: outputDirectory).wait()
    }
}

/// `sqlite3 DB SQL` (the command-line shell, /usr/bin/sqlite3) with a 5 s busy timeout, like
/// pressdb's own connections: rows as lines, columns separated by `|`.
public func sqlite3(_ db: URL, _ sql: String, readOnly: Bool = false) throws -> ProcessResult {
    try RunningProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"),
                           (readOnly ? ["-readonly"] : []) + ["-cmd", ".timeout 5000", db.path, sql])
}
