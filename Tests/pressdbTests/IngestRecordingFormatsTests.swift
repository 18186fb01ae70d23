// `pressdb ingest` on the shared evtest dumps and `libinput record` YAML, end to end: the binary
// run as a user would, the database read back.
import Foundation
import Testing


@Suite(.enabled(if: SharedRecordings.available, "the shared recordings (../shared/data beside the package) are not here"))
struct IngestRecordingFormatsTests {
    /// Contacts per recording, counted independently of pressdb by scripts/count-contacts (a
    /// python3 script written from evtest's output format, libinput record's YAML read with
    /// PyYAML's pure-Python loader, and the kernel's multi-touch rules; see
    /// Tests/PressFormatsTests/EvtestRecordingTests.swift):
    ///
    ///     $ scripts/count-contacts ../shared/data/evtest/* ../shared/data/libinput/*
    ///     …chromeos-autotest_two_close_fingers_tracking.dat: 7 contacts, at most 2 at once, …
    ///     …evtest_melfas-mms114_linux-input-2020-06-23.txt: 1 contacts, …
    ///     …kobrakid_ft5406_evtest.txt: 0 contacts, …            (the header alone)
    ///     …kobrakid_ft5406_twodragoutput.txt: 2 contacts, at most 2 at once, …
    ///     …kobrakid_ft5406_twotouchoutput.txt: 2 contacts, at most 2 at once, …
    ///     …libinput-record_elan1206-touchpad_elan1206-bug.yaml: 25 contacts, at most 1 at once, …
    ///
    /// every one lifted by the end (0 still down) and no frame touching a slot without a contact.
    static let expectedSessions: [(folder: String, file: String, sessions: Int)] = [
        ("evtest", "chromeos-autotest_two_close_fingers_tracking.dat", 7),
        ("evtest", "evtest_melfas-mms114_linux-input-2020-06-23.txt", 1),
        ("evtest", "kobrakid_ft5406_evtest.txt", 0),
        ("evtest", "kobrakid_ft5406_twodragoutput.txt", 2),
        ("evtest", "kobrakid_ft5406_twotouchoutput.txt", 2),
        ("libinput", "libinput-record_elan1206-touchpad_elan1206-bug.yaml", 25),
    ]

    @Test func everyFileIsListed() throws {
        for folder in ["evtest", "libinput"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: SharedRecordings.root.appendingPathComponent(folder).path)
            #expect(files.sorted() == Self.expectedSessions.filter { $0.folder == folder }.map(\.file).sorted())
        }
    }

    @Test(arguments: expectedSessions.map { "\($0.folder)/\($0.file)" })
    func ingestsByDetectionAndByName(_ name: String) throws {
        let entry = Self.expectedSessions.first { "\($0.folder)/\($0.file)" == name }!
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("r.sqlite")
        let path = SharedRecordings.url(entry.folder, entry.file).path
        let auto = try Binary.run(["ingest", path, "--db", db.path])
        // A file with no contact (the header alone) stores nothing; issue 15 item 13 may make that
        // "nothing to work on" (status 4) — either way, no failure and no reject.
        #expect(auto.status == 0 || (entry.sessions == 0 && auto.status == 4), "\(name): \(auto.stderr)")
        #expect(auto.stderr.contains("sessions: \(entry.sessions) new, 0 duplicate, 0 conflict, 0 pending; 0 rejected"),
                "\(name): \(auto.stderr)")
        #expect(!auto.stderr.contains("warning"), "\(auto.stderr)")
        if FileManager.default.fileExists(atPath: db.path) {
            #expect(try rows(db, "SELECT count(*) FROM sessions") == [["\(entry.sessions)"]])
            #expect(try rows(db, "SELECT count(*) FROM rejects") == [["0"]])
            #expect(try rows(db, "SELECT count(*) FROM pending") == [["0"]])
            #expect(try rows(db, "SELECT count(*) FROM results") == [["\(entry.sessions)"]])
        }
        // --format evtest|libinput names the same sessions: all duplicates.
        let named = try Binary.run(["ingest", "--format", entry.folder, path, "--db", db.path])
        #expect(named.status == 0 || (entry.sessions == 0 && named.status == 4), "\(name): \(named.stderr)")
        #expect(named.stderr.contains("sessions: 0 new, \(entry.sessions) duplicate, 0 conflict, 0 pending; 0 rejected"),
                "\(name): \(named.stderr)")
    }

    /// Standard input is read into memory, hashed, then read: the libinput YAML streams from the
    /// copy, giving the file's session ids (re-ingesting the file adds nothing).
    @Test func standardInputGivesTheFilesSessions() throws {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("s.sqlite")
        let path = SharedRecordings.url("libinput", "libinput-record_elan1206-touchpad_elan1206-bug.yaml").path
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let piped = try Binary.run(["ingest", "--db", db.path], stdin: text)
        #expect(piped.status == 0, "\(piped.stderr)")
        #expect(piped.stderr.contains("sessions: 25 new"))
        let file = try Binary.run(["ingest", path, "--db", db.path])
        #expect(file.stderr.contains("sessions: 0 new, 25 duplicate"), "\(file.stderr)")
    }

    /// The help names the formats and the recording commands' outputs are detected.
    @Test func helpNamesTheFormats() throws {
        let r = try Binary.run(["ingest", "--help"])
        #expect(r.stdout.contains("auto|ndjson|csv|getevent|evemu|evtest|libinput"))
    }
}
