// Device recordings (getevent, evemu, evtest, libinput record) as a `RecordSource`, so `pressdb
// ingest` stores their contacts like any touch log; and the routing of NDJSON layout records to them.
import PressCore
#if canImport(Glibc)
import Glibc
#endif

/// A device recording read as a `RecordSource`: each line goes through a `DeviceLogReader`
/// (a libinput recording through a `LibinputRecordReader`, streaming), whose records and rejects
/// come out in input order.
///
///     let input = try ByteInput(path: "tap.getevent-lt.txt")
///     var source = try DeviceLogSource(input, format: .getevent, options: options, file: input.name)
///     try ingester.ingest(&source, input: input)
///
/// - Session ids: the reader names contact n `<hash>-c<n>` (`DeviceLogReader.sessionID`), with
///   `<hash>` the FNV-1a 64 of the *whole* input, so it must be known before the first record.
///   For a regular file (`file`), a first streaming pass over it computes the hash (1 MiB at a
///   time, constant memory), and `input` is then read as usual; at the end the source checks
///   that `input`'s own hash of what it read is the same (else the file changed in between:
///   `InputError`). Otherwise (standard input, a pipe, `file` nil) the rest of `input` is read
///   into memory first: recordings are small (the shared ones are 0.4–36 KB).
/// - Open contacts: a contact still down at the end of input yields its records and no `ended`
///   one, so session assembly sees no terminal sample and the ingest keeps it pending, as it does
///   any open session. Nothing else is emitted for it.
/// - `lastRaw` is the line the last item came from (a record's line is its `SYN_REPORT`).
public struct DeviceLogSource: RecordSource {
    public let format: DeviceLogFormat
    /// 16 hex digits: the FNV-1a 64 of the whole input, the prefix of every session id.
    public let contentHash: String
    /// Where lines are read from: `input` itself, or an in-memory copy of it.
    private let lines: ByteInput
    /// The caller's input when a first pass hashed the file, to check it read the same bytes.
    private let checkedInput: ByteInput?
    private var reader: DeviceLogReader
    /// libinput: the YAML reader, pulling lines from `lines` itself.
    private var yaml: LibinputRecordReader?
    /// Items read and not yet returned, each with the raw text of its line.
    private var queue: [(item: RecordItem, raw: String)] = []
    /// The reader's `finish()` was called (an evtest line it held is returned then).
    private var readerFinished = false
    private var queueIndex = 0
    private var lastLine = ""
    private var ended = false

    /// Reads `input`, a recording whose content hash is already known.
    public init(_ input: ByteInput, format: DeviceLogFormat, contentHash: String,
                options: DeviceLogOptions = DeviceLogOptions()) {
        self.format = format
        self.contentHash = contentHash
        lines = input
        checkedInput = nil
        reader = DeviceLogReader(format: format, file: input.name, contentHash: contentHash, options: options)
        if format == .libinput { yaml = LibinputRecordReader(lines, contentHash: contentHash, options: options) }
    }

    /// Reads `input`, computing the content hash first: by a streaming pass over `file` when it
    /// names a regular file (the one `input` reads, not consumed yet), else by reading the rest of
    /// `input` into memory.
    /// - Throws: `InputError` when the file or `input` cannot be read.
    public init(_ input: ByteInput, format: DeviceLogFormat, options: DeviceLogOptions = DeviceLogOptions(),
                file: String? = nil) throws {
        self.format = format
        if let file, let hash = try Self.contentHash(ofRegularFile: file) {
            contentHash = hash
            lines = input
            checkedInput = input
        } else {
            let bytes = try input.readRemaining()
            contentHash = DeviceLogReader.contentHash(of: bytes)
            lines = ByteInput(bytes: bytes, name: input.name)
            checkedInput = nil
        }
        reader = DeviceLogReader(format: format, file: input.name, contentHash: contentHash, options: options)
        if format == .libinput { yaml = LibinputRecordReader(lines, contentHash: contentHash, options: options) }
    }

