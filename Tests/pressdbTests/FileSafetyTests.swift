// Files that are not pressdb's own: another application's SQLite database, devices and pipes
// given as --out, a database the user made read-only. None is written, replaced or grown.
import Foundation
import Testing
import PressTestSupport
import Synchronization

@Suite(.serialized) struct FileSafetyTests {
    static func generatedLog(_ dir: URL, sessions: Int = 30) throws -> String {
        let path = dir.appendingPathComponent("log.ndjson").path
        try Binary.run(["generate", "--sessions", "\(sessions)", "--seed", "4"]).stdout.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// `sqlite3 o.db "create table foo(x); pragma user_version=3"; pressdb ingest --db o.db log`
    /// migrated the file (a sweeps table, user_version 4) and printed KB of migration SQL. Now
    /// every command refuses it with one line and the file's bytes are unchanged.
    @Test func anotherApplicationsDatabaseIsNeverWritten() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = try Self.generatedLog(dir)
        let db = dir.appendingPathComponent("o.db").path
        let made = try RunningProcess.run(URL(fileURLWithPath: "/usr/bin/sqlite3"), [db, "create table foo(x); pragma user_version=3"])
        #expect(made.status == 0, "\(made.stderr)")
        try #"{"type":"config","name":"x","base":"spring-press","pressed_scale":0.97}"#
            .write(to: dir.appendingPathComponent("x.json"), atomically: true, encoding: .utf8)
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        for args in [["ingest", log], ["report"], ["config", "add", "x.json"], ["replay", "--as", "spring-press"], ["configs"]] {
            let r = try Binary.run(args + ["--db", db], directory: dir)
            #expect(r.exited && r.status == 1, "\(args): \(r)")
            #expect(r.stderr.split(separator: "\n").count == 1, "\(args): \(r.stderr)")
            #expect(r.stderr.contains("another application") && r.stderr.contains("it was not modified"), "\(args): \(r.stderr)")
            #expect(r.stderr.utf8.count < 300, "\(args): \(r.stderr)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "\(args)")
            #expect(!FileManager.default.fileExists(atPath: db + "-wal"), "\(args)")
        }
    }

    /// A small ingested database in a new folder.
    static func database() throws -> (dir: URL, db: String) {
        let dir = try Binary.temporaryDirectory()
        let db = dir.appendingPathComponent("d.sqlite").path
        let r = try Binary.run(["ingest", try generatedLog(dir), "--db", db, "-q"])
        #expect(r.status == 0, "\(r.stderr)")
        return (dir, db)
    }

    static func fileType(_ path: String) -> mode_t {
        var st = stat()
        return lstat(path, &st) == 0 ? st.st_mode & S_IFMT : 0
    }

    /// `report --out /dev/full` turned /dev/full into a regular file. A character device is now
    /// written into as `>` would: /dev/full fails with ENOSPC (status 1, one line) and stays a
    /// device; /dev/null takes the output.
    /// The demo writes its log beside the database as `<stem>-log.ndjson`; a file already there
    /// (or a link by that name) is the user's: the demo refuses and leaves it as it was.
    @Test func theDemoNeverReplacesAFileWhereItsLogWouldGo() throws {
        let dir = try Binary.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let log = dir.appendingPathComponent("new-log.ndjson").path
        try "precious\n".write(toFile: log, atomically: true, encoding: .utf8)
        let db = dir.appendingPathComponent("new.sqlite").path
        let r = try Binary.run(["demo", "--db", db, "--sessions", "200", "--quiet"])
        #expect(r.status == 2 && r.stderr.contains("new-log.ndjson already exists"), "\(r.stderr)")
        #expect(try String(contentsOfFile: log, encoding: .utf8) == "precious\n")
        #expect(!FileManager.default.fileExists(atPath: db))
        let dangling = dir.appendingPathComponent("other-log.ndjson").path
        try FileManager.default.createSymbolicLink(atPath: dangling, withDestinationPath: dir.appendingPathComponent("elsewhere").path)
        let linked = try Binary.run(["demo", "--db", dir.appendingPathComponent("other.sqlite").path, "--sessions", "200", "--quiet"])
        #expect(linked.status == 2 && !FileManager.default.fileExists(atPath: dir.appendingPathComponent("elsewhere").path))
    }

    @Test func characterDevicesAreWrittenIntoNotReplaced() throws {
        guard Self.fileType("/dev/full") == S_IFCHR else { return }  // Not in this sandbox.
        let (dir, db) = try Self.database()
        defer { try? FileManager.default.removeItem(at: dir) }
        let full = try Binary.run(["report", "--db", db, "--out", "/dev/full"])
        #expect(full.exited && full.status == 1, "\(full)")
        #expect(full.stderr.split(separator: "\n").count == 1 && full.stderr.contains("cannot write --out /dev/full"), "\(full.stderr)")
        #expect(Self.fileType("/dev/full") == S_IFCHR)
        let null = try Binary.run(["report", "--db", db, "--out", "/dev/null"])
        #expect(null.status == 0, "\(null)")
        #expect(Self.fileType("/dev/null") == S_IFCHR)
        #expect(try FileManager.default.contentsOfDirectory(atPath: "/dev").allSatisfy { !$0.hasSuffix(".tmp") })
    }

