// Running a program as if in a terminal of a given width: its standard output, or standard
// error, or both, on a pseudo-terminal (openpty(3), sized with TIOCSWINSZ), so `isatty` is true and
// TIOCGWINSZ reports the width — for the tests of terminal tables and progress lines.
import Foundation

/// What a program wrote to the terminal and to the stream that was not on it.
public struct TerminalResult: Sendable {
    public var status: Int32
    /// Everything written to the pseudo-terminal, with the terminal's CR LF turned back into LF.
    public var terminal: String
    /// The stream that was a pipe (standard error when standard output was the terminal, and
    /// the other way round); empty when both were on the terminal.
    public var piped: String
}

public enum PseudoTerminal {
    /// Which of the program's streams go to the terminal.
    public enum Streams: Sendable { case standardOutput, standardError, both }

    private typealias OpenPTY = @convention(c) (UnsafeMutablePointer<Int32>, UnsafeMutablePointer<Int32>,
                                                UnsafeMutablePointer<CChar>?, UnsafeRawPointer?,
                                                UnsafePointer<winsize>?) -> Int32

    /// glibc's openpty (in libc since 2.34; not in the Swift module map, so found by name).
    private static let openpty: OpenPTY? = dlsym(nil, "openpty").map { unsafeBitCast($0, to: OpenPTY.self) }

    /// Runs `executable` with `streams` on a terminal `columns` wide and waits for it to end.
    /// - Throws: when no pseudo-terminal can be opened or the program cannot start.
    public static func run(_ executable: URL, _ arguments: [String], columns: Int, rows: Int = 50,
                           streams: Streams = .standardOutput, environment: [String: String] = [:],
                           directory: URL? = nil, typed: String? = nil) throws -> TerminalResult {
        guard let openpty else { throw CocoaError(.featureUnsupported) }
        var master: Int32 = -1, slave: Int32 = -1
        var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
        guard openpty(&master, &slave, nil, nil, &size) == 0 else { throw POSIXError(.ENXIO) }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        if let directory { process.currentDirectoryURL = directory }
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        // `typed`: standard input is the terminal too, and the text is typed on it once the
        // program runs (end with "\u{4}", Ctrl-D, for an end of input).
        process.standardInput = typed == nil ? FileHandle.nullDevice : terminal
        let pipe = Pipe()
        switch streams {
        case .standardOutput: process.standardOutput = terminal; process.standardError = pipe
        case .standardError: process.standardOutput = pipe; process.standardError = terminal
        case .both: process.standardOutput = terminal; process.standardError = terminal
        }
        let collected = Collected()
        let group = DispatchGroup()
        let fd = master
        do { try process.run() } catch {
            close(master); close(slave)
            throw error
        }
        close(slave)
        if let typed {
            let bytes = Array(typed.utf8)
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.5) { _ = write(fd, bytes, bytes.count) }
        }
        group.enter()
        DispatchQueue.global().async {
            var buffer = [UInt8](repeating: 0, count: 65536)
            var data = Data()
            while true {
                let n = read(fd, &buffer, buffer.count)
                if n > 0 { data.append(contentsOf: buffer[0..<n]); continue }
                if n < 0 && errno == EINTR { continue }
                break  // 0, or EIO once every writer has closed the terminal
            }
            collected.lock.withLock { collected.screen = data }
            group.leave()
        }
        if streams != .both {
            group.enter()
            DispatchQueue.global().async {
                let data = pipe.fileHandleForReading.readDataToEndOfFile()
                collected.lock.withLock { collected.other = data }
                group.leave()
            }
        }
        process.waitUntilExit()
        group.wait()
        close(master)
        return collected.lock.withLock {
            TerminalResult(status: process.terminationStatus,
                           terminal: String(decoding: collected.screen, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"),
                           piped: String(decoding: collected.other, as: UTF8.self))
        }
    }

    /// What the reading threads collect.
    private final class Collected: @unchecked Sendable {
        let lock = NSLock()
        var screen = Data()
        var other = Data()
    }

    /// `text` without ANSI escape sequences (CSI `ESC [ … final`), as a terminal shows it.
    public static func withoutEscapes(_ text: String) -> String {
        var out = ""
        var it = text.unicodeScalars.makeIterator()
        while let u = it.next() {
            if u == "\u{1B}" {
                guard let next = it.next() else { break }
                if next == "[" {
                    while let c = it.next(), !(0x40...0x7E).contains(c.value) {}
                }
                continue
            }
            out.unicodeScalars.append(u)
        }
        return out
    }

    /// The lines of `text` as a terminal shows them: carriage-return redraws resolved (only what
    /// follows the last `\r` of a line stays), escapes removed.
    public static func screenLines(_ text: String) -> [String] {
        withoutEscapes(text).split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(line.split(separator: "\r", omittingEmptySubsequences: false).last ?? "")
        }
    }
}
