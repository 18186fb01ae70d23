// Records a chunk at a time, in columns: what a reader hands to session assembly. A touch
// record is a sample, an index into the chunk's session ids (each id once per chunk, not a
// `String` per record), a line number and its line's bytes; attributes only for the records
// that give some. Configurations, layout controls and rejects keep their `RecordItem`, placed
// between the touch records they came between.
import PressCore
import Synchronization

/// Items read from an input, in input order, in columns.
///
///     var chunk = RecordChunk()
///     while try reader.read(into: &chunk, limit: 2_048) == .more { … chunk.removeAll() }
///
/// Touch record `i` (`0..<touchCount`) is `samples[i]` of session `sessionIDs[sessionIndex[i]]`,
/// read from line `lines[i]` of the input named `fileName(ofTouch: i)`; `attributes(ofTouch:)`
/// its attributes (nil for most). `others[j]` is an item that came after `otherPositions[j]`
/// touch records of the chunk. `rawText(ofTouch:)` is the line's text, for a reject found later.
public struct RecordChunk: Sendable {
    /// Per touch record: its sample.
    public private(set) var samples: [TouchSample] = []
    /// Per touch record: its session, an index into `sessionIDs`.
    public private(set) var sessionIndex: [Int32] = []
    /// Per touch record: its 1-based line number.
    public private(set) var lines: [Int] = []
    /// Session ids of this chunk's touch records (usually each once).
    public private(set) var sessionIDs: [String] = []
    /// The touch records that give attributes, in order, and theirs.
    public private(set) var attributeTouches: [Int] = []
    public private(set) var attributeValues: [SessionAttributes] = []
    /// Items other than touch records, and how many touch records came before each.
    public private(set) var others: [RecordItem] = []
    public private(set) var otherPositions: [Int] = []
    /// The touch records' lines, back to back in `raw[0..<rawCount]`; `rawEnds[i]` ends record
    /// `i`'s. `raw` only grows (bytes past `rawCount` are not part of it), so a line is copied in with one
    /// `memmove` (callgrind: `Array.append(contentsOf:)` of a line cost about 105 instructions,
    /// through the generic `_copyContents`).
    var raw: [UInt8] = []
    var rawCount = 0
    var rawEnds: [Int] = []
    /// The input names of the touch records: from `fileStarts[k]` on, `fileNames[k]`.
    public private(set) var fileStarts: [Int] = []
    public private(set) var fileNames: [String] = []
    /// Told apart from every other chunk a reader filled (readers keep session ids interned per
    /// chunk by it).
    public private(set) var generation: Int
    /// `ByteInput.bytesRead` after the last item (set by whoever hands the chunk on).
    public var bytesRead = 0

    private static let generations = GenerationCounter()

    public init(capacity: Int = 0) {
        generation = Self.generations.next()
        if capacity > 0 {
            samples.reserveCapacity(capacity)
            sessionIndex.reserveCapacity(capacity)
            lines.reserveCapacity(capacity)
            rawEnds.reserveCapacity(capacity)
            raw = Self.rawBuffer(count: capacity * 128, keeping: [], 0)
        }
    }

    /// Touch records in the chunk.
    @inlinable public var touchCount: Int { samples.count }
    /// Items in the chunk: touch records and others.
    public var count: Int { samples.count + others.count }
    public var isEmpty: Bool { samples.isEmpty && others.isEmpty }

    /// Empties the chunk for reuse, keeping its capacity; it becomes a new generation.
    public mutating func removeAll() {
        samples.removeAll(keepingCapacity: true)
        sessionIndex.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        sessionIDs.removeAll(keepingCapacity: true)
        attributeTouches.removeAll(keepingCapacity: true)
        attributeValues.removeAll(keepingCapacity: true)
        others.removeAll(keepingCapacity: true)
        otherPositions.removeAll(keepingCapacity: true)
        rawCount = 0
        rawEnds.removeAll(keepingCapacity: true)
        fileStarts.removeAll(keepingCapacity: true)
        fileNames.removeAll(keepingCapacity: true)
        generation = Self.generations.next()
        bytesRead = 0
    }

    // MARK: Writing (readers)

    /// Adds `id` to the chunk's session ids; returns its index.
    mutating func addSessionID(_ id: String) -> Int32 {
        sessionIDs.append(id)
        return Int32(sessionIDs.count - 1)
    }

