// `pressdb ingest` on the shared Android (getevent) and Linux (evemu) recordings, end to end: the
// binary is run as a user would, and the database it writes is read back through PressStore.
import Foundation
import PressStore
import PressTestSupport
import Testing
import PressSQLite

/// The shared recordings (PressTestSupport's `SharedData`: `../shared/data` beside the package
/// root, never copied into the repository).
typealias SharedRecordings = SharedData

extension SharedData {
    static let tablet = url("getevent", "tablet-openCalender-drag-tap-tap.getevent-lt.txt")
    /// FNV-1a 64 of the tablet file's bytes, computed with python3 (offset basis
    /// 0xcbf29ce484222325, prime 0x100000001b3, one byte at a time): every session id starts with it.
    static let tabletHash = "5ec1cdff02308117"
}

/// Rows of a query on the database at `db`, every column as text ("NULL" for null).
func rows(_ db: URL, _ sql: String) throws -> [[String]] {
    let database = try Database(path: db.path, readOnly: true)
    let statement = try database.prepare(sql)
    var out: [[String]] = []
    while try statement.step() {
        out.append((0..<statement.columnCount).map { statement.isNull($0) ? "NULL" : statement.text($0) })
    }
    return out
}

private func count(_ db: URL, _ table: String) throws -> Int {
    Int(try rows(db, "SELECT count(*) FROM \(table)")[0][0]) ?? -1
}

@Suite(.enabled(if: SharedRecordings.available, "the shared recordings (../shared/data beside the package) are not here"))
struct IngestDeviceTests {
    /// Contacts per recording, counted independently of pressdb (docs/device-recordings.md, "The
    /// shared recordings": by reading the files' tracking ids, slots and empty frames by hand).
    static let expectedSessions: [(folder: String, file: String, sessions: Int)] = [
        ("getevent", "emulator-drag.getevent-lt.txt", 1),
        ("getevent", "emulator-single-touch.getevent-lt.txt", 1),
        ("getevent", "numeric-tap.getevent-t.txt", 1),
        ("getevent", "phone-openCalender.getevent-lt.txt", 3),
        ("getevent", "phone-single-drag.getevent-lt.txt", 1),
        ("getevent", "phone-single-touch.getevent-lt.txt", 1),
        ("getevent", "tablet-openCalender-drag-tap-tap.getevent-lt.txt", 3),
        ("getevent", "tablet-single-touch.getevent-lt.txt", 1),
        ("evemu", "Atmel-maXTouch-Touchscreen.1-finger-drag-up-down.events", 1),
        ("evemu", "Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events", 9),
        ("evemu", "Atmel-maXTouch-Touchscreen.2-fingers-touch-release.events", 2),
        // Counted by scripts/count-contacts (see IngestRecordingFormatsTests.swift); the FT5406
        // header file has no events.
        ("evtest", "chromeos-autotest_two_close_fingers_tracking.dat", 7),
        ("evtest", "evtest_melfas-mms114_linux-input-2020-06-23.txt", 1),
        ("evtest", "kobrakid_ft5406_evtest.txt", 0),
        ("evtest", "kobrakid_ft5406_twodragoutput.txt", 2),
        ("evtest", "kobrakid_ft5406_twotouchoutput.txt", 2),
        ("libinput", "libinput-record_elan1206-touchpad_elan1206-bug.yaml", 25),
    ]

    @Test func everySharedRecordingIngestsWithoutRejectsByAutoDetection() throws {
        let dir = try Binary.temporaryDirectory()
        for (folder, file, sessions) in Self.expectedSessions {
            let db = dir.appendingPathComponent("\(file).sqlite")
            // No --format: auto-detection must pick getevent or evemu.
            let r = try Binary.run(["ingest", SharedRecordings.url(folder, file).path, "--db", db.path])
            #expect(r.status == 0, "\(file): \(r.stderr)")
            #expect(r.stderr.contains("sessions: \(sessions) new, 0 duplicate, 0 conflict, 0 pending; 0 rejected"), "\(file): \(r.stderr)")
            #expect(try count(db, "sessions") == sessions, "\(file)")
            #expect(try count(db, "rejects") == 0, "\(file)")
            #expect(try count(db, "pending") == 0, "\(file)")
            // Ingest replays what it stored: one result per session.
            #expect(try count(db, "results") == sessions, "\(file)")
            // Auto-detection and --format name the same sessions.
            let explicit = try Binary.run(["ingest", "--format", folder, SharedRecordings.url(folder, file).path,
                                           "--db", db.path])
            #expect(explicit.status == 0)
            #expect(explicit.stderr.contains("sessions: 0 new, \(sessions) duplicate"), "\(file): \(explicit.stderr)")
        }
    }

