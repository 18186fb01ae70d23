// The reader interface every log format implements: a streaming source of records and rejects
// over an input read in large chunks. Add a format by writing a `RecordSource` and a case of
// `InputFormat`.
import PressCore
#if canImport(Glibc)
import Glibc
#endif

/// A `{"type":"config", ...}` record, kept as the JSON text read (the configuration loader
/// interprets it).
public struct ConfigRecordText: Hashable, Sendable {
    public var name: String
    public var json: String
    public var source: SourceLocation
    public init(name: String, json: String, source: SourceLocation) {
        self.name = name; self.json = json; self.source = source
    }
}

/// What a record source yields, one line (or CSV row) at a time.
public enum RecordItem: Hashable, Sendable {
    case touch(TouchRecord)
    case config(ConfigRecordText)
    /// A layout `{"type":"control",…}` record (NDJSON). It stores nothing: `pressdb ingest`
    /// routes it to the layout that device recordings read later in the same run are hit-tested
    /// against (docs/device-recordings.md, "Layouts").
    case control(LayoutControl)
    case reject(Reject)
}

/// A streaming source of records and rejects: NDJSON, CSV, and the formats other parsers add.
/// Sources hold only the current chunk of input, so memory stays flat however long it is.
public protocol RecordSource {
    /// The next record or reject, or nil at the end of the input.
    /// - Throws: `InputError` when the input cannot be read (an I/O error, not bad content).
    mutating func next() throws -> RecordItem?
    /// The raw text of the line (or CSV row) that produced the item last returned, for a reject
    /// found later (e.g. by session assembly). Empty before the first item.
    var lastRaw: String { get }
}

/// The input cannot be read (missing file, I/O error) or its format cannot be told.
public struct InputError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

// MARK: - Input bytes

/// An input file or stream read in large chunks, split into lines without copying. Hashes every
/// byte (FNV-1a 64) and counts bytes and lines as it goes.
///
/// One thread at a time reads an input, and no method of it calls back into another, so its
/// stored properties are marked `@exclusivity(unchecked)`: the run-time check of every access to
/// a class's property (`swift_beginAccess`), five accesses a line, was a large share of the
/// readers' work.
public final class ByteInput {
    /// The name used in messages and the `sources` table: the path, or `-` for standard input;
    /// with `framesOrigins`, the current line's origin name.
    public var name: String { originName ?? inputName }
    /// The name the input was opened with.
    public let inputName: String
    /// Lines carry their origin: each line is `NAME:LINE<TAB>record`, where NAME names the file
    /// the record came from (any text without a tab) and LINE its 1-based line there. `nextLine`
    /// returns the record, and `name` and `lineNumber` are the origin's, so every message names
    /// the record's own file and line. For a stream re-assembled from many files (the Spark
    /// job's partitions, `pressdb replay --input - --origins`). Set before the first read.
    @exclusivity(unchecked) public var framesOrigins = false
    /// The current line's origin name (`framesOrigins`), and its bytes, to reuse the `String`.
    @exclusivity(unchecked) private var originName: String?
    @exclusivity(unchecked) private var originBytes: [UInt8] = []
    private let fd: Int32
    private let ownsFD: Bool
    @exclusivity(unchecked) private var buffer: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private var start = 0
    @exclusivity(unchecked) private var end = 0
    @exclusivity(unchecked) private var atEOF = false
    /// Where the first byte of 0x80 or more at or after the bytes last scanned is in `buffer`,
    /// else `end`: every byte before it, back to the last one scanned, is ASCII. The bytes are
    /// scanned as they are read (`fill`), a block at a time, so a line before it is known to be
    /// ASCII without reading it again (`isASCII(line:)`). Below a line's start (that byte consumed,
    /// or moved out of the buffer: negative), the rest is scanned again from that line on.
    @exclusivity(unchecked) private var asciiEnd = 0
    /// FNV-1a 64 over every byte read so far.
    @exclusivity(unchecked) private var hash = FNV1a64()
    @exclusivity(unchecked) public private(set) var bytesRead = 0
    /// The 1-based number of the last line returned by `nextLine()`.
    @exclusivity(unchecked) public private(set) var lineNumber = 0