    /// Appends a touch record of session `sessionIDs[session]` read from line `line` of the input
    /// `file` (`raw`: the line's bytes), with `attributes` when it gives some.
    @inline(__always)
    mutating func appendTouch(_ sample: TouchSample, session: Int32, line: Int, file: String,
                              raw: UnsafeBufferPointer<UInt8>) {
        if fileNames.isEmpty || fileNames[fileNames.count - 1] != file { noteFile(file) }
        appendTouch(sample, session: session, line: line, raw: raw)
    }

    /// `appendTouch(_:session:line:file:raw:)` where the input's name is known to be the last
    /// record's (set with `setFile`).
    @inline(__always)
    mutating func appendTouch(_ sample: TouchSample, session: Int32, line: Int, raw: UnsafeBufferPointer<UInt8>) {
        samples.append(sample)
        sessionIndex.append(session)
        lines.append(line)
        appendRaw(raw)
    }

    /// A buffer for `raw` of `count` bytes, the first `kept` of them `old`'s. The bytes past
    /// `kept` are left as the allocation gave them (they are never read before written; zeroing
    /// a fresh chunk's buffer, as `Array(repeating:)` does, was counted per byte by callgrind
    /// — `rep stosb` — and the reader thread makes a chunk per hand-over).
    private static func rawBuffer(count: Int, keeping old: [UInt8], _ kept: Int) -> [UInt8] {
        Array(unsafeUninitializedCapacity: count) { b, initialized in
            if kept > 0 { old.withUnsafeBufferPointer { b.baseAddress!.update(from: $0.baseAddress!, count: kept) } }
            initialized = count
        }
    }

    /// Copies a touch record's line to the end of `raw[0..<rawCount]` and notes where it ends.
    @inline(__always)
    private mutating func appendRaw(_ line: UnsafeBufferPointer<UInt8>) {
        let n = line.count, end = rawCount + n
        if end > raw.count { raw = Self.rawBuffer(count: max(end, 2 * raw.count, 4_096), keeping: raw, rawCount) }
        if n > 0 {
            raw.withUnsafeMutableBufferPointer { b in
                (b.baseAddress! + rawCount).update(from: line.baseAddress!, count: n)
            }
        }
        rawCount = end
        rawEnds.append(end)
    }

    private mutating func noteFile(_ file: String) {
        fileStarts.append(samples.count)
        fileNames.append(file)
    }

    /// Whether the next touch record needs `noteFile` (the input's name changed).
    @inline(__always)
    func needsFileName(_ file: String) -> Bool { fileNames.isEmpty || fileNames[fileNames.count - 1] != file }

    /// Records the input's name for the touch records appended from now on.
    mutating func setFile(_ file: String) { if needsFileName(file) { noteFile(file) } }

    /// Gives the last touch record appended its attributes, which give some value (a reader
    /// that set one: `hasAnyValue` is not asked again).
    mutating func addAttributesOfLastTouch(_ attributes: SessionAttributes) {
        attributeTouches.append(samples.count - 1)
        attributeValues.append(attributes)
    }

    /// Gives the last touch record appended its attributes (when it has any).
    mutating func setAttributesOfLastTouch(_ attributes: SessionAttributes) {
        guard attributes.hasAnyValue else { return }
        attributeTouches.append(samples.count - 1)
        attributeValues.append(attributes)
    }

    /// Appends an item as it is: a touch record is taken apart into the columns (its session id
    /// added as given), any other item kept whole. `raw` is a touch record's line.
    public mutating func append(_ item: RecordItem, raw: UnsafeBufferPointer<UInt8>) {
        switch item {
        case .touch(let r):
            let k = sessionIDs.last == r.session ? Int32(sessionIDs.count - 1) : addSessionID(r.session)
            appendTouch(r.sample, session: k, line: r.source.line, file: r.source.file, raw: raw)
            if r.hasAttributes { setAttributesOfLastTouch(r.attributes) }
        default:
            others.append(item)
            otherPositions.append(samples.count)
        }
    }

    /// `append(_:raw:)` with the raw text as a `String` (a source that has no bytes to show).
    public mutating func append(_ item: RecordItem, rawText: String) {
        var text = rawText
        text.withUTF8 { append(item, raw: $0) }
    }

