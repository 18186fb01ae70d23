// Text from input on its way to a terminal: arm names in `compare`'s table and Markdown, names
// in `config show` and `replay --input` JSON, and a huge name in an error message. Every
// character a terminal acts on (ESC, OSC title and clipboard, BS, C1 CSI U+009B) or that
// reorders text (U+202E) is shown visibly, or as a \u escape in JSON; a long name is cut.
import Foundation
import Testing
@testable import pressdb

@Suite(.serialized) struct InputTextOutputTests {
    /// ESC[2J, an OSC title, an OSC 52 clipboard write, a backspace, C1 CSI and RIGHT-TO-LEFT
    /// OVERRIDE, JSON-escaped for the log.
    static let hostileJSON = #"A\u001b[2J\u001b]0;title\u0007\u001b]52;c;aGk=\u0007\b\u009b31m\u202eZ"#
    static let hostile = "A\u{1B}[2J\u{1B}]0;title\u{07}\u{1B}]52;c;aGk=\u{07}\u{08}\u{9B}31m\u{202E}Z"

    /// Any character `Terminal.visible` would replace (line feeds aside).
    static func raw(_ text: String) -> [Unicode.Scalar] {
        text.unicodeScalars.filter { $0 != "\n" && Terminal.needsEscape($0) }
    }

    /// Six sessions in each of two variants, one named `hostile`: few enough for the "too few
    /// sessions" warning.
    static func log() -> String {
        (0..<12).map { i in
            let variant = i % 2 == 0 ? hostileJSON : "B"
            return #"{"session":"s\#(i)","t":0,"phase":"began","x":10,"y":10,"variant":"\#(variant)","config":"spring-press"}"# + "\n"
                + #"{"session":"s\#(i)","t":0.1,"phase":"ended","x":10,"y":10}"# + "\n"
        }.joined()
    }

    @Test func compareShowsArmNamesVisibly() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("c.sqlite").path
        let ingest = try Binary.run(["ingest", "-", "--db", db, "-q"], stdin: Self.log())
        #expect(ingest.status == 0, "\(ingest.stderr)")
        for format in ["table", "markdown"] {
            let r = try Binary.run(["compare", Self.hostile, "B", "--by", "variant", "--unit", "session", "--db", db, "--format", format])
            #expect(r.status == 0, "\(format): \(r)")
            #expect(Self.raw(r.stdout).isEmpty && Self.raw(r.stderr).isEmpty, "\(format): \(Self.raw(r.stdout + r.stderr))")
            // The title names the arm, visibly.
            #expect(r.stdout.contains("A␛[2J␛]0;title␇␛]52;c;aGk=␇␈<U+009B>31m<U+202E>Z"), "\(format)")
            #expect(r.stdout.contains("too few") || r.stdout.lowercased().contains("warning"), "\(format): \(r.stdout)")
        }
    }

    @Test func jsonCarriesThemAsEscapes() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("j.sqlite").path
        let config = dir.appendingPathComponent("c.json").path
        try #"{"type":"config","name":"n\#(Self.hostileJSON)","base":"spring-press","pressed_scale":0.97}"#
            .write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try Binary.run(["config", "add", config, "--db", db]).status == 0)
        let show = try Binary.run(["config", "show", "n" + Self.hostile, "--db", db])
        #expect(show.status == 0, "\(show)")
        #expect(Self.raw(show.stdout).isEmpty && !show.stdout.contains("\u{1B}"))
        #expect(show.stdout.contains(#"\u009b31m\u202eZ"#), "\(show.stdout)")
        let object = try JSONSerialization.jsonObject(with: Data(show.stdout.utf8)) as? [String: Any]
        #expect(object?["name"] as? String == "n" + Self.hostile)

        let replay = try Binary.run(["replay", "--input", "-"], stdin: Self.log())
        #expect(replay.status == 0, "\(replay)")
        #expect(Self.raw(replay.stdout).isEmpty && !replay.stdout.contains("\u{1B}"))
        let first = try JSONSerialization.jsonObject(with: Data(replay.stdout.split(separator: "\n")[0].utf8)) as? [String: Any]
        #expect(first?["variant"] as? String == Self.hostile)
    }

    /// A 100,000-byte unknown configuration name (the command line holds at most 128 KiB an
    /// argument): the message is one short line naming its start and its size.
    @Test func aHugeNameIsCutInMessages() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("n.sqlite").path
        #expect(try Binary.run(["ingest", "-", "--db", db, "-q"], stdin: Self.log()).status == 0)
        let name = String(repeating: "x", count: 100_000)
        for args in [["config", "show", name], ["replay", "--as", name], ["report", name]] {
            let r = try Binary.run(args + ["--db", db])
            #expect(r.status == 2, "\(args[0]): \(r.status)")
            #expect(r.stderr.utf8.count < 1_000 && r.stderr.split(separator: "\n").count == 1, "\(args[0]): \(r.stderr.utf8.count) bytes")
            #expect(r.stderr.contains("… (100000 bytes)"), "\(args[0])")
        }
    }
}