    /// Bytes read per `read(2)` call: 1 MiB (large enough that system calls do not matter).
    public static let chunkSize = 1 << 20

    /// The longest line held by default: 16 MiB, far beyond any record (a touch line is about
    /// 100 bytes), small enough that a file without line ends cannot exhaust memory.
    public static let defaultMaxLineBytes = 16 << 20
    /// A longer line is not held: `nextLine` reads past it (at most about twice this many bytes
    /// are buffered) and returns it as an empty line, and `takeLongLine()` gives its reject.
    /// Set before the first read (`--max-line-bytes`).
    @exclusivity(unchecked) public var maxLineBytes = ByteInput.defaultMaxLineBytes
    /// How much of a long line is kept for its reject's raw text.
    static let longLinePrefixBytes = 200
    /// The line read past last (its number and first bytes), until `takeLongLine()` takes it.
    @exclusivity(unchecked) private var longLine: (name: String, line: Int, prefix: [UInt8])?
    /// True while a long line's bytes are being read past (kept across a `stoppedBeforeWaiting`).
    @exclusivity(unchecked) private var skippingLongLine = false
    /// Lines end at a lone CR too (old Mac files): set when line 1, or a line cut by the end
    /// of the buffer, holds a CR not followed by LF. LF and CR LF still end lines.
    @exclusivity(unchecked) private var crLineEnds = false

    /// True after `nextLine(yieldingBeforeWait: true)` returned nil because the next read would
    /// wait for data (the input is a pipe, terminal or socket with nothing to read yet:
    /// `poll(2)` says so; a regular file never waits), not because the input ended. What was
    /// read so far can then be handed on instead of held while the writer stalls (ingest's
    /// reader thread passes its partial chunk); the next call waits.
    @exclusivity(unchecked) public private(set) var stoppedBeforeWaiting = false