    /// A FIFO gets the report through it (a reader on the other end reads every byte) and stays
    /// a FIFO.
    @Test func aNamedPipeIsWrittenInto() throws {
        let (dir, db) = try Self.database()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("pipe").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let received = Mutex<Data?>(nil)
        let reader = Thread {
            let h = FileHandle(forReadingAtPath: fifo)
            let data = h?.readDataToEndOfFile()
            received.withLock { $0 = data }
        }
        reader.start()
        let r = try Binary.run(["report", "--db", db, "--out", fifo, "--format", "csv"])
        #expect(r.status == 0, "\(r)")
        for _ in 0..<500 where received.withLock({ $0 == nil }) { usleep(10_000) }
        let expected = try Binary.run(["report", "--db", db, "--format", "csv"]).stdout
        #expect(received.withLock { $0.map { String(decoding: $0, as: UTF8.self) } } == expected)
        #expect(Self.fileType(fifo) == S_IFIFO)
    }

    /// A symbolic link is followed: the file it points at is replaced whole (atomically, as any
    /// regular file), the link stays a link; a dangling link's target is created. A folder is
    /// refused (status 2).
    @Test func symbolicLinksAreFollowed() throws {
        let (dir, db) = try Self.database()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fm = FileManager.default
        let expected = try Binary.run(["report", "--db", db, "--format", "csv"]).stdout
        let real = dir.appendingPathComponent("real.csv").path, link = dir.appendingPathComponent("link.csv").path
        try "old\n".write(toFile: real, atomically: true, encoding: .utf8)
        try fm.createSymbolicLink(atPath: link, withDestinationPath: "real.csv")
        #expect(try Binary.run(["report", "--db", db, "--format", "csv", "--out", link]).status == 0)
        #expect(Self.fileType(link) == S_IFLNK)
        #expect(try String(contentsOfFile: real, encoding: .utf8) == expected)
        let dangling = dir.appendingPathComponent("dangling.csv").path
        try fm.createSymbolicLink(atPath: dangling, withDestinationPath: "made.csv")
        #expect(try Binary.run(["report", "--db", db, "--format", "csv", "--out", dangling]).status == 0)
        #expect(Self.fileType(dangling) == S_IFLNK)
        #expect(try String(contentsOfFile: dir.appendingPathComponent("made.csv").path, encoding: .utf8) == expected)
        let folder = try Binary.run(["report", "--db", db, "--out", dir.path])
        #expect(folder.status == 2 && folder.stderr.contains("is a folder"), "\(folder)")
        #expect(try fm.contentsOfDirectory(atPath: dir.path).allSatisfy { !$0.hasSuffix(".tmp") })
    }

    /// `report` on a 0444 database created -wal and -shm beside it. Commands that only read now
    /// open such a file `immutable`: nothing appears beside it, for its owner and for another
    /// user (as root permissions do not bind, so the reader also runs as `nobody`, setpriv), with
    /// a file name that needs percent-encoding in a URI.
    @Test func readingAReadOnlyDatabaseCreatesNoFilesBesideIt() throws {
        let (dir, db0) = try Self.database()
        defer {
            try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.path)
            try? FileManager.default.removeItem(at: dir)
        }
        let fm = FileManager.default
        let db = dir.appendingPathComponent("r?o#%20.sqlite").path
        try fm.moveItem(atPath: db0, toPath: db)
        #expect(try fm.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("r?o") } == ["r?o#%20.sqlite"])
        var expected: String?
        try fm.setAttributes([.posixPermissions: 0o777], ofItemAtPath: dir.path)
        try fm.setAttributes([.posixPermissions: 0o444], ofItemAtPath: db)
        let asNobody = getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : []
        for prefix in [[], asNobody] {
            for args in [["report", "--format", "csv"], ["report", "sessions"], ["configs"], ["compare", "A", "B", "--unit", "session"]] {
                let full = prefix + [Binary.url.path] + args + ["--db", db]
                let r = try RunningProcess.run(URL(fileURLWithPath: full[0]), Array(full.dropFirst()), environment: ["NO_COLOR": "1"])
                #expect(r.exited && r.status == 0, "\(prefix) \(args): \(r)")
                if args == ["report", "--format", "csv"] {
                    #expect(r.stdout.contains("expand-delayed-click"))
                    if expected == nil { expected = r.stdout } else { #expect(r.stdout == expected) }
                }
                #expect(try fm.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("r?o") } == ["r?o#%20.sqlite"],
                        "\(prefix) \(args)")
            }
        }
    }
}
