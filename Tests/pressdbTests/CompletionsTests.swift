// `pressdb completions bash|zsh|fish`: scripts generated from the declarations behind --help.
// Each is checked by its shell's own parser (bash -n, zsh -n, fish -n; a shell that is not
// installed is skipped with a message) and, for bash and fish, by asking it to complete.
import Foundation
import Testing
import PressTestSupport
@testable import pressdb

private func shell(_ name: String) -> String? {
    ["/usr/bin/\(name)", "/bin/\(name)", "/usr/local/bin/\(name)"].first { FileManager.default.isExecutableFile(atPath: $0) }
}

@Suite struct CompletionsTests {
    func script(_ shell: String) throws -> URL {
        let r = try Binary.run(["completions", shell])
        #expect(r.status == 0)
        let url = try Binary.temporaryDirectory().appendingPathComponent("pressdb.\(shell)")
        try r.stdout.write(to: url, atomically: true, encoding: .utf8)
        // Every command and every option of every command is in it.
        for command in commands {
            #expect(r.stdout.contains(command.configuration.name), "\(shell): \(command.configuration.name)")
            for d in command.declarations where d.kind != .positional {
                #expect(r.stdout.contains(shell == "fish" ? "-l \(d.name!)" : "--\(d.name!)"), "\(shell): --\(d.name!)")
            }
        }
        return url
    }

    // The README's install line works in a fresh home, where the completions folder does not
    // exist yet: run by bash as written, with pressdb on PATH.
    @Test(.enabled(if: shell("bash") != nil, "bash is not installed"))
    func readmeInstallLineWorksInAFreshHome() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        let line = try #require(readme.split(separator: "\n").first { $0.contains("pressdb completions bash") })
        let command = String(line.split(separator: "#").first!)
        let home = try Binary.temporaryDirectory()
        let path = Binary.url.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let r = try RunningProcess.run(URL(fileURLWithPath: shell("bash")!), ["-c", command],
                                       environment: ["HOME": home.path, "PATH": path])
        #expect(r.status == 0, "\(command): \(r.stderr)")
        let installed = home.appendingPathComponent(".local/share/bash-completion/completions/pressdb")
        #expect(try String(contentsOf: installed, encoding: .utf8).contains("complete"))
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func parsesInItsShell(_ name: String) throws {
        let url = try script(name)
        guard let path = shell(name) else {
            print("skipped: \(name) is not installed, so its parser cannot check the script")
            return
        }
        let r = try RunningProcess.run(URL(fileURLWithPath: path), ["-n", url.path])
        #expect(r.status == 0, "\(name) -n: \(r.stderr)")
    }

    // bash completes `pressdb report --format ` with the report's formats, from its declaration.
    @Test func bashCompletesChoicesFromTheDeclarations() throws {
        let url = try script("bash")
        let formats = try #require(ReportCommand.declarations.first { $0.name == "format" }?.choices)
        let r = try RunningProcess.run(URL(fileURLWithPath: "/bin/bash"), ["-c", """
            source "\(url.path)"; COMP_WORDS=(pressdb report --format ""); COMP_CWORD=3; _pressdb; echo "${COMPREPLY[@]}"
            COMP_WORDS=(pressdb com); COMP_CWORD=1; _pressdb; echo "${COMPREPLY[@]}"
            """])
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == formats.joined(separator: " "))
        #expect(lines.dropFirst().first == "compare completions")
    }

    @Test(.enabled(if: shell("fish") != nil, "fish is not installed"))
    func fishCompletesChoicesFromTheDeclarations() throws {
        let url = try script("fish")
        let r = try RunningProcess.run(URL(fileURLWithPath: shell("fish")!),
                                       ["-c", "source \(url.path); complete -C 'pressdb compare --correction '"])
        let choices = r.stdout.split(separator: "\n").map { String($0.split(separator: "\t")[0]) }
        #expect(Set(choices) == Set(MultipleComparisonCorrectionChoices.all))
    }
}

/// The choices of compare's --correction as its declaration gives them.
private enum MultipleComparisonCorrectionChoices {
    static var all: [String] { CompareCommand.declarations.first { $0.name == "correction" }?.choices ?? [] }
}