    /// Opens `path` for reading.
    /// - Throws: `InputError` naming the file and the system's reason.
    public init(path: String) throws {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw InputError("\(path): \(String(cString: strerror(errno)))") }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw InputError("\(path): is a directory")
        }
        self.fd = fd
        ownsFD = true
        inputName = path
        capacity = ByteInput.chunkSize
        buffer = .allocate(capacity: capacity)
    }

    /// Reads an already open descriptor (standard input is `init(fileDescriptor: 0, name: "-")`);
    /// it is not closed.
    public init(fileDescriptor: Int32, name: String) {
        fd = fileDescriptor
        ownsFD = false
        inputName = name
        capacity = ByteInput.chunkSize
        buffer = .allocate(capacity: capacity)
    }

    /// In-memory input (tests, small documents).
    public init(bytes: [UInt8], name: String) {
        fd = -1
        ownsFD = false
        inputName = name
        capacity = max(bytes.count, 1)
        buffer = .allocate(capacity: capacity)
        bytes.withUnsafeBufferPointer { b in
            if let base = b.baseAddress { buffer.update(from: base, count: b.count) }
        }
        end = bytes.count
        asciiEnd = Self.firstNonASCII(buffer, from: 0, to: end)
        bytes.withUnsafeBufferPointer { hashBytes($0) }
        bytesRead = bytes.count
        atEOF = true
    }

    private func hashBytes(_ b: UnsafeBufferPointer<UInt8>) { hash.update(b) }

    /// The FNV-1a 64 hash of every byte read so far, as 16 lowercase hex digits (equal to
    /// `FNV1a64.hex` of the same bytes).
    public var contentHash: String { hash.hex }

    public convenience init(text: String, name: String) { self.init(bytes: Array(text.utf8), name: name) }

    deinit {
        buffer.deallocate()
        if ownsFD { close(fd) }
    }

    /// Reads more bytes after `end`, moving the unread window to the front and growing the
    /// buffer when it is full. False at end of input.
    private func fill(yieldingBeforeWait: Bool = false) throws -> Bool {
        if atEOF { return false }
        if yieldingBeforeWait, !stoppedBeforeWaiting, fd >= 0 {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&ready, 1, 0) == 0 { stoppedBeforeWaiting = true; return false }
        }
        stoppedBeforeWaiting = false
        if start > 0 {
            if end > start { buffer.update(from: buffer + start, count: end - start) }
            end -= start
            asciiEnd -= start
            start = 0
        }
        if end == capacity {
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity * 2)
            bigger.update(from: buffer, count: end)
            buffer.deallocate()
            buffer = bigger
            capacity *= 2
        }
        while true {
            let n = read(fd, buffer + end, capacity - end)
            if n < 0 {
                if errno == EINTR { continue }
                throw InputError("\(name): \(String(cString: strerror(errno)))")
            }
            if n == 0 { atEOF = true; return false }
            hashBytes(UnsafeBufferPointer(start: buffer + end, count: n))
            if asciiEnd == end { asciiEnd = Self.firstNonASCII(buffer, from: end, to: end + n) }
            end += n
            bytesRead += n
            return true
        }
    }

    /// The next line without its `\n` (or `\r\n`, or a lone `\r` in a file that ends its lines
    /// so), valid until the next call; nil at the end. A last line without a newline is
    /// returned too; a line longer than `maxLineBytes` as an empty one (`takeLongLine()`).
    public func nextLine() throws -> UnsafeBufferPointer<UInt8>? { try nextLine(yieldingBeforeWait: false) }

    /// `nextLine()`; with `yieldingBeforeWait`, nil also when the line is not all read and
    /// reading more would wait for data (then `stoppedBeforeWaiting` is true, nothing is
    /// consumed, and the next call waits for the data).
    public func nextLine(yieldingBeforeWait: Bool) throws -> UnsafeBufferPointer<UInt8>? {
        if crLineEnds { return try nextLineEndingAtCR(yieldingBeforeWait: yieldingBeforeWait) }
        var scanFrom = start
        while true {
            if let nl = memchr(buffer + scanFrom, 0x0A, end - scanFrom) {
                let p = nl.assumingMemoryBound(to: UInt8.self)
                var lineEnd = p - buffer
                let lineStart = start
                start = lineEnd + 1
                if lineEnd > lineStart, buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                lineNumber += 1
                if lineEnd - lineStart > maxLineBytes { return try longLineFound(lineStart) }
                // Past line 1 and without origins the line is as found (no call).
                if lineNumber == 1 || framesOrigins {
                    // CR line ends only when this LF ends what was read (a CR-only file with a final
                    // LF); a CR inside the first line of a file of LF lines is the line's own byte.
                    if lineNumber == 1, !framesOrigins, memchr(buffer + lineStart, 0x0D, lineEnd - lineStart) != nil,
                       onlyBlanksFollow(start) {
                        return try restartAtCR(lineStart, yieldingBeforeWait: yieldingBeforeWait)
                    }
                    return try withoutByteOrderMark(lineStart, lineEnd)
                }
                return UnsafeBufferPointer(start: buffer + lineStart, count: lineEnd - lineStart)
            }
            // The end of the buffer cut a line: a lone CR in it (not the last byte, which a LF
            // may follow) means CR line ends, but only while no LF has ended a line.
            let cutFrom = max(start, scanFrom - 1)
            if lineNumber == 0, !framesOrigins, !skippingLongLine, end - cutFrom > 1,
               memchr(buffer + cutFrom, 0x0D, end - cutFrom - 1) != nil {
                return try restartAtCR(start, yieldingBeforeWait: yieldingBeforeWait)
            }
            if skippingLongLine || end - start > maxLineBytes { return try readPastLongLine(yieldingBeforeWait: yieldingBeforeWait) }
            let scanned = end - start
            if try !fill(yieldingBeforeWait: yieldingBeforeWait) {
                if stoppedBeforeWaiting { return nil }
                guard end > start else { return nil }
                var lineEnd = end
                let lineStart = start
                start = end
                if buffer[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                lineNumber += 1
                return try withoutByteOrderMark(lineStart, lineEnd)
            }
            scanFrom = start + scanned
        }
    }

    /// Whether nothing but blanks and line ends follows `from` in what has been read: the LF
    /// that ended the first line ended the input read so far (nothing more is read, so a pipe
    /// does not hold back the first line).
    @inline(never)
    private func onlyBlanksFollow(_ from: Int) -> Bool {
        for k in from..<end where buffer[k] != 0x20 && buffer[k] != 0x09 && buffer[k] != 0x0A && buffer[k] != 0x0D {
            return false
        }
        return true
    }

    /// Switches to CR line ends and reads again from `lineStart` (the current line's start,
    /// before it was counted).
    @inline(never)
    private func restartAtCR(_ lineStart: Int, yieldingBeforeWait: Bool) throws -> UnsafeBufferPointer<UInt8>? {
        if start != lineStart { lineNumber -= 1 }
        start = lineStart
        crLineEnds = true
        return try nextLineEndingAtCR(yieldingBeforeWait: yieldingBeforeWait)
    }

    /// The first CR or LF in `buffer[from..<to]`, else `to`.
    private func firstLineEnd(from: Int, to: Int) -> Int {
        let cr = WordScan.lanes(0x0D), lf = WordScan.lanes(0x0A)
        var j = from
        while j + 8 <= to {
            let w = WordScan.load(buffer + j)
            let hits = WordScan.zeroBytes(w ^ cr) | WordScan.zeroBytes(w ^ lf)
            if hits != 0 { return j + hits.trailingZeroBitCount >> 3 }
            j += 8
        }
        while j < to, buffer[j] != 0x0D, buffer[j] != 0x0A { j += 1 }
        return j
    }

    /// `nextLine` where a lone CR ends a line too (LF and CR LF still do).
    @inline(never)
    private func nextLineEndingAtCR(yieldingBeforeWait: Bool) throws -> UnsafeBufferPointer<UInt8>? {
        var scanFrom = start
        while true {
            if !skippingLongLine {
                let k = firstLineEnd(from: scanFrom, to: end)
                // A CR last in the buffer may be the first half of CR LF: read on first.
                if k < end, buffer[k] == 0x0A || k + 1 < end || atEOF {
                    let lineStart = start
                    start = k + 1
                    if buffer[k] == 0x0D, start < end, buffer[start] == 0x0A { start += 1 }
                    lineNumber += 1
                    if k - lineStart > maxLineBytes { return try longLineFound(lineStart) }
                    return try withoutByteOrderMark(lineStart, k)
                }
                scanFrom = k
            }
            if skippingLongLine || end - start > maxLineBytes { return try readPastLongLine(yieldingBeforeWait: yieldingBeforeWait) }
            let scanned = scanFrom - start
            if try !fill(yieldingBeforeWait: yieldingBeforeWait) {
                if stoppedBeforeWaiting { return nil }
                guard end > start else { return nil }
                scanFrom = start + scanned
                if scanFrom < end { continue }   // the CR last: a line end after all
                let lineStart = start
                start = end
                lineNumber += 1
                return try withoutByteOrderMark(lineStart, end)
            }
            scanFrom = start + scanned
        }
    }

    /// Reads past a line longer than `maxLineBytes` (`[start, end)` holds its first bytes and no
    /// line end), holding at most the buffer it has; returns it as an empty line and keeps its
    /// number and first bytes for `takeLongLine()`.
    @inline(never)
    private func readPastLongLine(yieldingBeforeWait: Bool) throws -> UnsafeBufferPointer<UInt8>? {
        if !skippingLongLine {
            skippingLongLine = true
            let keep = min(end - start, Self.longLinePrefixBytes)
            if framesOrigins { start = try readOrigin(start, end) } else { lineNumber += 1 }
            longLine = (name, lineNumber, Array(UnsafeBufferPointer(start: buffer + start, count: min(keep, end - start))))
            end = start
            asciiEnd = end
        }
        var readPast = false
        while true {
            let k = crLineEnds ? firstLineEnd(from: start, to: end) : WordScan.first(0x0A, in: buffer, from: start, to: end)
            if k < end, buffer[k] == 0x0A || k + 1 < end || atEOF {
                start = k + 1
                if buffer[k] == 0x0D, start < end, buffer[start] == 0x0A { start += 1 }
                skippingLongLine = false
                return UnsafeBufferPointer(start: buffer + start, count: 0)
            }
            // Nothing of the line is kept but a CR last (the first half of CR LF, perhaps).
            if k < end { buffer[start] = 0x0D; end = start + 1 } else { end = start }
            asciiEnd = end
            // A line without end (/dev/zero) must not hold the caller for ever: with
            // `yieldingBeforeWait`, return after each read as if the next would wait, so ingest's
            // loop still gets its batch boundaries (commits on time, Ctrl-C); the next call goes on.
            if yieldingBeforeWait, readPast {
                stoppedBeforeWaiting = true
                return nil
            }
            readPast = true
            if try !fill(yieldingBeforeWait: yieldingBeforeWait) {
                if stoppedBeforeWaiting { return nil }
                skippingLongLine = false
                start = end
                return UnsafeBufferPointer(start: buffer + start, count: 0)
            }
        }
    }

    /// A line longer than `maxLineBytes` found whole (it starts at `lineStart` and was counted):
    /// kept for `takeLongLine()` as `readPastLongLine` keeps one, and returned empty.
    @inline(never)
    private func longLineFound(_ lineStart: Int) throws -> UnsafeBufferPointer<UInt8> {
        var from = lineStart
        if framesOrigins { from = try readOrigin(lineStart, start) }
        longLine = (name, lineNumber, Array(UnsafeBufferPointer(start: buffer + from, count: min(Self.longLinePrefixBytes, start - from))))
        return UnsafeBufferPointer(start: buffer + start, count: 0)
    }

    /// The reject of the line `nextLine` returned last when it was longer than `maxLineBytes`
    /// (it was returned empty), with the line's first bytes; nil for any other line. Readers
    /// ask it of an empty line only, so their plain lines pay nothing.
    public func takeLongLine() -> (reject: Reject, raw: [UInt8])? {
        guard let long = longLine, long.line == lineNumber, long.name == name else { return nil }
        longLine = nil
        let reason = "line longer than \(Self.byteCount(maxLineBytes)) (--max-line-bytes): "
            + "read past, not stored; if it is one record, raise --max-line-bytes"
        return (Reject(source: SourceLocation(file: long.name, line: long.line), reason: reason, raw: rawText(long.prefix)),
                long.prefix)
    }

    /// `n` bytes as people say it: "16 MiB", "64 KiB", or "1,000 bytes".
    static func byteCount(_ n: Int) -> String {
        if n >= 1 << 20, n % (1 << 20) == 0 { return "\(n >> 20) MiB" }
        if n >= 1 << 10, n % (1 << 10) == 0 { return "\(n >> 10) KiB" }
        return "\(n) byte\(n == 1 ? "" : "s")"
    }

    /// Whether every byte of `line` is below 0x80 (`firstNonASCII` finds none), for a line
    /// `nextLine` returned last (and the buffer has not been filled since): mostly one
    /// comparison, the bytes having been scanned when they were read (`asciiEnd`). The CSV and
    /// NDJSON readers' plain lines ask it instead of checking each line's bytes again.
    @inline(__always)
    func isASCII(line: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let p = line.baseAddress else { return true }
        let from = UnsafeMutablePointer(mutating: p) - buffer, to = from + line.count
        if to <= asciiEnd { return true }
        return isASCII(from: from, to: to)
    }

    /// `isASCII(line:)` past `asciiEnd`: a line that holds that byte is not ASCII; for a line
    /// after it, the rest of the buffer is scanned again from the line's start.
    @inline(never)
    private func isASCII(from: Int, to: Int) -> Bool {
        if from > asciiEnd { asciiEnd = Self.firstNonASCII(buffer, from: from, to: end) }
        return to <= asciiEnd
    }

    /// The index of the first byte of 0x80 or more in `p[from..<to]`, else `to`: 32 bytes (four
    /// words, or-ed) a step, then a word, then a byte.
    static func firstNonASCII(_ p: UnsafePointer<UInt8>, from: Int, to: Int) -> Int {
        let high: UInt64 = 0x8080_8080_8080_8080
        var k = from
        while k + 32 <= to {
            let w = WordScan.load(p + k) | WordScan.load(p + k + 8) | WordScan.load(p + k + 16) | WordScan.load(p + k + 24)
            if w & high != 0 { break }
            k += 32
        }
        while k + 8 <= to {
            let w = WordScan.load(p + k) & high
            if w != 0 { return k + w.trailingZeroBitCount >> 3 }
            k += 8
        }
        while k < to, p[k] < 0x80 { k += 1 }
        return k
    }

    /// The bytes [from, to) of the buffer as the current line (after its origin, with
    /// `framesOrigins`); on line 1, without a leading UTF-8 byte-order mark (EF BB BF), which
    /// some editors write at the start of a file.
    private func withoutByteOrderMark(_ from: Int, _ to: Int) throws -> UnsafeBufferPointer<UInt8> {
        var from = from
        if framesOrigins { from = try readOrigin(from, to) }
        if lineNumber == 1, to - from >= 3, buffer[from] == 0xEF, buffer[from + 1] == 0xBB, buffer[from + 2] == 0xBF {
            from += 3
        }
        return UnsafeBufferPointer(start: buffer + from, count: to - from)
    }


    /// Reads the `NAME:LINE<TAB>` origin at the start of the line [from, to), sets `originName`
    /// and `lineNumber`, and returns where the record starts.
    /// - Throws: `InputError` for a line without an origin.
    private func readOrigin(_ from: Int, _ to: Int) throws -> Int {
        guard let tab = memchr(buffer + from, 0x09, to - from) else { throw unframed(from, to) }
        let tabAt = tab.assumingMemoryBound(to: UInt8.self) - buffer
        var colon = tabAt - 1
        var line = 0, scale = 1
        while colon > from, buffer[colon] >= 0x30, buffer[colon] <= 0x39, scale < 1_000_000_000_000 {
            line += Int(buffer[colon] - 0x30) * scale
            scale *= 10
            colon -= 1
        }
        guard colon >= from, buffer[colon] == 0x3A, colon < tabAt - 1 else { throw unframed(from, to) }
        let nameBytes = UnsafeBufferPointer(start: buffer + from, count: colon - from)
        if originName == nil || !nameBytes.elementsEqual(originBytes) {
            originBytes = Array(nameBytes)
            originName = String(decoding: nameBytes, as: UTF8.self)
        }
        lineNumber = line
        return tabAt + 1
    }

    private func unframed(_ from: Int, _ to: Int) -> InputError {
        let text = String(decoding: UnsafeBufferPointer(start: buffer + from, count: min(to - from, 40)), as: UTF8.self)
        return InputError("\(inputName): a line does not start with its origin NAME:LINE and a tab "
            + "(--origins): \(JSONText.string(text))")
    }

    /// The first byte that is not blank (space, tab, CR, LF, or a UTF-8 byte-order mark), without
    /// consuming anything; nil for an empty input. Used to detect the format.
    public func peekFirstNonBlankByte() throws -> UInt8? {
        while end - start < 3, try fill() {}
        var k = start
        if end - start >= 3, buffer[start] == 0xEF, buffer[start + 1] == 0xBB, buffer[start + 2] == 0xBF { k += 3 }
        while true {
            while k < end {
                let b = buffer[k]
                if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D { k += 1; continue }
                return b
            }
            let offset = k - start
            guard try fill() else { return nil }
            k = start + offset
        }
    }

    /// The first `limit` bytes (fewer at the end of input), without consuming them. With
    /// `wholeLines`, a line cut at `limit` is left out. Used to detect device recordings.
    public func peekPrefix(limit: Int, wholeLines: Bool = false) throws -> [UInt8] {
        while end - start < limit, try fill() {}
        let n = min(end - start, limit)
        var prefix = Array(UnsafeBufferPointer(start: buffer + start, count: n))
        if wholeLines, end - start > limit || !atEOF, let lastNewline = prefix.lastIndex(of: 0x0A) {
            prefix.removeSubrange((lastNewline + 1)...)
        }
        return prefix
    }

    /// Every byte not consumed yet, to the end of input; consumes them. For an input that must
    /// be read whole before it can be parsed (a device recording on standard input, whose
    /// session ids need the content hash first). `contentHash` and `bytesRead` then cover the
    /// whole input.
    public func readRemaining() throws -> [UInt8] {
        while try fill() {}
        let rest = Array(UnsafeBufferPointer(start: buffer + start, count: end - start))
        start = end
        return rest
    }
}

