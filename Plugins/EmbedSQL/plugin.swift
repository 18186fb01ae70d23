import Foundation
import PackagePlugin

/// Embeds the package's `migrations/*.sql` and `reports/*.sql` into the target that uses this
/// plugin, as a generated `EmbeddedSQL.swift`, so an installed `pressdb` works from any directory.
@main
struct EmbedSQL: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        var inputs: [URL] = []
        var arguments: [String] = []
        for folder in ["migrations", "reports"] {
            let dir = root.appendingPathComponent(folder)
            let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
            for name in names.sorted() where name.hasSuffix(".sql") {
                let url = dir.appendingPathComponent(name)
                inputs.append(url)
                arguments.append("\(folder)=\(url.path)")
            }
        }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("EmbeddedSQL.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(inputs.count) SQL files into \(target.name)",
                executable: try context.tool(named: "EmbedSQLTool").url,
                arguments: [output.path] + arguments,
                inputFiles: inputs,
                outputFiles: [output]
            ),
        ]
    }
}
