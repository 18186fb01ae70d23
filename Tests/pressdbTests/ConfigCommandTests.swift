import Foundation
import Testing

@Suite struct ConfigCommandTests {
    // A configuration derived from a preset is stored under its own name, listed, shown back as
    // canonical JSON, and usable with replay --as; a preset's name cannot be redefined.
    @Test func addListShowAndRefusePresetNames() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("c.sqlite").path
        let log = try Binary.run(["generate", "--sessions", "50", "--seed", "5"])
        #expect(try Binary.run(["ingest", "--db", db, "--quiet"], stdin: log.stdout).status == 0)

        let soft = #"{"type":"config","name":"soft-press","base":"spring-press","pressed_scale":0.97}"#
        let add = try Binary.run(["config", "add", "-", "--db", db], stdin: soft)
        #expect(add.status == 0, "\(add.stderr)")
        #expect(add.stderr.contains("added soft-press version"))
        // Adding the same definition again changes nothing.
        let again = try Binary.run(["config", "add", "-", "--db", db], stdin: soft)
        #expect(again.stderr.contains("already current"))

        let list = try Binary.run(["configs", "--db", db, "--format", "csv"]).stdout
        let row = try #require(list.split(separator: "\n").first { $0.hasPrefix("soft-press,") })
        #expect(row.contains(",stored,1,control,scale,0.97,"))
        let show = try Binary.run(["config", "show", "soft-press", "--db", db])
        #expect(show.stdout.contains(#""pressed_scale":0.97"#) && show.stdout.contains(#""name":"soft-press""#))

        let replay = try Binary.run(["replay", "--db", db, "--as", "soft-press", "--format", "json"])
        #expect(replay.status == 0)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(replay.stdout.utf8)) as? [[String: Any]])
        #expect(rows.count == 50 && rows.allSatisfy { $0["config"] as? String == "soft-press" })

        let preset = try Binary.run(["config", "add", "-", "--db", db],
                                    stdin: #"{"name":"spring-press","base":"spring-press","pressed_scale":0.9}"#)
        #expect(preset.status == 1)
        #expect(preset.stderr.contains("'spring-press' is a built-in preset"))
        let still = try Binary.run(["config", "show", "spring-press", "--db", db])
        #expect(still.stdout.contains(#""pressed_scale":0.95"#))

        let missing = try Binary.run(["config", "add", dir.appendingPathComponent("none.json").path, "--db", db])
        #expect(missing.status == 1 && missing.stderr.contains("no such file"))
    }
}
