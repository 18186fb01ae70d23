// CSV touch logs (RFC 4180): a header row naming the columns, then one touch record per row.
import PressCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads CSV with a header row. Columns use the NDJSON field names (`session`, `t`, `phase`,
/// `x`, `y`, and the attributes' keys: `config`, …), a frame as its four columns (`frame_x`,
/// `frame_y`, `frame_w`, `frame_h`); other columns become extra attributes (string values). An empty cell is an absent field. Quoted
/// fields may contain commas, doubled quotes and line breaks (RFC 4180 §2). A row's line number
/// is the line it starts on.
public struct CSVReader: ChunkedRecordSource {
    public let input: ByteInput
    private var header: [Column]?
    /// Per column, how `row` reads it: `ColumnCode`'s values, a byte each (the sample's five
    /// fields without looking at `header`'s enum, which copies its payload).
    private var codes: [UInt8] = []
    /// Per column, the `SessionAttribute.rawValue` of an attribute column (`ColumnCode.attribute`,
    /// `.framePart`), else -1; and for a frame's column which of its four numbers.
    private var columnAttributes: [Int8] = []
    private var frameParts: [Int8] = []
    /// The last column of the sample's five, and the commas that follow it in a row whose
    /// later cells are all empty (the common row: attributes are given on a session's first).
    private var emptyTail: (column: Int, commas: [UInt8]) = (-1, [])
    /// The header starts `session,t,phase,x,y` (the usual order, `pressdb generate`'s): a plain
    /// row reads those five cells in sequence, without `codes`' switch.
    private var samplePrefix = false
    /// The current row's cells are `cells[0..<cellCount]`; the array only grows.
    private var cells: [Cell] = Array(repeating: Cell(start: 0, end: 0, quoted: false), count: 32)
    private var cellCount = 0
    var scratch: [UInt8] = []
    /// The last row returned: a line in `input`'s buffer, or `scratch` when nil and `lastWasScratch`.
    var lastLine: UnsafeBufferPointer<UInt8>?
    var lastWasScratch = false
    /// Session ids read recently (several sessions are in flight at once), so a row of one of
    /// them reuses its `String` instead of building one.
    private var sessionCache = SessionIDCache()
    /// Attribute values read recently (a session's first row gives them).
    private var attributeCache = AttributeValueCache()
    /// `SessionAttribute.ordered`, read without its global's lazy initialization check.
    private let orderedAttributes = SessionAttribute.ordered
    /// Column names one edit from a known one.
    private var fieldNames = FieldNameCheck(csv: true)
    /// Warnings about columns that look misspelt, and how many there were.
    public var fieldWarnings: [FieldWarning] { fieldNames.warnings }
    public var fieldWarningCount: Int { fieldNames.count }

    /// What a column holds.
    enum Column: Equatable {
        case field(TouchField)
        /// One of a frame attribute's four columns: 0 x, 1 y, 2 w, 3 h.
        case frame(SessionAttribute, Int)
        case extra(String)
    }

    /// One cell's byte range in the row; `quoted` cells may hold doubled quotes to undo.
    struct Cell {
        var start: Int
        var end: Int
        var quoted: Bool
    }

    /// How far a quoted field may run past the line it opens on (RFC 4180 allows line breaks in
    /// quotes): at most this many lines in all, and `maximumQuotedBytes` bytes after the first.
    /// A quote still open then, or at the end of the input, is taken as unterminated.
    public static let maximumQuotedLines = 64
    public static let maximumQuotedBytes = 1 << 20

    /// Columns named or renamed, another time unit, other phase names (`TouchLogOptions`).
    public let options: TouchLogOptions

    public init(_ input: ByteInput) { self.init(input, options: TouchLogOptions()) }

    public init(_ input: ByteInput, options: TouchLogOptions) {
        self.input = input
        self.options = options
    }

    /// How `row` reads a column (`codes`).
    enum ColumnCode {
        static let other: UInt8 = 0, session: UInt8 = 1, t: UInt8 = 2, x: UInt8 = 3, y: UInt8 = 4, phase: UInt8 = 5
        /// An attribute of one column (text, container, scroll axis), and one of a frame's four.
        static let attribute: UInt8 = 6, framePart: UInt8 = 7
    }

    /// The header's column names (for format detection).
    public static func splitHeader(_ line: [UInt8]) -> [String] {
        line.withUnsafeBufferPointer { b in
            var cells: [Cell] = []
            _ = split(b, into: &cells)
            // A cell with start < 0 marks text after a closing quote: no name.
            return cells.filter { $0.start >= 0 }.map { text(b, $0) }
        }
    }

    public mutating func next() throws -> RecordItem? {
        try nextInLogUnit().map { $0.dividingTime(by: options.timeUnit.perSecond) }
    }

    /// The next item, its time in the log's own unit.
    private mutating func nextInLogUnit() throws -> RecordItem? {
        while true {
            let number: Int
            if replayIndex < replayLines.count {
                // A line read ahead for a quote given up on: read it again, from a copy.
                let r = replayLines[replayIndex]
                replayIndex += 1
                if replayIndex == replayLines.count { replayLines.removeAll(); replayIndex = 0 }
                number = r.line
                scratch.removeAll(keepingCapacity: true)
                scratch.append(contentsOf: r.bytes)
                let text = scratch
                if let item = try text.withUnsafeBufferPointer({ try read($0, number: number, fromScratch: true) }) {
                    return item
                }
            } else {
                guard let line = try input.nextLine() else { return nil }
                if let item = try read(line, number: input.lineNumber, fromScratch: false) { return item }
            }
        }
    }

    public mutating func read(into chunk: inout RecordChunk, limit: Int, yieldingBeforeWait: Bool) throws -> ChunkRead {
        if options.timeUnit != .s {
            let start = chunk.touchCount
            defer { chunk.divideTimes(from: start, by: options.timeUnit.perSecond) }
            return try readRows(into: &chunk, limit: limit, yieldingBeforeWait: yieldingBeforeWait)
        }
        return try readRows(into: &chunk, limit: limit, yieldingBeforeWait: yieldingBeforeWait)
    }

    /// `read(into:…)` in the log's own time unit.
    @inline(__always)
    private mutating func readRows(into chunk: inout RecordChunk, limit: Int, yieldingBeforeWait: Bool) throws -> ChunkRead {
        chunk.setFile(input.name)
        while chunk.count < limit {
            if replayIndex < replayLines.count || header == nil {
                // The header, and lines read again after a quote given up on: the general path
                // (in the log's unit: the chunk's times are divided once, after).
                guard let item = try nextInLogUnit() else { return .end }
                appendLast(item, to: &chunk)
                continue
            }
            guard let line = try input.nextLine(yieldingBeforeWait: yieldingBeforeWait) else {
                return input.stoppedBeforeWaiting ? .wouldWait : .end
            }
            if input.framesOrigins { chunk.setFile(input.name) }
            if plainRow(line, into: &chunk) { continue }
            if let item = try read(line, number: input.lineNumber, fromScratch: false) { appendLast(item, to: &chunk) }
        }
        return .full
    }

    /// Appends `item`, the item `next()` or `read` returned last, with its row's bytes.
    private func appendLast(_ item: RecordItem, to chunk: inout RecordChunk) {
        withLastRawBytes { chunk.append(item, raw: $0) }
    }

    /// Calls `body` with the bytes of the row that produced the item last returned (empty
    /// before the first); the pointer is valid only during the call.
    func withLastRawBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        if lastWasScratch { return try scratch.withUnsafeBufferPointer(body) }
        return try body(lastLine ?? UnsafeBufferPointer(start: nil, count: 0))
    }

    /// The common row, read straight into `chunk`: ASCII, no quoted cell, as many cells as the
    /// header, every cell empty but the sample's five and the attributes', and those valid (the
    /// session's not empty, the numbers finite decimals, the phase one of the five, each
    /// attribute's value one its kind accepts, a frame all four numbers or none). False
    /// (nothing read) for any other line (an extra column or `type` given, a quote, a value
    /// that is not valid), which then takes the general path (`read`, `row`): the same record,
    /// or its reject. A session's first row gives attributes: they are read straight into the
    /// `SessionAttributes` values, through `attributeCache`.
    @inline(__always)
    private mutating func plainRow(_ line: UnsafeBufferPointer<UInt8>, into chunk: inout RecordChunk) -> Bool {
        guard let base = line.baseAddress else { return false }
        let n = line.count
        guard input.isASCII(line: line) else { return false }
        var sessionStart = 0, sessionEnd = 0
        var t = 0.0, x = 0.0, y = 0.0, phase = TouchPhase.began
        var given = 0   // one bit per sample field read
        /// The attributes' values, by `SessionAttribute.rawValue`: made at the first one given.
        var values: [AttributeValue?] = []
        /// The frame attributes' numbers given, four per attribute, and one bit per number.
        var frameNumbers: (Double, Double, Double, Double) = (0, 0, 0, 0)
        var frameGiven = 0, frameAttribute = -1
        let tail = emptyTail
        let ok: Bool = codes.withUnsafeBufferPointer { codes in
            let last = codes.count - 1
            var k = 0
            var column = 0
            if samplePrefix {
                // The header's usual order, `session,t,phase,x,y,…`: the five cells read in
                // sequence, then the same end-of-cell steps as the loop's for column 4.
                var j = WordScan.first(0x2C, in: base, from: 0, to: n)
                guard j > 0, j < n, base[0] != 0x22 else { return false }
                sessionStart = 0; sessionEnd = j
                k = j + 1
                guard k < n, base[k] != 0x2C else { return false }
                let (tv, tEnd) = Self.number(base, from: k, to: n)
                guard let td = tv, td.isFinite, tEnd < n else { return false }
                k = tEnd + 1
                let p: TouchPhase
                if let (known, end) = Self.phaseBeforeComma(base, k, n) {
                    p = known; j = end
                } else {
                    j = WordScan.first(0x2C, in: base, from: k, to: n)
                    guard j > k, j < n, base[k] != 0x22,
                          let read = Self.phase(UnsafeBufferPointer(start: base + k, count: j - k)) else { return false }
                    p = read
                }
                k = j + 1
                guard k < n, base[k] != 0x2C else { return false }
                let (xv, xEnd) = Self.number(base, from: k, to: n)
                guard let xd = xv, xd.isFinite, xEnd < n else { return false }
                k = xEnd + 1
                guard k < n, base[k] != 0x2C else { return false }
                let (yv, yEnd) = Self.number(base, from: k, to: n)
                guard let yd = yv, yd.isFinite else { return false }
                t = td; x = xd; y = yd; phase = p; given = 31
                j = yEnd
                if last == 4 { return j == n }
                guard j < n else { return false }
                if tail.column == 4, n - j == tail.commas.count,
                   tail.commas.withUnsafeBufferPointer({ memcmp(base + j, $0.baseAddress!, n - j) == 0 }) {
                    return true
                }
                k = j + 1
                column = 5
            }
            while column <= last {
                defer { column += 1 }
                var j = k
                let code = codes[column]
                switch code {
                case ColumnCode.t, ColumnCode.x, ColumnCode.y:
                    guard k < n, base[k] != 0x2C else { return false }   // empty: the general path says it is missing
                    let (number, end) = Self.number(base, from: k, to: n)
                    guard let d = number, d.isFinite else { return false }
                    if code == ColumnCode.t { t = d; given |= 2 } else if code == ColumnCode.x { x = d; given |= 4 } else { y = d; given |= 8 }
                    j = end
                case ColumnCode.framePart:
                    guard k < n, base[k] != 0x2C else { break }   // empty: not given
                    let (number, end) = Self.number(base, from: k, to: n)
                    guard let d = number, d.isFinite else { return false }
                    // One frame attribute per row here (the table has one); a second: the general path.
                    let a = Int(columnAttributes[column])
                    guard frameAttribute < 0 || frameAttribute == a else { return false }
                    frameAttribute = a
                    switch frameParts[column] {
                    case 0: frameNumbers.0 = d
                    case 1: frameNumbers.1 = d
                    case 2: frameNumbers.2 = d
                    default: frameNumbers.3 = d
                    }
                    frameGiven |= 1 << Int(frameParts[column])
                    j = end
                default:
                    j = WordScan.first(0x2C, in: base, from: k, to: n)
                    if j > k {
                        // A quote opens a quoted cell only as its first byte (within a cell it
                        // is text, as `split` reads it): such a row takes the general path.
                        guard base[k] != 0x22 else { return false }
                        let cell = UnsafeBufferPointer(start: base + k, count: j - k)
                        switch code {
                        case ColumnCode.session:
                            sessionStart = k; sessionEnd = j; given |= 1
                        case ColumnCode.phase:
                            guard let p = Self.phase(cell) else { return false }
                            phase = p; given |= 16
                        case ColumnCode.attribute:
                            let attribute = orderedAttributes[Int(columnAttributes[column])]
                            guard case .success(let v) = attributeCache.value(attribute, cell, { Self.read(attribute, Self.text(cell)) })
                            else { return false }
                            if values.isEmpty { values = TouchFieldValues.none(count: orderedAttributes.count) }
                            values[attribute.rawValue] = v
                        default:
                            return false   // an extra field or `type`: the general path
                        }
                    }
                }
                if column == last { return j == n }
                guard j < n else { return false }
                // The columns after the sample's last one, all empty: the rest is their commas.
                if column == tail.column, n - j == tail.commas.count,
                   tail.commas.withUnsafeBufferPointer({ memcmp(base + j, $0.baseAddress!, n - j) == 0 }) {
                    return true
                }
                k = j + 1
            }
            return false
        }
        guard ok, given == 31 else { return false }
        if frameGiven != 0 {
            guard frameGiven == 15 else { return false }   // some of the four: the general path's reject
            let attribute = orderedAttributes[frameAttribute]
            let f = frameNumbers
            guard case .success(let r) = FieldCheck.frame([f.0, f.1, f.2, f.3], name: attribute.key) else { return false }
            if values.isEmpty { values = TouchFieldValues.none(count: orderedAttributes.count) }
            values[attribute.rawValue] = .frame(r)
        }
        let session = sessionCache.index(UnsafeBufferPointer(start: base + sessionStart, count: sessionEnd - sessionStart),
                                         in: &chunk)
        chunk.appendTouch(TouchSample(t: t, x: x, y: y, phase: phase), session: session, line: input.lineNumber, raw: line)
        if !values.isEmpty { chunk.addAttributesOfLastTouch(SessionAttributes(givenValues: values)) }
        lastLine = line
        lastWasScratch = false
        return true
    }

    /// The number in the cell that starts at `k` and ends at the next comma (or `n`), as
    /// `DecimalParser.parse` reads the cell, and where the cell ends. A short decimal is read
    /// while the comma is looked for (`DecimalParser.wordDecimal` in place, inlined, else
    /// `DecimalParser.shortPrefix`: `parseShort`'s arithmetic); anything else is found first
    /// and given to `DecimalParser.parse`.
    @_transparent
    static func number(_ base: UnsafePointer<UInt8>, from k: Int, to n: Int) -> (Double?, Int) {
        var j = k
        let negative = j < n && base[j] == UInt8(ascii: "-")
        if negative || (j < n && base[j] == UInt8(ascii: "+")) { j &+= 1 }
        let word = DecimalParser.wordDecimal(base, j, n, negative: negative)
        if word.end >= 0, !word.value.isNaN, word.end == n || base[word.end] == 0x2C { return (word.value, word.end) }
        return otherNumber(base, from: k, to: n)
    }

    /// `number` beyond its common case: the cell's number by `DecimalParser.shortPrefix`, else
    /// `DecimalParser.parse`.
    @inline(never)
    static func otherNumber(_ base: UnsafePointer<UInt8>, from k: Int, to n: Int) -> (Double?, Int) {
        let short = DecimalParser.shortPrefix(base, from: k, to: n)
        var j = short.end
        if let value = short.value, j == n || base[j] == 0x2C { return (value, j) }
        while j < n, base[j] != 0x2C { j += 1 }
        return (DecimalParser.parse(UnsafeBufferPointer(start: base + k, count: j - k)), j)
    }

    /// Lines read ahead while a quote was open, to be read again after the row where it opened
    /// was rejected: their bytes and line numbers, in order.
    private var replayLines: [(bytes: ArraySlice<UInt8>, line: Int)] = []
    private var replayIndex = 0

    /// The next line to add to a quoted field: a line read ahead before, else the input's.
    private mutating func nextContinuationLine(into buffer: inout [UInt8]) throws -> Int? {
        if replayIndex < replayLines.count {
            let r = replayLines[replayIndex]
            replayIndex += 1
            buffer.append(contentsOf: r.bytes)
            return r.line
        }
        guard let more = try input.nextLine() else { return nil }
        buffer.append(contentsOf: more)
        return input.lineNumber
    }

    /// Reads one line (`line`, numbered `number`; `fromScratch`: its bytes are `scratch`'s), and
    /// the lines after it while a quoted field is open. Nil for a blank line or the header.
    private mutating func read(_ line: UnsafeBufferPointer<UInt8>, number: Int, fromScratch: Bool) throws -> RecordItem? {
        let source = SourceLocation(file: input.name, line: number)
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
            // An empty line may be one longer than the input holds, read past.
            guard line.isEmpty, !fromScratch, let long = input.takeLongLine() else { return nil }
            scratch = long.raw
            lastLine = nil
            lastWasScratch = true
            return .reject(long.reject)
        }
        if header == nil, let names = options.columns { try setColumns(names, source) }
        var open = Self.split(line, into: &cells, count: &cellCount)
        if !open {
            if header == nil { try readHeader(line, source); return nil }
            lastLine = fromScratch ? nil : line
            lastWasScratch = fromScratch
            return row(line, source)
        }
        // A quoted field spans lines (RFC 4180 §2.6): gather them in `gathered`, within the
        // limits, and split again.
        var gathered: [UInt8] = Array(line)
        var lineEnds: [(end: Int, line: Int)] = [(gathered.count, number)]
        var gaveUp = false
        while open {
            guard lineEnds.count < Self.maximumQuotedLines, gathered.count - lineEnds[0].end <= Self.maximumQuotedBytes else {
                gaveUp = true; break
            }
            gathered.append(0x0A)
            guard let n = try nextContinuationLine(into: &gathered) else { gathered.removeLast(); break }
            lineEnds.append((gathered.count, n))
            open = gathered.withUnsafeBufferPointer { Self.split($0, into: &cells, count: &cellCount) }
        }
        if header == nil {
            if open { throw InputError("\(source): CSV header: a quoted name is not closed") }
            try gathered.withUnsafeBufferPointer { try readHeader($0, source) }
            return nil
        }
        var rowProblem: String? = nil
        if !open {
            let item = gathered.withUnsafeBufferPointer { row($0, source) }
            guard case .reject(let r) = item else {
                scratch = gathered
                lastLine = nil
                lastWasScratch = true
                return item
            }
            rowProblem = r.reason
        }
        // The quote was never closed, or the lines it joined make no valid row: reject the line
        // where it opened, alone, and read the lines after it again.
        let reason: String
        if let rowProblem {
            reason = "malformed CSV: a quoted field opened on this line joins \(lineEnds.count) lines into a row that is "
                + "not valid (\(rowProblem)); this line is rejected and reading resumes at the next one"
        } else if gaveUp {
            reason = "malformed CSV: a quoted field opened on this line is not closed within \(Self.maximumQuotedLines) lines "
                + "(or \(Self.maximumQuotedBytes) bytes); this line is rejected and reading resumes at the next one"
        } else {
            reason = "malformed CSV: a quoted field opened on this line is not closed before the end of the input; "
                + "this line is rejected and reading resumes at the next one"
        }
        var again: [(bytes: ArraySlice<UInt8>, line: Int)] = []
        let kept = gathered
        for k in 1..<lineEnds.count {
            again.append((kept[(lineEnds[k - 1].end + 1)..<lineEnds[k].end], lineEnds[k].line))
        }
        again += replayLines[replayIndex...]
        replayLines = again
        replayIndex = 0
        scratch = Array(gathered[0..<lineEnds[0].end])
        lastLine = nil
        lastWasScratch = true
        return scratch.withUnsafeBufferPointer { .reject(Reject(source: source, reason: reason, raw: rawText($0))) }
    }

    public var lastRaw: String {
        if lastWasScratch { return scratch.withUnsafeBufferPointer(rawText) }
        return lastLine.map(rawText) ?? ""
    }

    mutating func readHeader(_ line: UnsafeBufferPointer<UInt8>, _ source: SourceLocation) throws {
        if let problem = utf8Problem(line) { throw InputError("\(source): CSV header: \(problem)") }
        if cells[0..<cellCount].contains(where: { $0.start < 0 }) { throw InputError("\(source): CSV header: text after a closing quote") }
        var given: [String] = []
        for c in cells[0..<cellCount] {
            var name = Self.text(line, c)
            if given.isEmpty, name.hasPrefix("\u{FEFF}") { name.removeFirst() }
            given.append(options.headerNames[name] ?? name)
        }
        try setColumns(given, source)
    }

    /// The columns named `given` (a header's names, or `TouchLogOptions.columns`).
    mutating func setColumns(_ given: [String], _ source: SourceLocation) throws {
        var columns: [Column] = []
        var names: Set<String> = []
        for name in given {
            guard names.insert(name).inserted else { throw InputError("\(source): CSV header names column \"\(name)\" twice") }
            if let part = Self.frameColumns[name] {
                columns.append(.frame(part.attribute, part.index))
            } else if let f = TouchField.byName[name] {
                if case .attribute(let a) = f, a.kind == .frame {
                    throw InputError("\(source): CSV gives the \(name) as columns \(a.field.columns.joined(separator: ", "))")
                }
                columns.append(.field(f))
            } else {
                columns.append(.extra(name))
            }
        }
        let missing = ["session", "t", "phase", "x", "y"].filter { !names.contains($0) }
        if !missing.isEmpty {
            let extras = columns.compactMap { if case .extra(let n) = $0 { n } else { nil } }
            throw InputError("\(source): CSV header lacks the required column\(missing.count > 1 ? "s" : "") "
                + missing.joined(separator: ", ") + missing.map { fieldNames.hint(missing: $0, given: extras) }.joined()
                + (options.columns == nil ? "; for a CSV without a header, name its columns with --columns" : ""))
        }
        for case .extra(let name) in columns { fieldNames.unknown(name, at: source) }
        for a in SessionAttribute.allCases where a.kind == .frame {
            let given = a.field.columns.filter { names.contains($0) }
            if !given.isEmpty && given.count != 4 {
                throw InputError("\(source): CSV header needs all of \(a.field.columns.joined(separator: ", ")), or none")
            }
        }
        header = columns
        codes = columns.map { column in
            switch column {
            case .field(.session): return ColumnCode.session
            case .field(.t): return ColumnCode.t
            case .field(.x): return ColumnCode.x
            case .field(.y): return ColumnCode.y
            case .field(.phase): return ColumnCode.phase
            case .field(.attribute(let a)) where a.kind != .frame: return ColumnCode.attribute
            case .frame: return ColumnCode.framePart
            default: return ColumnCode.other
            }
        }
        columnAttributes = columns.map { column in
            switch column {
            case .field(.attribute(let a)), .frame(let a, _): return Int8(a.rawValue)
            default: return -1
            }
        }
        frameParts = columns.map { column in
            if case .frame(_, let part) = column { return Int8(part) }
            return -1
        }
        let lastSample = codes.lastIndex { $0 != ColumnCode.other && $0 != ColumnCode.attribute && $0 != ColumnCode.framePart } ?? 0
        emptyTail = (lastSample, Array(repeating: 0x2C, count: codes.count - 1 - lastSample))
        samplePrefix = codes.starts(with: [ColumnCode.session, ColumnCode.t, ColumnCode.phase, ColumnCode.x, ColumnCode.y])
    }

    /// Splits a row into cells; returns true when a quoted field is still open at the end.
    static func split(_ b: UnsafeBufferPointer<UInt8>, into cells: inout [Cell]) -> Bool {
        var count = 0
        let open = split(b, into: &cells, count: &count)
        cells.removeSubrange(count...)
        return open
    }

    /// Splits a row into `cells[0..<count]`, growing `cells` when it has too few; returns true
    /// when a quoted field is still open at the end. (Written through a buffer pointer: appending
    /// to the array cost a uniqueness check per cell.)
    static func split(_ b: UnsafeBufferPointer<UInt8>, into cells: inout [Cell], count: inout Int) -> Bool {
        while true {
            if let open = cells.withUnsafeMutableBufferPointer({ splitFitting(b, into: $0, count: &count) }) { return open }
            cells += repeatElement(Cell(start: 0, end: 0, quoted: false), count: max(cells.count, 16))
        }
    }

    /// `split` into `out`; nil when `out` holds too few cells.
    private static func splitFitting(_ b: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<Cell>,
                                     count: inout Int) -> Bool? {
        var m = 0
        defer { count = m }
        let n = b.count
        var k = 0
        while true {
            guard m < out.count else { return nil }
            if k < n, b[k] == UInt8(ascii: "\"") {
                var j = k + 1
                while true {
                    guard j < n else { return true }
                    if b[j] == UInt8(ascii: "\"") {
                        if j + 1 < n, b[j + 1] == UInt8(ascii: "\"") { j += 2; continue }
                        break
                    }
                    j += 1
                }
                out[m] = Cell(start: k + 1, end: j, quoted: true)
                m += 1
                k = j + 1
                // Text after the closing quote is malformed: mark it by an empty-range cell past it.
                if k < n, b[k] != UInt8(ascii: ",") {
                    guard m < out.count else { return nil }
                    out[m] = Cell(start: -1, end: k, quoted: false)
                    m += 1
                    return false
                }
            } else {
                var j = k
                while j < n, b[j] != UInt8(ascii: ",") { j += 1 }
                out[m] = Cell(start: k, end: j, quoted: false)
                m += 1
                k = j
            }
            if k >= n { return false }
            k += 1 // the comma
        }
    }

    static func text(_ b: UnsafeBufferPointer<UInt8>, _ c: Cell) -> String {
        let s = String(decoding: UnsafeBufferPointer(rebasing: b[c.start..<c.end]), as: UTF8.self)
        return c.quoted && s.contains("\"") ? s.replacingQuotePairs() : s
    }

    mutating func row(_ b: UnsafeBufferPointer<UInt8>, _ source: SourceLocation) -> RecordItem {
        func reject(_ reason: String) -> RecordItem { .reject(Reject(source: source, reason: reason, raw: rawText(b))) }
        guard let header else { return reject("no header row") }
        if let problem = utf8Problem(b) { return reject(problem) }
        let cellCount = self.cellCount
        for k in 0..<cellCount where cells[k].start < 0 { return reject("malformed CSV: text after a closing quote") }
        guard cellCount == header.count else {
            return reject("row has \(cellCount) field\(cellCount == 1 ? "" : "s"), \(options.columns == nil ? "the header has" : "--columns names") \(header.count)")
        }
        // The sample's fields are read into locals; the attributes' only when a row has some
        // (most rows have none), so a plain sample row builds no attribute values at all.
        var session: String?, t: Double?, phase: TouchPhase?, x: Double?, y: Double?
        var values: TouchFieldValues?
        /// The frame attributes' columns given on this row (made only when a row gives one).
        var frames: [(attribute: SessionAttribute, parts: [Double?])] = []
        for k in 0..<cellCount {
            let c = cells[k]
            if c.end <= c.start { continue }
            switch codes[k] {
            case ColumnCode.session:
                session = c.quoted ? Self.text(b, c) : sessionCache.string(UnsafeBufferPointer(rebasing: b[c.start..<c.end]))
                continue
            case ColumnCode.t, ColumnCode.x, ColumnCode.y:
                let code = codes[k]
                switch number(code == ColumnCode.t ? "t" : code == ColumnCode.x ? "x" : "y", b, c) {
                case .failure(let p): return reject(p.reason)
                case .success(let d):
                    if code == ColumnCode.t { t = d } else if code == ColumnCode.x { x = d } else { y = d }
                }
                continue
            case ColumnCode.phase:
                if !c.quoted, let p = Self.phase(UnsafeBufferPointer(rebasing: b[c.start..<c.end])) { phase = p; continue }
            default: break
            }
            switch header[k] {
            case .field(.t), .field(.x), .field(.y):
                let f: TouchField = header[k] == .field(.t) ? .t : header[k] == .field(.x) ? .x : .y
                switch number(f.name, b, c) {
                case .failure(let p): return reject(p.reason)
                case .success(let d):
                    if f == .t { t = d } else if f == .x { x = d } else { y = d }
                }
            case .field(.session):
                session = c.quoted ? Self.text(b, c) : sessionCache.string(UnsafeBufferPointer(rebasing: b[c.start..<c.end]))
            case .field(.phase):
                if !c.quoted, let p = Self.phase(UnsafeBufferPointer(rebasing: b[c.start..<c.end])) { phase = p; continue }
                switch options.phase(Self.text(b, c)) {
                case .failure(let p): return reject(p.reason)
                case .success(let p): phase = p
                }
            case .extra(let name):
                if values == nil { values = TouchFieldValues() }
                values!.extras.append(ExtraField(key: name, json: JSONText.string(Self.text(b, c))))
            case .frame(let attribute, let part):
                switch number(attribute.field.columns[part], b, c) {
                case .failure(let p): return reject(p.reason)
                case .success(let d):
                    if let i = frames.firstIndex(where: { $0.attribute == attribute }) { frames[i].parts[part] = d } else {
                        frames.append((attribute, [nil, nil, nil, nil]))
                        frames[frames.count - 1].parts[part] = d
                    }
                }
            case .field(.type):
                let s = Self.text(b, c)
                if s != "touch" { return reject("unknown record type \(JSONText.string(s)) (a CSV row is a touch record)") }
            case .field(.attribute(let attribute)):
                if values == nil { values = TouchFieldValues() }
                if let problem = set(attribute, b, c, &values!.values) { return reject(problem) }
            }
        }
        for (attribute, parts) in frames {
            let given = parts.compactMap { $0 }
            guard given.count == 4 else {
                return reject("the \(attribute.key) needs all of \(attribute.field.columns.joined(separator: ", ")), or none")
            }
            switch FieldCheck.frame(given, name: attribute.key) {
            case .failure(let p): return reject(p.reason)
            case .success(let r):
                if values == nil { values = TouchFieldValues() }
                values!.values[attribute.rawValue] = .frame(r)
            }
        }
        // Built here rather than through `TouchFieldValues.record` to save copies of the record.
        guard let session else { return reject("missing field \"session\"") }
        guard let t else { return reject("missing field \"t\"") }
        guard let phase else { return reject("missing field \"phase\"") }
        guard let x else { return reject("missing field \"x\"") }
        guard let y else { return reject("missing field \"y\"") }
        let sample = TouchSample(t: t, x: x, y: y, phase: phase)
        guard let values else { return .touch(TouchRecord(session: session, sample: sample, source: source)) }
        return .touch(TouchRecord(session: session, sample: sample, attributes: values.merged, source: source))
    }

    /// The frame attributes' column names: the attribute and which of the four numbers.
    static let frameColumns: [String: (attribute: SessionAttribute, index: Int)] = Dictionary(uniqueKeysWithValues:
        SessionAttribute.allCases.filter { $0.kind == .frame }.flatMap { a in
            a.field.columns.enumerated().map { ($0.element, (a, $0.offset)) }
        })

    /// `name` is only evaluated for a message (for a frame's column it is built from its key).
    func number(_ name: @autoclosure () -> String, _ b: UnsafeBufferPointer<UInt8>, _ c: Cell) -> Result<Double, FieldProblem> {
        let slice = UnsafeBufferPointer(rebasing: b[c.start..<c.end])
        if let d = DecimalParser.parse(slice) {
            // The text is only needed for the message about a number out of range.
            return d.isFinite ? .success(d) : FieldCheck.finite(name(), d, text: Self.text(b, c))
        }
        let name = name()
        let s = Self.text(b, c)
        switch s.lowercased() {
        case "nan", "-nan", "+nan": return .failure(FieldProblem("\"\(name)\" is NaN, not a finite number"))
        case "inf", "-inf", "+inf", "infinity", "-infinity", "+infinity":
            return .failure(FieldProblem("\"\(name)\" is infinite, not a finite number"))
        default: return .failure(FieldProblem("\"\(name)\" must be a number, not \(JSONText.string(s))"))
        }
    }

    /// Stores one attribute's cell in `values` (by `SessionAttribute.rawValue`), by the
    /// attribute's kind; returns the reason when it is invalid. An unquoted cell read before
    /// comes from `attributeCache`.
    mutating func set(_ attribute: SessionAttribute, _ b: UnsafeBufferPointer<UInt8>, _ c: Cell,
                      _ values: inout [AttributeValue?]) -> String? {
        if attribute.kind == .frame { return nil } // given as four columns (rejected by that name in the header)
        let read = { Self.read(attribute, Self.text(b, c)) }
        let value = c.quoted ? read() : attributeCache.value(attribute, UnsafeBufferPointer(rebasing: b[c.start..<c.end]), read)
        switch value {
        case .failure(let p): return p.reason
        case .success(let v): values[attribute.rawValue] = v
        }
        return nil
    }

    /// A one-column attribute's value from its cell's text (quotes undone), by its kind, or the
    /// reason it is invalid.
    static func read(_ attribute: SessionAttribute, _ s: String) -> Result<AttributeValue, FieldProblem> {
        switch attribute.kind {
        case .text: return .success(.text(s))
        case .container:
            return (s.hasPrefix("{") ? ContainerJSON.parse(json: s) : FieldCheck.containerName(s, name: attribute.key))
                .map(AttributeValue.container)
        case .scrollAxis: return FieldCheck.scrollAxis(s, name: attribute.key).map(AttributeValue.scrollAxis)
        case .size: return FieldCheck.window(text: s, name: attribute.key).map(AttributeValue.size)
        case .systemGestures: return FieldCheck.systemGestures(text: s, name: attribute.key).map(AttributeValue.systemGestures)
        case .frame: preconditionFailure("frames are read as four columns")
        }
    }

    /// An unquoted cell's text.
    static func text(_ cell: UnsafeBufferPointer<UInt8>) -> String { String(decoding: cell, as: UTF8.self) }

    /// The phase whose name and a comma are the bytes at `k` (the line has eleven bytes there,
    /// "stationary,"'s count), and where its cell ends (the comma); nil otherwise, and the caller
    /// finds the comma and reads the cell with `phase`, which takes the same cells. One or two
    /// words compared, no scan for the comma.
    @inline(__always)
    static func phaseBeforeComma(_ base: UnsafePointer<UInt8>, _ k: Int, _ n: Int) -> (TouchPhase, Int)? {
        guard k + 11 <= n else { return nil }
        let w = WordScan.load(base + k)
        switch w & 0xFFFF_FFFF_FFFF {
        case 0x2C6E_6167_6562: return (.began, k + 5)   // "began,"
        case 0x2C64_6576_6F6D: return (.moved, k + 5)   // "moved,"
        case 0x2C64_6564_6E65: return (.ended, k + 5)   // "ended,"
        default: break
        }
        let next = UnsafeRawPointer(base + k + 8).loadUnaligned(as: UInt16.self)
        if w == 0x616E_6F69_7461_7473, next == 0x7972, base[k + 10] == 0x2C { return (.stationary, k + 10) }   // "stationa", "ry", ","
        if w == 0x656C_6C65_636E_6163, next == 0x2C64 { return (.cancelled, k + 9) }   // "cancelle", "d,"
        return nil
    }

    /// The phase spelled by `b` exactly, without building a string: its bytes compared as
    /// words (little-endian), not a byte loop per candidate.
    @inline(__always)
    static func phase(_ b: UnsafeBufferPointer<UInt8>) -> TouchPhase? {
        guard let p = b.baseAddress else { return nil }
        let raw = UnsafeRawPointer(p)
        switch b.count {
        case 5:
            let w = UInt64(raw.loadUnaligned(as: UInt32.self)) | UInt64(p[4]) << 32
            switch w {
            case 0x64_6576_6F6D: return .moved        // "moved"
            case 0x6E_6167_6562: return .began        // "began"
            case 0x64_6564_6E65: return .ended        // "ended"
            default: return nil
            }
        case 9:   // "cancelled"
            return WordScan.load(p) == 0x656C_6C65_636E_6163 && p[8] == 0x64 ? .cancelled : nil
        case 10:  // "stationary"
            return WordScan.load(p) == 0x616E_6F69_7461_7473 && raw.loadUnaligned(fromByteOffset: 8, as: UInt16.self) == 0x7972
                ? .stationary : nil
        default: return nil
        }
    }
}

