// Rows written as they come, in every output format, in bounded memory: reports and replay hand
// each row over as it is produced and never collect them all. CSV, JSON, NDJSON and Markdown
// stream row by row. A terminal table needs its column widths before its first line, so it sizes
// them from the first `layoutRows` rows and then streams the rest with those widths: on a
// terminal a later, wider text is cut with "…"; elsewhere it is printed whole (and that row is
// wider than the others).
import Foundation

/// Where a command's output goes: standard output, or `--out FILE` — written to a temporary file
/// beside it and moved into place when complete, so a failed or interrupted command never leaves
/// half a file. Only a regular file (or none) is replaced so: a character device or a FIFO is
/// written into as the shell's `>` would (`/dev/null`, `/dev/stdout`, a named pipe), and a
/// directory, block device or socket is refused. A symbolic link is followed: the file it points
/// at is replaced (the link stays a link), or written into when it is a device or pipe
/// (docs/guarantees.md, "Devices and pipes as --out").
final class OutputSink {
    private let path: String?
    private var temporary: String?
    /// Where the temporary file is moved to: `path` with its symbolic links followed.
    private var destination: String?
    private var handle: FileHandle?
    private var pending: [UInt8] = []
    /// Pending bytes are written out beyond this.
    static let bufferSize = 1 << 16

    /// - Throws: `CLIError.usage` when `path` is the database `protecting` (or its -wal or -shm);
    ///   `CLIError.failure` when the file cannot be created.
    init(path: String?, protecting database: String? = nil) throws {
        guard let path, path != "-" else { self.path = nil; return }
        let target = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        if let database {
            let db = URL(fileURLWithPath: database).standardizedFileURL.resolvingSymlinksInPath().path
            if [db, db + "-wal", db + "-shm"].contains(target) {
                throw CLIError.usage("--out \(path) is the database itself; choose another file for the output")
            }
        }
        self.path = path
        var st = stat()
        if stat(path, &st) == 0 {
            switch st.st_mode & S_IFMT {
            case S_IFREG: break
            case S_IFCHR, S_IFIFO:
                // As `>` does: no temporary file, no rename; truncation means nothing to these.
                let fd = open(path, O_WRONLY | O_CLOEXEC)
                guard fd >= 0 else { throw CLIError.failure("cannot write --out \(path): \(String(cString: strerror(errno)))") }
                handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
                return
            case S_IFDIR: throw CLIError.usage("--out \(path) is a folder; give a file name")
            default: throw CLIError.usage("--out \(path) is neither a regular file, a character device nor a pipe; give a file name")
            }
        }
        let finalPath = Self.followingLinks(path)
        destination = finalPath
        let dir = (finalPath as NSString).deletingLastPathComponent
        let temp = (dir.isEmpty ? "." : dir) + "/.\((finalPath as NSString).lastPathComponent).\(getpid()).tmp"
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            throw CLIError.failure("cannot write --out \(path): \(String(cString: strerror(errno))) (does its folder exist and is it writable?)")
        }
        temporary = temp
        handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    deinit {
        if let temporary { try? handle?.close(); unlink(temporary) }
    }

    /// `path` with every symbolic link in its last component followed (a link to a link, a
    /// relative link read from the link's folder), so replacing the file keeps the link. A
    /// dangling link gives the path it points at, which is then created. Stops after 40 links
    /// (Linux's own limit, `ELOOP`).
    static func followingLinks(_ path: String) -> String {
        var current = path
        for _ in 0..<40 {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let n = readlink(current, &buffer, buffer.count - 1)
            guard n > 0 else { return current }
            let link = String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = link.hasPrefix("/") ? link
                : ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(link)
        }
        return current
    }

    /// Queues `text`, writing when enough is pending.
    /// - Throws: `StandardOutput.Closed` when standard output's reader has gone.
    func write(_ text: String) throws {
        pending.append(contentsOf: text.utf8)
        if pending.count >= Self.bufferSize { try flush() }
    }

    func flush() throws {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll(keepingCapacity: true) }
        if let handle {
            do { try handle.write(contentsOf: pending) } catch {
                throw CLIError.failure("cannot write --out \(path!): \(error.localizedDescription)")
            }
        } else {
            if let progress = Progress.active, isatty(STDOUT_FILENO) == 1 { progress.clear() }
            try StandardOutput.write(pending)
        }
    }

    /// Writes what is pending and, for `--out FILE`, moves the file into place.
    func finish() throws {
        try flush()
        guard let path else { return }
        guard let temporary, let destination else {
            // A device or pipe: written already.
            try handle?.close()
            handle = nil
            return
        }
        try? handle?.close()
        handle = nil
        guard rename(temporary, destination) == 0 else {
            throw CLIError.failure("cannot write --out \(path): \(String(cString: strerror(errno)))")
        }
        self.temporary = nil
    }
}

