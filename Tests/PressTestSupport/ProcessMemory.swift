// How much memory another program uses: its peak resident set, measured by the kernel — while it
// runs (/proc/PID/status, VmHWM) or when it ends (ru_maxrss) — for the tests that a command's
// memory stays bounded whatever its input's size.
import Foundation

public enum ProcessMemory {
    /// The peak resident set of the running process `pid` so far (VmHWM), in KiB; nil when it has
    /// ended or the kernel does not say.
    public static func peakResidentKiB(pid: Int32) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
        }
        return nil
    }

    /// Where python3 is, for `runMeasuringPeak`; nil when it is not installed.
    public static let python: String? = ["/usr/bin/python3", "/usr/local/bin/python3"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs `executable` to its end with standard output to /dev/null and returns its exit status
    /// and peak resident set in KiB (`ru_maxrss`, Linux's unit).
    ///
    /// The measuring parent is a small python3 (`resource.getrusage(RUSAGE_CHILDREN)`), not this
    /// test process: Linux carries a process's peak over `execve` from the memory it had before,
    /// and a child spawned from the test process (vfork, or fork) starts with the test process's
    /// own, far larger, memory as its peak.
    /// - Throws: when python3 cannot be run (check `python` first).
    public static func runMeasuringPeak(_ executable: URL, _ arguments: [String],
                                        environment: [String: String] = [:]) throws -> (status: Int32, peakKiB: Int) {
        let script = """
            import resource, subprocess, sys
            r = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let r = try RunningProcess.run(URL(fileURLWithPath: python ?? "/usr/bin/python3"),
                                       ["-c", script, executable.path] + arguments, environment: environment)
        let parts = r.stdout.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard parts.count == 2 else { throw POSIXError(.EINVAL) }
        return (Int32(parts[0]), parts[1])
    }
}