/// The last few session ids read, as bytes and as the `String` made of them. Sessions of a log
/// interleave (several fingers down at once), so most rows name one of the last few. For a
/// `RecordChunk`, each id is also kept with its index among the chunk's session ids, so a row
/// of a session the chunk has already seen adds no `String` to it.
struct SessionIDCache {
    /// How many ids are kept: more than the sessions usually in flight at once.
    static let capacity = 8
    private var slots = KeySlots(count: capacity)
    private var strings: [String] = Array(repeating: "", count: capacity)
    /// Per entry, the chunk generation its `local` index belongs to (0: none).
    private var generations: [Int] = Array(repeating: 0, count: capacity)
    private var locals: [Int32] = Array(repeating: 0, count: capacity)
    private var next = 0
    /// Where the last id was found: consecutive rows most often name the same session.
    private var lastHit = 0

    /// The entry holding the id spelled by `b` (valid UTF-8, checked by the caller), made when
    /// it is not there.
    @inline(__always)
    private mutating func entry(_ b: UnsafeBufferPointer<UInt8>) -> Int {
        let key = ShortKey(b)
        for i in 0..<Self.capacity {
            let k = (lastHit + i) & (Self.capacity - 1)
            if slots.holds(k, key, b) { lastHit = k; return k }
        }
        let k = next
        slots.store(k, key, b)
        strings[k] = String(decoding: b, as: UTF8.self)
        generations[k] = 0
        lastHit = k
        next = (next + 1) & (Self.capacity - 1)
        return k
    }