/// Writes rows in one output format as they come (see the top of this file).
///
///     let writer = try RowWriter(format: .csv, columns: columns, sink: OutputSink(path: nil))
///     for row in rows { try writer.add(row) }
///     try writer.finish()
final class RowWriter {
    /// Rows a terminal table is sized from, and that every format holds back before its first
    /// line (so a column that is empty in a short result can be left out).
    static let layoutRows = 1_000

    let format: OutputFormat
    private(set) var columns: [Column]
    let presentation: TablePresentation
    let options: TableOptions
    let sink: OutputSink
    /// Columns left out of every format when they are empty (null) in every row of a result
    /// that ends within `layoutRows` rows.
    let dropsWhenEmpty: Set<String>
    /// Whether the columns' styles are told from their names and first values
    /// (`ColumnStyle.named`), for reports whose SQL says nothing of them.
    let infersStyles: Bool
    /// Whether a table with no rows prints its header.
    let headerWhenEmpty: Bool

    private var held: [[Cell]] = []
    private var started = false
    private var kept: [Int] = []
    /// The columns kept, as a table for `Render.jsonObject`.
    private var keptTable = ResultTable(columns: [])
    private var table: TerminalTable?
    private var toCells: (([Cell]) -> [ShownCell])?
    private(set) var count = 0

    init(format: OutputFormat, columns: [Column], presentation: TablePresentation = TablePresentation(),
         options: TableOptions = TableOptions(), sink: OutputSink, dropsWhenEmpty: Set<String> = [],
         infersStyles: Bool = false, headerWhenEmpty: Bool = true) {
        self.format = format
        self.columns = columns
        self.presentation = presentation
        self.options = options
        self.sink = sink
        self.dropsWhenEmpty = dropsWhenEmpty
        self.infersStyles = infersStyles
        self.headerWhenEmpty = headerWhenEmpty
    }

    func add(_ row: [Cell]) throws {
        count += 1
        if started { return try write(row) }
        held.append(row)
        if held.count >= Self.layoutRows { try start(complete: false) }
    }

    func finish() throws {
        if !started { try start(complete: true) }
        switch format {
        case .json: try sink.write(count == 0 ? "[]\n" : "\n]\n")
        case .table:
            if count == 0, let empty = presentation.empty {
                try sink.write(empty + "\n")
            } else if let table, count > 0 || headerWhenEmpty {
                try sink.write(table.footer())
            }
        default: break
        }
        try sink.finish()
    }

    /// Fixes the columns and the layout from the rows held, writes the head and those rows.
    private func start(complete: Bool) throws {
        started = true
        kept = columns.indices.filter { i in
            !(complete && dropsWhenEmpty.contains(columns[i].name) && held.allSatisfy { $0[i] == .null })
        }
        if infersStyles {
            for i in columns.indices {
                columns[i].style = .named(columns[i].name, sample: held.lazy.map { $0[i] }.first { $0 != .null })
            }
        }
        let shownColumns = kept.map { columns[$0] }
        keptTable = ResultTable(columns: shownColumns)
        switch format {
        case .csv: try sink.write(Render.csv(ResultTable(columns: shownColumns)))
        case .markdown: try sink.write(Render.markdown(ResultTable(columns: shownColumns)))
        case .table:
            let (shown, cells) = TerminalTable.shownColumns(shownColumns)
            toCells = cells
            let layout = try TerminalTable(columns: shown, rows: held.map { cells(pick($0)) },
                                           presentation: presentation, options: options)
            table = layout
            if count > 0 || (headerWhenEmpty && presentation.empty == nil) { try sink.write(layout.headerLines()) }
        case .json, .ndjson: break
        }
        let rows = held
        held = []
        var n = 0
        for row in rows { n += 1; try write(row, index: n) }
    }

    private func pick(_ row: [Cell]) -> [Cell] { kept.count == row.count ? row : kept.map { row[$0] } }

    private func write(_ row: [Cell], index: Int? = nil) throws {
        let row = pick(row)
        let n = index ?? count
        switch format {
        case .csv: try sink.write(row.map { Render.csvField(Render.raw($0)) }.joined(separator: ",") + "\n")
        case .ndjson: try sink.write(Render.jsonObject(keptTable, row) + "\n")
        case .json: try sink.write((n == 1 ? "[\n  " : ",\n  ") + Render.jsonObject(keptTable, row))
        case .markdown: try sink.write(Render.markdownRow(row, keptTable.columns.map(\.style)))
        case .table: try sink.write(table!.rowLine(toCells!(row)))
        }
    }
}