    // MARK: Reading (session assembly)

    /// Touch record `i`'s line as `RecordSource.lastRaw` gives it.
    public func rawText(ofTouch i: Int) -> String {
        let start = i == 0 ? 0 : rawEnds[i - 1]
        return raw.withUnsafeBufferPointer { b in
            String(decoding: UnsafeBufferPointer(rebasing: b[start..<rawEnds[i]]), as: UTF8.self)
        }
    }

    /// Touch record `i` as a `TouchRecord` (its attributes looked up: for a few records only).
    public func record(ofTouch i: Int) -> TouchRecord {
        var r = TouchRecord(session: sessionIDs[Int(sessionIndex[i])], sample: samples[i],
                            source: SourceLocation(file: fileName(ofTouch: i), line: lines[i]))
        if let a = attributes(ofTouch: i) { r.attributes = a }
        return r
    }

    /// Touch record `i`'s attributes, nil when it gives none.
    public func attributes(ofTouch i: Int) -> SessionAttributes? {
        guard let k = Self.search(attributeTouches, i), attributeTouches[k] == i else { return nil }
        return attributeValues[k]
    }

    /// The name of the input touch record `i` was read from.
    public func fileName(ofTouch i: Int) -> String {
        guard var k = Self.search(fileStarts, i) else { return "" }
        if fileStarts[k] > i { k -= 1 }
        return k >= 0 ? fileNames[k] : ""
    }

    /// The first index whose value is ≥ `value` (binary search in a sorted array), clamped to
    /// the last index; nil for an empty array.
    private static func search(_ a: [Int], _ value: Int) -> Int? {
        guard !a.isEmpty else { return nil }
        var lo = 0, hi = a.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if a[mid] < value { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The chunk's items in order, as a `RecordSource` would have returned them, each with its
    /// raw text (tests; a consumer that wants `RecordItem`s).
    public func forEachItem(_ body: (RecordItem, () -> String) throws -> Void) rethrows {
        var o = 0
        for i in 0..<touchCount {
            while o < others.count, otherPositions[o] == i { try body(others[o], { "" }); o += 1 }
            try body(.touch(record(ofTouch: i)), { rawText(ofTouch: i) })
        }
        while o < others.count { try body(others[o], { "" }); o += 1 }
    }
}

/// Hands out distinct chunk generations across threads.
final class GenerationCounter: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.wrappingAdd(1, ordering: .relaxed).newValue }
}

/// Why `ChunkedRecordSource.read(into:limit:yieldingBeforeWait:)` returned.
public enum ChunkRead: Sendable, Equatable {
    /// The chunk holds `limit` items; more may follow.
    case full
    /// The input would wait for data (`yieldingBeforeWait`); more may follow.
    case wouldWait
    /// The input is read to its end.
    case end
}

/// A record source that fills `RecordChunk`s itself, without a `RecordItem` per touch record
/// (NDJSON, CSV). Its `next()` returns the same items, one at a time.
public protocol ChunkedRecordSource: RecordSource {
    /// Appends the next items to `chunk` until it holds `limit` items or the input ends; with
    /// `yieldingBeforeWait`, also when reading on would wait for data (`ByteInput.nextLine(
    /// yieldingBeforeWait:)`).
    /// - Throws: `InputError` when the input cannot be read (the items read before stay in `chunk`).
    mutating func read(into chunk: inout RecordChunk, limit: Int, yieldingBeforeWait: Bool) throws -> ChunkRead
}

/// Any record source as a `ChunkedRecordSource`, an item at a time through `next()`, each
/// touch record's raw text from `lastRaw` (the device recordings).
public struct ItemChunks<Base: RecordSource>: ChunkedRecordSource {
    public var base: Base
    public init(_ base: Base) { self.base = base }

    public mutating func next() throws -> RecordItem? { try base.next() }
    public var lastRaw: String { base.lastRaw }

    public mutating func read(into chunk: inout RecordChunk, limit: Int, yieldingBeforeWait: Bool) throws -> ChunkRead {
        while chunk.count < limit {
            guard let item = try base.next() else { return .end }
            if case .touch = item { chunk.append(item, rawText: base.lastRaw) } else { chunk.append(item, rawText: "") }
        }
        return .full
    }
}