    public mutating func next() throws -> RecordItem? {
        if yaml != nil {
            while let item = try yaml!.next() {
                lastLine = yaml!.lastRaw
                switch item {
                case .record(let r): return .touch(r)
                case .reject(let r): return .reject(r)
                case .warning(let w): noteWarning(w)
                }
            }
            try finishInput()
            return nil
        }
        while true {
            if queueIndex < queue.count {
                queueIndex += 1
                lastLine = queue[queueIndex - 1].raw
                return queue[queueIndex - 1].item
            }
            queue.removeAll(keepingCapacity: true)
            queueIndex = 0
            guard let line = try lines.nextLine() else {
                if !readerFinished {
                    readerFinished = true
                    enqueue(reader.finish())
                    continue
                }
                try finishInput()
                return nil
            }
            if line.isEmpty, let long = lines.takeLongLine() {
                queue.append((.reject(long.reject), rawText(long.raw)))
                continue
            }
            enqueue(reader.read(line: String(decoding: line, as: UTF8.self)))
        }
    }

    public var lastRaw: String { lastLine }

    /// Queues what the reader returned, each item with its line's raw text; notes warnings.
    private mutating func enqueue(_ items: [DeviceLogItem]) {
        for (item, raw) in zip(items, reader.itemRaws) {
            switch item {
            case .record(let r): queue.append((.touch(r), raw))
            case .reject(let r): queue.append((.reject(r), raw))
            case .warning(let w): noteWarning(w)
            }
        }
    }

    /// The first `warningsKept` warnings (lines read in spite of a flaw), in input order.
    public private(set) var warnings: [DeviceLogWarning] = []
    /// How many warnings there were in all (more than `warnings` holds when over `warningsKept`).
    public private(set) var warningCount = 0
    /// The most warnings kept in `warnings`.
    public static let warningsKept = 100

    private mutating func noteWarning(_ w: DeviceLogWarning) {
        warningCount += 1
        if warnings.count < Self.warningsKept { warnings.append(w) }
    }

    /// The contacts still down so far (at the end: the sessions the ingest keeps pending).
    public var openContacts: [DeviceLogOpenContact] { yaml?.openContacts ?? reader.openContacts }

    /// Events after the last `SYN_REPORT` (a frame cut off at the end of input), in no record.
    public var uncommittedEvents: Int { yaml?.uncommittedEvents ?? reader.uncommittedEvents }

    private mutating func finishInput() throws {
        guard !ended else { return }
        ended = true
        if let checkedInput, checkedInput.contentHash != contentHash {
            throw InputError("\(checkedInput.name): the file changed while it was being read "
                + "(its content hash differs between the two passes); ingest it again")
        }
    }

    /// FNV-1a 64 (as 16 hex digits) of the file at `path`, read 1 MiB at a time; nil when `path`
    /// is not a regular file (a pipe or terminal cannot be read twice).
    /// - Throws: `InputError` naming the file and the system's reason.
    public static func contentHash(ofRegularFile path: String) throws -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError("\(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = ByteInput.chunkSize
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        defer { buffer.deallocate() }
        var hash = FNV1a64()
        while true {
            let n = read(fd, buffer, size)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError("\(path): \(String(cString: strerror(errno)))")
            }
            if n == 0 { break }
            hash.update(UnsafeBufferPointer(start: buffer, count: n))
        }
        return hash.hex
    }
}

/// Passes a source's items through unchanged and keeps the layout `{"type":"control",…}`
/// records among them, in order, so they can be applied to device recordings read afterwards.
public struct ControlRecordCollector<Base: RecordSource>: RecordSource {
    public var base: Base
    /// The control records seen so far, in input order (later ones lie on top).
    public private(set) var controls: [LayoutControl] = []

    public init(_ base: Base) { self.base = base }

    public mutating func next() throws -> RecordItem? {
        let item = try base.next()
        if case .control(let c)? = item { controls.append(c) }
        return item
    }

    public var lastRaw: String { base.lastRaw }
}

extension ControlRecordCollector: ChunkedRecordSource where Base: ChunkedRecordSource {
    public mutating func read(into chunk: inout RecordChunk, limit: Int, yieldingBeforeWait: Bool) throws -> ChunkRead {
        let before = chunk.others.count
        defer {
            for item in chunk.others[before...] { if case .control(let c) = item { controls.append(c) } }
        }
        return try base.read(into: &chunk, limit: limit, yieldingBeforeWait: yieldingBeforeWait)
    }
}