    /// The id spelled by `b` (valid UTF-8, checked by the caller), from the cache when it is there.
    mutating func string(_ b: UnsafeBufferPointer<UInt8>) -> String { strings[entry(b)] }

    /// The index in `chunk.sessionIDs` of the id spelled by `b` (valid UTF-8), added to the
    /// chunk when it is not there yet.
    @inline(__always)
    mutating func index(_ b: UnsafeBufferPointer<UInt8>, in chunk: inout RecordChunk) -> Int32 {
        let k = entry(b)
        if generations[k] != chunk.generation {
            generations[k] = chunk.generation
            locals[k] = chunk.addSessionID(strings[k])
        }
        return locals[k]
    }
}

/// Bytes read eight at a time, a byte per lane of a 64-bit word (SWAR; the first byte in the
/// lowest lane, little-endian), for the readers' scans.
enum WordScan {
    /// The eight bytes at `p` (any alignment).
    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p).loadUnaligned(as: UInt64.self))
    }

    /// 0x80 in each byte of `x` that is zero, 0 in the others (exact: no carry crosses a byte).
    @inline(__always)
    static func zeroBytes(_ x: UInt64) -> UInt64 {
        let low7: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((x & low7) &+ low7) | x | low7)
    }

    /// Every byte `b` as a word (`b` in each lane), for `zeroBytes(w ^ lanes(b))`: the bytes equal to `b`.
    @inline(__always)
    static func lanes(_ b: UInt8) -> UInt64 { 0x0101_0101_0101_0101 &* UInt64(b) }

    /// The index of the first byte equal to `b` in `p[k..<n]`, or `n`.
    @inline(__always)
    static func first(_ b: UInt8, in p: UnsafePointer<UInt8>, from k: Int, to n: Int) -> Int {
        var j = k
        while j + 8 <= n {
            let hits = zeroBytes(load(p + j) ^ lanes(b))
            if hits != 0 { return j + hits.trailingZeroBitCount >> 3 }
            j += 8
        }
        while j < n, p[j] != b { j += 1 }
        return j
    }
}

extension String {
    /// RFC 4180: a doubled quote inside a quoted field stands for one quote.
    fileprivate func replacingQuotePairs() -> String {
        var out = ""
        var previousQuote = false
        for ch in self {
            if ch == "\"" {
                if previousQuote { previousQuote = false; continue }
                previousQuote = true
            } else { previousQuote = false }
            out.append(ch)
        }
        return out
    }
}
