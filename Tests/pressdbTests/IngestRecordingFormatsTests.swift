// `pressdb ingest` on the shared evtest dumps and `libinput record` YAML, end to end: the binary
// run as a user would, the database read back.
import Foundation
import Testing


@Suite(.enabled(if: SharedRecordings.available, "the shared recordings (../shared/data beside the package) are not here"))
struct IngestRecordingFormatsTests {
    /// The contacts of every shared evtest and libinput recording, counted independently of
    /// pressdb by scripts/count-contacts (a python3 script written from evtest's output format,
    /// libinput record's YAML read with PyYAML's pure-Python loader, and the kernel's multi-touch
    /// rules; see Tests/PressFormatsTests/EvtestRecordingTests.swift):
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
    /// They are rows of `IngestDeviceTests.expectedSessions`, whose test ingests each file with
    /// `--format auto` and by name (no rejects, those counts); this checks that every file is there.
    @Test func everyFileHasItsIndependentCount() throws {
        for folder in ["evtest", "libinput"] {
            let files = try FileManager.default.contentsOfDirectory(atPath: SharedRecordings.root.appendingPathComponent(folder).path)
            #expect(files.sorted() == IngestDeviceTests.expectedSessions.filter { $0.folder == folder }.map(\.file).sorted())
        }
        #expect(IngestDeviceTests.expectedSessions.filter { ["evtest", "libinput"].contains($0.folder) }.map(\.sessions)
                == [7, 1, 0, 2, 2, 25])
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

    @Test func helpNamesTheFormats() throws {
        let r = try Binary.run(["ingest", "--help"])
        #expect(r.stdout.contains("auto|ndjson|csv|getevent|evemu|evtest|libinput"))
        #expect(r.stdout.contains("'evtest /dev/input/eventN' or 'libinput record'"))
    }
}