    /// The tablet's first contact is a drag: touch-down at raw (1138, 494), lift at (1340, 479),
    /// the farthest point being the lift, √(202² + 15²) = 202.556 from the touch-down (python3,
    /// from the hex values of the ABS_MT_POSITION lines). With the default options points are raw
    /// values; the control is the reference's default 44 × 44 pt square centred on the
    /// touch-down, in no container, and spring-press keeps the touch inside within 70 pt of the
    /// frame: x ∈ [1138 − 22 − 70, 1138 + 22 + 70] = [1046, 1230]. The lift at x = 1340 is 110 pt
    /// beyond, so it is a touchUpOutside: `cancel`, `drag_exit`. The two other contacts never
    /// move (travel 0) and lift inside: taps. Durations from the SYN_REPORT times of the
    /// touch-down and lift frames: 176866.148117 − 176865.769027 s for the drag (python3: 379.090,
    /// 77.221, 36.614 ms).
    @Test func tabletDragIsADragExitAndTheTapsAreTaps() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("t.sqlite")
        let r = try Binary.run(["ingest", "--format", "getevent", SharedRecordings.tablet.path, "--db", db.path])
        #expect(r.status == 0, "\(r.stderr)")
        let results = try rows(db, """
            SELECT session, config, outcome, cancel_reason, max_travel_pt, duration_ms
            FROM session_results ORDER BY session
            """)
        #expect(results.map { $0[0] } == (1...3).map { "\(SharedRecordings.tabletHash)-c000\($0)" })
        #expect(results.map { $0[1] } == ["spring-press", "spring-press", "spring-press"])
        #expect(results.map { $0[2] } == ["cancel", "tap", "tap"])
        #expect(results.map { $0[3] } == ["drag_exit", "NULL", "NULL"])
        let travel = results.map { Double($0[4]) ?? -1 }
        #expect(abs(travel[0] - 202.5561650505854) < 1e-6)
        #expect(travel[1] == 0 && travel[2] == 0)
        let durations = results.map { Double($0[5]) ?? -1 }
        for (d, expected) in zip(durations, [379.090, 77.221, 36.614]) { #expect(abs(d - expected) < 1e-3) }
        // The same through `pressdb replay --format json`.
        let replay = try Binary.run(["replay", "--db", db.path, "--format", "json", "--session",
                                     "\(SharedRecordings.tabletHash)-c0001"])
        #expect(replay.status == 0)
        #expect(replay.stdout.contains(#""outcome": "cancel""#) || replay.stdout.contains(#""outcome":"cancel""#))
        #expect(replay.stdout.contains("drag_exit"))
    }