// MARK: - Formats

/// The input formats `pressdb ingest` reads: touch logs (NDJSON, CSV) and device recordings
/// (getevent, evemu, evtest, libinput record; docs/device-recordings.md).
public enum InputFormat: String, CaseIterable, Sendable {
    case ndjson, csv, getevent, evemu, evtest, libinput

    /// The device recording format; nil for the touch-log formats.
    public var deviceLogFormat: DeviceLogFormat? { DeviceLogFormat(rawValue: rawValue) }

    /// How many bytes `detect` reads to recognise a device recording: 16 KiB, enough for
    /// `DeviceLogFormat.detectionLineLimit` lines of any of them and evemu's commented header.
    public static let devicePrefixBytes = 16_384

    /// Tells the format from the content: a first non-blank byte `{` is NDJSON; otherwise a CSV
    /// whose header row has `session` and `t` columns; otherwise a device recording
    /// when `DeviceLogFormat.detect(prefix:)` recognises the first `devicePrefixBytes` bytes
    /// (whole lines only). Nothing is consumed.
    /// - Throws: `InputError` when none fits.
    public static func detect(_ input: ByteInput) throws -> InputFormat {
        guard let first = try input.peekFirstNonBlankByte() else { return .ndjson } // empty: nothing to read
        if first == UInt8(ascii: "{") { return .ndjson }
        // The CSV header is the first non-blank line (a leading byte-order mark and blank lines
        // before it are allowed, as the CSV reader allows them).
        let names = CSVReader.splitHeader(try csvHeader(input).line)
        if names.contains("session") && names.contains("t") { return .csv }
        if let device = DeviceLogFormat.detect(prefix: try input.peekPrefix(limit: devicePrefixBytes, wholeLines: true)) {
            return InputFormat(rawValue: device.rawValue)!
        }
        // A header of several columns that names some of the required ones is a CSV with a
        // column missing or misnamed (`time` for `t`): say that, not "cannot tell the format".
        if names.count >= 3, Self.requiredCSVColumns.filter(names.contains).count >= 2 {
            try checkCSVHeader(input)
        }
        throw InputError("\(input.name): cannot tell the format: not NDJSON (the first character is not '{'), "
            + "not CSV (no header row with 'session' and 't' columns), and not a getevent, evemu, evtest or libinput "
            + "recording; use --format")
    }

