// The team's shared real recordings (/work/shared/data), found from this file's path: they live
// beside the package root, in `../shared/data`, and are never copied into the repository.
import Foundation

public enum SharedData {
    /// `../shared/data` beside the package root.
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("../shared/data").standardized

    /// Whether the recordings are there. CI lays shared/ beside its clone (and `.ci/run` fails
    /// when it is missing), so the suites that need them only skip in a standalone clone.
    public static var available: Bool { FileManager.default.fileExists(atPath: root.appendingPathComponent("README.md").path) }

    /// A file of the recordings: `url("getevent", "tablet….txt")`.
    public static func url(_ folder: String, _ name: String) -> URL {
        root.appendingPathComponent(folder).appendingPathComponent(name)
    }
}