    /// --abs-range 0:1999,0:999 --screen 1000x500 halves raw values into pixels
    /// ((raw − 0) · 1000 / 2000), and --px-per-pt 2 halves them again into points: the drag is
    /// 202.556 / 4 = 50.639 pt long, from (284.5, 123.5) to (335, 119.75). Now the lift lies inside
    /// x ∈ [284.5 − 92, 284.5 + 92] = [192.5, 376.5] (y likewise): a tap. Units decide outcomes.
    @Test func unitsFlagsConvertRawValuesToPoints() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("u.sqlite")
        let r = try Binary.run(["ingest", SharedRecordings.tablet.path, "--db", db.path,
                                "--abs-range", "0:1999,0:999", "--screen", "1000x500", "--px-per-pt", "2"])
        #expect(r.status == 0, "\(r.stderr)")
        let drag = try rows(db, "SELECT outcome, max_travel_pt FROM session_results WHERE session LIKE '%-c0001'")
        #expect(drag.first?[0] == "tap")
        #expect(abs((Double(drag.first?[1] ?? "") ?? -1) - 50.63904126264635) < 1e-6)
    }

    static let layoutControls = [
        #"{"type":"control","id":"header","frame":[0,0,2000,100],"config":"longpress-safe-area"}"#,
        #"{"type":"control","id":"date","frame":[1500,0,100,60],"container":"table","scroll_axis":"horizontal","config":"expand-delayed-click"}"#,
    ]

    /// What the layout gives the tablet's sessions. Contact 2 touches down at (1552, 29): inside
    /// both `header` (0…2000 × 0…100) and `date` (1500…1600 × 0…60); `date` is listed last, so it is
    /// on top and wins. Contacts 1 (1138, 494) and 3 (866, 133) hit nothing (y > 100): they keep
    /// --config and --container. In a table, contact 2 lifts after 77 ms, before the 150 ms delay:
    /// touchDown and touchUpInside together, a tap, replayed as expand-delayed-click.
    func expectLayoutApplied(_ db: URL) throws {
        let s = try rows(db, """
            SELECT s.control, s.config, s.container, s.scroll_axis, s.frame_x, s.frame_y, s.frame_w, s.frame_h,
                   r.config, r.outcome
            FROM sessions s JOIN results r ON r.session_id = s.id ORDER BY s.session
            """)
        #expect(s.count == 3)
        #expect(s[1] == ["date", "expand-delayed-click", "table", "horizontal", "1500.0", "0.0", "100.0", "60.0",
                         "expand-delayed-click", "tap"])
        #expect(s[0][0...3] == ["NULL", "spring-press", "scroll", "NULL"])
        #expect(s[2][0...3] == ["NULL", "spring-press", "scroll", "NULL"])
        #expect(s[2][8...9] == ["spring-press", "tap"])
    }

    @Test func layoutFileRoutesSessionsToTheTopMostControl() throws {
        let dir = try Binary.temporaryDirectory()
        let layout = "{\"controls\": [\n" + Self.layoutControls.map {
            $0.replacingOccurrences(of: #""type":"control","#, with: "")
        }.joined(separator: ",\n") + "\n]}\n"
        try layout.write(to: dir.appendingPathComponent("screen.json"), atomically: true, encoding: .utf8)
        let r = try Binary.run(["ingest", SharedRecordings.tablet.path, "--layout", "screen.json",
                                "--config", "spring-press", "--container", "scroll", "--db", "l.sqlite"], directory: dir)
        #expect(r.status == 0, "\(r.stderr)")
        try expectLayoutApplied(dir.appendingPathComponent("l.sqlite"))
    }

    @Test func controlRecordsInAnNDJSONLogApplyToRecordingsReadAfterThem() throws {
        let dir = try Binary.temporaryDirectory()
        try (Self.layoutControls.joined(separator: "\n") + "\n")
            .write(to: dir.appendingPathComponent("layout.ndjson"), atomically: true, encoding: .utf8)
        let r = try Binary.run(["ingest", "layout.ndjson", SharedRecordings.tablet.path,
                                "--config", "spring-press", "--container", "scroll", "--db", "n.sqlite"], directory: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("2 control records"))
        #expect(r.stderr.contains("0 rejected"))
        try expectLayoutApplied(dir.appendingPathComponent("n.sqlite"))
        // Given after the recording, the layout does not apply to it.
        let late = try Binary.run(["ingest", SharedRecordings.tablet.path, "layout.ndjson", "--db", "m.sqlite"],
                                  directory: dir)
        #expect(late.status == 0)
        #expect(try rows(dir.appendingPathComponent("m.sqlite"), "SELECT count(control) FROM sessions") == [["0"]])
    }

    @Test func badDeviceFlagValuesAreUsageErrors() throws {
        let dir = try Binary.temporaryDirectory()
        try "{\"controls\": [{\"id\": \"a\"}]}".write(to: dir.appendingPathComponent("bad.json"), atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--abs-range", "0:1079"], "--abs-range"),
            (["--abs-range", "1079:0,0:2339"], "--abs-range"),
            (["--abs-range", "a:b,c:d"], "X0:X1,Y0:Y1"),
            (["--screen", "1080"], "--screen"),
            (["--screen", "0x2340"], "WxH"),
            (["--px-per-pt", "0"], "--px-per-pt"),
            (["--px-per-pt", "two"], "--px-per-pt"),
            (["--px-per-pt", "-1.5"], "--px-per-pt"),
            (["--layout", "bad.json"], "--layout"),
            (["--format", "gpx"], "getevent, evemu"),
        ]
        for (flags, mention) in cases {
            let r = try Binary.run(["ingest", SharedRecordings.tablet.path, "--db", "x.sqlite"] + flags, directory: dir)
            #expect(r.status == 2, "\(flags)")
            #expect(r.stderr.contains(mention), "\(flags): \(r.stderr)")
            #expect(r.stderr.trimmingCharacters(in: .newlines).split(separator: "\n").count == 1, "\(flags): \(r.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("x.sqlite").path))
        let missing = try Binary.run(["ingest", SharedRecordings.tablet.path, "--layout", "none.json", "--db", "x.sqlite"],
                                     directory: dir)
        #expect(missing.status == 1)
    }

    @Test func helpDocumentsTheDeviceFlags() throws {
        let r = try Binary.run(["ingest", "--help"])
        #expect(r.status == 0)
        for flag in ["--abs-range X0:X1,Y0:Y1", "--screen WxH", "--px-per-pt F", "--layout FILE.json", "getevent|evemu"] {
            #expect(r.stdout.contains(flag), "\(flag)")
        }
        #expect(r.stdout.contains("pressdb ingest --format getevent --abs-range"))
    }

    /// Standard input is buffered, hashed, then read: the same ids as the file (python3's hash).
    @Test func standardInputGivesTheSameSessionsAsTheFile() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("s.sqlite")
        let text = try String(contentsOf: SharedRecordings.tablet, encoding: .utf8)
        let r = try Binary.run(["ingest", "--db", db.path], stdin: text)   // auto-detected, from "-"
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try rows(db, "SELECT session FROM sessions ORDER BY session").map { $0[0] }
                == (1...3).map { "\(SharedRecordings.tabletHash)-c000\($0)" })
        #expect(try rows(db, "SELECT name, content_hash FROM sources") == [["-", SharedRecordings.tabletHash]])
        let evemu = try String(contentsOf: SharedRecordings.url("evemu", "Atmel-maXTouch-Touchscreen.2-fingers-touch-release.events"),
                               encoding: .utf8)
        let e = try Binary.run(["ingest", "--format", "evemu", "-", "--db", db.path], stdin: evemu)
        #expect(e.status == 0)
        #expect(e.stderr.contains("sessions: 2 new"))
    }

    @Test func reingestingARecordingAddsNothing() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("r.sqlite")
        let first = try Binary.run(["ingest", SharedRecordings.tablet.path, "--db", db.path])
        #expect(first.stderr.contains("sessions: 3 new"))
        // A renamed copy is the same recording.
        let copy = dir.appendingPathComponent("renamed.txt")
        try FileManager.default.copyItem(at: SharedRecordings.tablet, to: copy)
        let again = try Binary.run(["ingest", copy.path, "--db", db.path])
        #expect(again.status == 0)
        #expect(again.stderr.contains("sessions: 0 new, 3 duplicate, 0 conflict, 0 pending; 0 rejected"))
        #expect(again.stderr.contains("replay: 0 sessions replayed"))
        #expect(try count(db, "sessions") == 3)
        #expect(try count(db, "results") == 3)
        #expect(try count(db, "sources") == 1)
    }

    /// The tablet file cut after line 28: four frames of the first contact (SYN_REPORTs on lines
    /// 7, 14, 21 and 28 — counted in the file), and no lift. The contact stays open: no reject,
    /// no stored session, one pending session with 4 samples. Again: a duplicate, nothing new.
    @Test func aContactStillDownAtTheEndIsPending() throws {
        let dir = try Binary.temporaryDirectory()
        let bytes = [UInt8](try Data(contentsOf: SharedRecordings.tablet))
        let newlines = bytes.indices.filter { bytes[$0] == 0x0A }
        try Data(bytes[...newlines[27]]).write(to: dir.appendingPathComponent("cut.txt"))
        let db = dir.appendingPathComponent("p.sqlite")
        let r = try Binary.run(["ingest", "cut.txt", "--db", db.path], directory: dir)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("sessions: 0 new, 0 duplicate, 0 conflict, 1 pending; 0 rejected"))
        let pending = try rows(db, "SELECT session, sample_count FROM pending")
        #expect(pending.count == 1)
        #expect(pending.first?[0].hasSuffix("-c0001") == true)
        #expect(pending.first?[1] == "4")
        let again = try Binary.run(["ingest", "cut.txt", "--db", db.path], directory: dir)
        #expect(again.stderr.contains("sessions: 0 new, 1 duplicate, 0 conflict, 0 pending"))
    }
}