    /// The columns every CSV touch log has (docs/log-format.md, "CSV").
    public static let requiredCSVColumns = ["session", "t", "phase", "x", "y"]

    /// The first non-blank line of `input` (its byte-order mark and CR left out), its line
    /// number, and whether a non-blank byte follows it within the first 64 KiB. Nothing is consumed.
    static func csvHeader(_ input: ByteInput) throws -> (line: [UInt8], number: Int, more: Bool) {
        var prefix = try input.peekPrefix(limit: 65_536)
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { prefix.removeFirst(3) }
        // A scan to the header's end and the next non-blank byte, not a split of the whole
        // prefix: this runs on every CSV, and the reader's instructions per byte are checked.
        // Lines end as `ByteInput` ends them: LF, CR LF, or a lone CR (old Mac files).
        func isBlank(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 }
        func isEnd(_ b: UInt8) -> Bool { b == 0x0A || b == 0x0D }
        var start = prefix.startIndex, number = 1
        while true {
            let end = prefix[start...].firstIndex(where: isEnd) ?? prefix.endIndex
            var next = end
            if end < prefix.endIndex {
                next = prefix[end] == 0x0D && end + 1 < prefix.endIndex && prefix[end + 1] == 0x0A ? end + 2 : end + 1
            }
            let line = prefix[start..<end]
            if line.contains(where: { !isBlank($0) }) {
                return (Array(line), number, prefix[next...].contains { !isBlank($0) && !isEnd($0) })
            }
            if next == prefix.endIndex { return ([], 1, false) }
            start = next
            number += 1
        }
    }

