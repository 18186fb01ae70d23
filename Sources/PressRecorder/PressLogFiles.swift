// The recorder's files: lines appended to one active file, which is rotated (renamed to the next
// numbered name, ready to ship) by size and by age. Plain POSIX calls, the same on Linux and iOS.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the recorder's lines go. `write` is given whole lines (each ends with a newline).
public protocol PressLogOutput: AnyObject {
    func write(_ lines: [UInt8]) throws
}

/// A file the recorder could not open or write: the path and the system's reason.
public struct PressLogError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ path: String, _ what: String) { description = "\(path): \(what): \(String(cString: strerror(errno)))" }
}

/// NDJSON files in one directory: `<name>.ndjson` is appended to; rotated, it becomes
/// `<name>-<8-digit number>.ndjson` (numbers increasing, so names sort in the order written),
/// which `finishedFiles()` lists for shipping: a file is shipped, then deleted, by the app. The
/// last number used is kept in `<name>.last-number`, so a name is never used twice even after
/// every shipped file is deleted (a server storing uploads by name would replace one).
///
/// Appends cannot tear more than the last line: every write is whole lines, to a descriptor
/// opened with `O_APPEND`, so a crash or power loss mid-write leaves at most one partial line at
/// the end; opening a file whose last byte is not a newline ends that line first, so the torn
/// line stays one line (`pressdb ingest` rejects it alone) and the lines after it are whole; a
/// write that fails part-way (a full disk) is ended the same way before the next one.
/// Rotation renames after an `fsync`, so a shipped file is complete.
public final class PressLogFiles: PressLogOutput {
    public struct Options: Sendable {
        /// The directory (created by the app; e.g. Application Support/presses).
        public var directory: String
        /// The files' base name.
        public var name = "presses"
        /// Rotate once the active file holds this many bytes or more.
        public var maximumBytes = 1 << 20
        /// Rotate once the active file is this many seconds old (counted from when it was opened
        /// or created by this process).
        public var maximumAge = 3600.0
        public init(directory: String) { self.directory = directory }
    }

    public let options: Options
    private var fd: Int32 = -1
    private var bytes = 0
    private var openedAt = 0.0
    /// A write failed part-way: the file ends inside a line, to be ended before the next write.
    private var endsInsideALine = false
    /// `write(2)`; tests give one that fails part-way.
    var systemWrite: (Int32, UnsafeRawPointer, Int) -> Int = { Glibc_write($0, $1, $2) }
    /// The clock ages are measured on, seconds (monotonic by default; tests give their own).
    private let now: () -> Double

    /// The active file's path.
    public var activePath: String { "\(options.directory)/\(options.name).ndjson" }

    /// Opens (or creates) the active file.
    /// - Throws: `PressLogError` when it cannot be opened.
    public init(options: Options, now: @escaping () -> Double = PressLogFiles.monotonicSeconds) throws {
        self.options = options
        self.now = now
        try openActive()
    }

    deinit { if fd >= 0 { close(fd) } }

    /// Seconds on the monotonic clock.
    public static func monotonicSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    private func openActive() throws {
        let path = activePath
        fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        guard fd >= 0 else { throw PressLogError(path, "cannot open") }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw PressLogError(path, "cannot stat") }
        bytes = Int(st.st_size)
        openedAt = now()
        if bytes > 0 {
            // A line torn by a crash is ended here, so it stays the only damaged line.
            var last: UInt8 = 0
            let readFD = open(path, O_RDONLY)
            if readFD >= 0 {
                if pread(readFD, &last, 1, off_t(bytes - 1)) == 1, last != 0x0A { try writeAll([0x0A]) }
                close(readFD)
            }
        }
    }

    /// Appends whole lines, rotating first when the active file is due.
    public func write(_ lines: [UInt8]) throws {
        if lines.isEmpty { return }
        if bytes > 0, bytes >= options.maximumBytes || now() - openedAt >= options.maximumAge { try rotate() }
        if endsInsideALine { try writeAll([0x0A]) }
        try writeAll(lines)
    }

    private func writeAll(_ data: [UInt8]) throws {
        try data.withUnsafeBytes { b in
            var done = 0
            while done < b.count {
                let n = systemWrite(fd, b.baseAddress! + done, b.count - done)
                if n < 0 {
                    if errno == EINTR { continue }
                    let error = PressLogError(activePath, "cannot write")
                    // What was written stays: the file ends inside a line only if some was.
                    bytes += done
                    if done > 0, b[done - 1] != 0x0A { endsInsideALine = true }
                    throw error
                }
                done += n
            }
        }
        bytes += data.count
        endsInsideALine = false
    }

    /// Makes the active file a finished one (when it holds anything) and starts a new one.
    public func rotate() throws {
        guard bytes > 0 else { return }
        let path = activePath
        _ = fsync(fd)
        close(fd)
        fd = -1
        let number = nextNumber()
        let target = "\(options.directory)/\(options.name)-\(Self.padded(number)).ndjson"
        guard rename(path, target) == 0 else { throw PressLogError(path, "cannot rename to \(target)") }
        recordLastNumber(number)
        endsInsideALine = false
        try openActive()
    }

    /// The rotated files, oldest first (full paths): ready to ship.
    public func finishedFiles() -> [String] {
        numbered().map { "\(options.directory)/\(options.name)-\(Self.padded($0)).ndjson" }
    }

    private func nextNumber() -> Int { max(numbered().last ?? 0, lastNumberRecorded()) + 1 }

    private var lastNumberPath: String { "\(options.directory)/\(options.name).last-number" }

    /// The number `recordLastNumber` kept, 0 when none (or unreadable: the files present still count).
    private func lastNumberRecorded() -> Int {
        let fd = open(lastNumberPath, O_RDONLY)
        guard fd >= 0 else { return 0 }
        defer { close(fd) }
        var digits = [UInt8](repeating: 0, count: 32)
        let n = read(fd, &digits, digits.count)
        guard n > 0 else { return 0 }
        return Int(String(decoding: digits[..<n], as: UTF8.self).filter(\.isNumber)) ?? 0
    }

    /// Keeps `number` for the next process (written beside, then renamed: never half a number).
    private func recordLastNumber(_ number: Int) {
        let temporary = lastNumberPath + ".tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { return }
        let text = Array("\(number)\n".utf8)
        let written = text.withUnsafeBytes { Glibc_write(fd, $0.baseAddress!, $0.count) }
        _ = fsync(fd)
        close(fd)
        if written == text.count { _ = rename(temporary, lastNumberPath) } else { _ = unlink(temporary) }
    }

    /// The numbers of the rotated files present, ascending.
    private func numbered() -> [Int] {
        guard let dir = opendir(options.directory) else { return [] }
        defer { closedir(dir) }
        let prefix = options.name + "-", suffix = ".ndjson"
        var numbers: [Int] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { continue }
            let digits = name.dropFirst(prefix.count).dropLast(suffix.count)
            if digits.count == 8, let n = Int(digits) { numbers.append(n) }
        }
        return numbers.sorted()
    }

    static func padded(_ n: Int) -> String {
        let s = String(n)
        return String(repeating: "0", count: max(0, 8 - s.count)) + s
    }
}

/// `write(2)` under a name that does not clash with the protocol's `write`.
@inline(__always)
private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    #if canImport(Glibc)
    return Glibc.write(fd, p, n)
    #else
    return Darwin.write(fd, p, n)
    #endif
}
