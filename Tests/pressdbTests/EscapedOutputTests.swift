// Text from input (session ids, variants, rejected lines) never reaches a
// terminal as control characters. Terminal tables and Markdown show them visibly (U+2400 control
// pictures); CSV keeps the exact text in a quoted field; JSON escapes it (\u001b). The hostile
// texts are the tester's: a screen clear `ESC[2J` and a window-title change `ESC]0;…BEL`.
import Foundation
import Testing
import PressTestSupport
@testable import pressdb

/// RFC 4180 fields of a CSV text (quoted fields may hold commas, quotes and line breaks), written
/// here from the RFC's grammar, not from pressdb's writer.
func parseCSV(_ text: String) -> [[String]] {
    var rows: [[String]] = [], row: [String] = [], field = ""
    var quoted = false, wasQuoted = false
    var it = Array(text.unicodeScalars)[...]
    while let c = it.popFirst() {
        if quoted {
            if c == "\"" {
                if it.first == "\"" { it.removeFirst(); field.unicodeScalars.append("\"") } else { quoted = false }
            } else { field.unicodeScalars.append(c) }
        } else if c == "\"" && field.isEmpty && !wasQuoted {
            quoted = true; wasQuoted = true
        } else if c == "," {
            row.append(field); field = ""; wasQuoted = false
        } else if c == "\n" {
            row.append(field); rows.append(row); row = []; field = ""; wasQuoted = false
        } else if c != "\r" {
            field.unicodeScalars.append(c)
        }
    }
    if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
    return rows
}

@Suite struct EscapedOutputTests {
    static let clear = "\u{1B}[2J"
    static let title = "\u{1B}]0;pwned\u{07}"
    /// A session id and a variant carrying both sequences.
    static let session = "s" + clear + title
    static let variant = "v" + clear

    /// A log with one valid session whose id and variant hold the sequences (JSON-escaped, so the
    /// line is valid), and one line rejected for a raw ESC inside a string (its raw text is kept).
    static func log() -> String {
        func escaped(_ s: String) -> String {
            s.unicodeScalars.map { $0.value < 0x20 ? String(format: "\\u%04x", $0.value) : String($0) }.joined()
        }
        return """
        {"session":"\(escaped(session))","t":0,"phase":"began","x":1,"y":1,"variant":"\(escaped(variant))"}
        {"session":"\(escaped(session))","t":0.1,"phase":"ended","x":1,"y":1}
        {"session":"r","t":0,"phase":"began","x":1,"y":1,"note":"\(clear)\(title)"}

        """
    }

    static func database() throws -> String {
        let db = try Binary.temporaryDirectory().appendingPathComponent("e.sqlite").path
        let ingest = try Binary.run(["ingest", "-", "--db", db], stdin: log())
        #expect(ingest.status == ExitCode.rejects, "\(ingest.stderr)")
        #expect(!ingest.stderr.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }, "ingest's messages")
        return db
    }

    static func hasControl(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F }
    }

    @Test func tablesShowControlCharactersVisibly() throws {
        let db = try Self.database()
        for args in [["report", "sessions"], ["report", "rejects"], ["report", "sessions", "--format", "markdown"],
                     ["report", "--by", "variant"], ["replay"], ["compare", Self.variant, "other", "--by", "variant"]] {
            let r = try Binary.run(args + ["--db", db])
            #expect(!Self.hasControl(r.stdout) && !Self.hasControl(r.stderr), "\(args): \(r.stdout.debugDescription)")
        }
        let sessions = try Binary.run(["report", "sessions", "--db", db]).stdout
        #expect(sessions.contains("s␛[2J␛]0;pwned␇"))
        let rejects = try Binary.run(["report", "rejects", "--db", db, "--full"]).stdout
        #expect(rejects.contains("␛[2J␛]0;pwned␇"))
        // On a terminal too (fitted to its width, the raw line cut).
        let terminal = try PseudoTerminal.run(Binary.url, ["report", "rejects", "--db", db], columns: 100,
                                              environment: ["NO_COLOR": "1"])
        #expect(!Self.hasControl(terminal.terminal), "\(terminal.terminal.debugDescription)")
    }

    @Test func csvAndJSONCarryTheExactText() throws {
        let db = try Self.database()
        let csv = parseCSV(try Binary.run(["report", "sessions", "--db", db, "--format", "csv"]).stdout)
        let header = try #require(csv.first)
        let row = try #require(csv.dropFirst().first)
        #expect(row[try #require(header.firstIndex(of: "session"))] == Self.session)
        #expect(row[try #require(header.firstIndex(of: "variant"))] == Self.variant)
        let json = try JSONSerialization.jsonObject(with: Data(try Binary.run(["report", "rejects", "--db", db,
                                                                              "--format", "json"]).stdout.utf8))
        let reject = try #require((json as? [[String: Any]])?.first)
        #expect((reject["raw"] as? String)?.contains(Self.clear + Self.title) == true)
        let ndjson = try Binary.run(["replay", "--db", db, "--format", "ndjson"]).stdout
        #expect(!Self.hasControl(ndjson))  // escaped as \u001b, as JSON requires
        let replayed = try JSONSerialization.jsonObject(with: Data(ndjson.split(separator: "\n")[0].utf8)) as? [String: Any]
        #expect(replayed?["session"] as? String == Self.session)
    }

    @Test func visibleFormsAreTheControlPictures() {
        // U+2400 + the code for C0 controls, U+2421 for DEL (Unicode's Control Pictures block).
        #expect(Terminal.visible("a\u{1B}[2J\u{07}\t\n\u{7F}") == "a␛[2J␇␉␊␡")
        #expect(Terminal.visible("\u{9B}31m x\u{202E}y") == "<U+009B>31m x<U+202E>y")
        #expect(Terminal.visible("plain, ünïcödé ✓") == "plain, ünïcödé ✓")
    }
}