    /// Checks a CSV input's header before anything is stored, as the reader would: the error
    /// names the file, the line and the missing columns (and `t` where a `time` column stands in
    /// for it). Returns whether any line follows the header (false: a header and nothing else).
    /// - Throws: `InputError` when a required column is missing.
    @discardableResult
    public static func checkCSVHeader(_ input: ByteInput) throws -> Bool {
        let header = try csvHeader(input)
        let names = CSVReader.splitHeader(header.line).map { $0.hasPrefix("\u{FEFF}") ? String($0.dropFirst()) : $0 }
        let missing = requiredCSVColumns.filter { !names.contains($0) }
        if !missing.isEmpty, !header.line.isEmpty {
            var message = "\(input.name):\(header.number): CSV header lacks the required column\(missing.count > 1 ? "s" : "") "
                + missing.joined(separator: ", ")
            if missing.contains("t"), let near = names.first(where: { ["time", "timestamp", "ts"].contains($0.lowercased()) }) {
                message += " (the time column is named t, in seconds; rename '\(near)')"
            }
            throw InputError(message + " (docs/log-format.md, \"CSV\"); for a CSV without a header row, "
                + "name its columns with --columns")
        }
        return header.more
    }

    /// A record source reading `input` in this format. For device recordings, `device` gives
    /// the units, layout and default attributes, and the rest of `input` is read into memory
    /// first for the content hash the session ids need (`DeviceLogSource.init(_:format:options:file:)`
    /// with no file); `input`'s `contentHash` and `bytesRead` still cover it all.
    /// - Throws: `InputError` when a device recording cannot be read.
    public func reader(_ input: ByteInput, device: DeviceLogOptions = DeviceLogOptions()) throws -> any RecordSource {
        switch self {
        case .ndjson: return NDJSONReader(input)
        case .csv: return CSVReader(input)
        case .getevent, .evemu, .evtest, .libinput:
            return try DeviceLogSource(input, format: deviceLogFormat!, options: device)
        }
    }
}

