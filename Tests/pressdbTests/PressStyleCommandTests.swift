// The press styles through the commands: listed by `configs`, run as demo arms, reported, compared
// and drawn (docs/configurations.md, "The press styles apps ship today").
import Foundation
import Testing

@Suite struct PressStyleCommandTests {
    static let styles = ["uibutton-system", "uibutton-configuration", "swiftui-button", "swiftui-scale-style", "cell-highlight"]

    @Test func configsListsEveryPreset() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try Binary.run(["configs", "--db", dir.appendingPathComponent("c.sqlite").path, "--format", "json"])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [[String: Any]])
        let feedback = Dictionary(uniqueKeysWithValues: rows.compactMap { row in
            (row["name"] as? String).map { ($0, row["feedback"] as? String ?? "") } })
        for name in ["spring-press", "expand-delayed-click", "longpress-safe-area"] + Self.styles {
            #expect(feedback[name] != nil, "\(name) listed")
        }
        #expect(feedback["uibutton-system"] == "opacity" && feedback["cell-highlight"] == "color"
                && feedback["swiftui-scale-style"] == "scale")
    }

    // The five styles as demo arms A–E: the demo replays, reports, compares B with A and writes the
    // HTML page; the JSON report has one row per style.
    @Test func demoRunsThePressStyles() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("d.sqlite").path, page = dir.appendingPathComponent("r.html").path
        let demo = try Binary.run(["demo", "--db", db, "--sessions", "1500", "--presets", Self.styles.joined(separator: ","),
                                   "--html", page, "--quiet"])
        #expect(demo.status == 0, "\(demo.stderr)")
        #expect(demo.stdout.contains("B runs uibutton-configuration and A uibutton-system"))
        #expect(FileManager.default.fileExists(atPath: page))
        let report = try Binary.run(["report", "--db", db, "--format", "json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(report.stdout.utf8)) as? [[String: Any]])
        #expect(Set(rows.compactMap { $0["config"] as? String }) == Set(Self.styles))
    }

    @Test func demoRefusesUnknownOrTooFewPresets() throws {
        let unknown = try Binary.run(["demo", "--presets", "spring-press,no-such-style", "--quiet"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no-such-style"))
        let one = try Binary.run(["demo", "--presets", "spring-press", "--quiet"])
        #expect(one.status == 2)
    }
}