// MARK: - Shared validation

/// UTF-8 validation of a line: nil when valid, else a reason naming the offending byte.
func utf8Problem(_ line: UnsafeBufferPointer<UInt8>) -> String? {
    guard let base = line.baseAddress, ByteInput.firstNonASCII(base, from: 0, to: line.count) < line.count else { return nil }
    if String(validating: line, as: UTF8.self) != nil { return nil }
    // Locate the first invalid byte for the message.
    var k = 0
    while k < line.count {
        let b = line[k]
        let n: Int
        switch b {
        case 0x00..<0x80: n = 1
        case 0xC2..<0xE0: n = 2
        case 0xE0..<0xF0: n = 3
        case 0xF0..<0xF5: n = 4
        default: return "invalid UTF-8 (byte 0x\(String(b, radix: 16)) at column \(k + 1))"
        }
        if k + n > line.count || String(validating: UnsafeBufferPointer(rebasing: line[k..<k + n]), as: UTF8.self) == nil {
            return "invalid UTF-8 (byte 0x\(String(b, radix: 16)) at column \(k + 1))"
        }
        k += n
    }
    return "invalid UTF-8"
}

/// The raw text of a line for the rejects table (invalid UTF-8 replaced by U+FFFD).
func rawText(_ line: UnsafeBufferPointer<UInt8>) -> String { String(decoding: line, as: UTF8.self) }
func rawText(_ line: [UInt8]) -> String { String(decoding: line, as: UTF8.self) }
