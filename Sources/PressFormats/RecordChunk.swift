// Records a chunk at a time, in columns: what a reader hands to session assembly. A touch
// record is a sample, an index into the chunk's session ids (each id once per chunk, not a
// `String` per record), a line number and its line's bytes; attributes only for the records
// that give some. Configurations, layout controls and rejects keep their `RecordItem`, placed
// between the touch records they came between.
import PressCore
import Synchronization

/// One touch record of a chunk: its sample, its session (an index into the chunk's
/// `sessionIDs`), its 1-based line number, and where its line's bytes end in the chunk's raw
/// text.
public struct ChunkTouch: Sendable {
    /// The record's sample: `t` in seconds, `x` and `y` in points, as the line gives them.
    public var sample: TouchSample
    /// An index into `RecordChunk.sessionIDs`.
    public var session: Int32
    /// The record's 1-based line number in its input.
    public var line: Int
    /// The end of its line's bytes in the chunk's raw text (the previous record's end is the start).
    @usableFromInline var rawEnd: Int
}

/// The storage of a chunk's touch records and their lines' bytes, shared by copies of a chunk
/// until one of them appends (`RecordChunk` copies it first). Both buffers only grow; only the
/// prefixes a chunk counts (`touchCount`, `rawCount`) are initialized.
@usableFromInline
final class ChunkTouches: @unchecked Sendable {
    @usableFromInline let touches: UnsafeMutablePointer<ChunkTouch>
    @usableFromInline let raw: UnsafeMutablePointer<UInt8>
    let touchCapacity: Int
    let rawCapacity: Int

    init(touchCapacity: Int, rawCapacity: Int) {
        self.touchCapacity = touchCapacity
        self.rawCapacity = rawCapacity
        touches = .allocate(capacity: touchCapacity)
        raw = .allocate(capacity: rawCapacity)
    }

    /// A copy of `other`'s first `touchCount` records and `rawCount` bytes, with room for at
    /// least as many more as given.
    convenience init(copying other: ChunkTouches, touchCount: Int, rawCount: Int, touchCapacity: Int, rawCapacity: Int) {
        self.init(touchCapacity: touchCapacity, rawCapacity: rawCapacity)
        touches.initialize(from: other.touches, count: touchCount)
        raw.initialize(from: other.raw, count: rawCount)
    }

    deinit {
        touches.deallocate()   // `ChunkTouch` is trivial: nothing to deinitialize
        raw.deallocate()
    }
}

/// Items read from an input, in input order: touch records a `ChunkTouch` each, their lines'
/// bytes back to back, session ids once per chunk, attributes only where given, other items whole.
///
///     var chunk = RecordChunk()
///     while try reader.read(into: &chunk, limit: 2_048) == .more { … chunk.removeAll() }
///
/// Touch record `i` (`0..<touchCount`) is `touch(i)`: its sample of session
/// `sessionIDs[touch(i).session]`, read from line `touch(i).line` of the input named
/// `fileName(ofTouch: i)`; `attributes(ofTouch:)` its attributes (nil for most). `others[j]` is
/// an item that came after `otherPositions[j]` touch records of the chunk. `rawText(ofTouch:)`
/// is the line's text, for a reject found later.
public struct RecordChunk: Sendable {
    /// The touch records, one `ChunkTouch` each (one write a record, where four arrays paid
    /// uniqueness and capacity checks each), and their lines back to back.
    @usableFromInline var storage: ChunkTouches
    /// Touch records in the chunk.
    public private(set) var touchCount = 0
    /// The bytes of `storage.raw` that hold the touch records' lines.
    var rawCount = 0
    /// Session ids of this chunk's touch records (usually each once).
    public private(set) var sessionIDs: [String] = []
    /// The touch records that give attributes, in order, and theirs.
    public private(set) var attributeTouches: [Int] = []
    public private(set) var attributeValues: [SessionAttributes] = []
    /// Items other than touch records, and how many touch records came before each.
    public private(set) var others: [RecordItem] = []
    public private(set) var otherPositions: [Int] = []
    /// The input names of the touch records: from `fileStarts[k]` on, `fileNames[k]`.
    public private(set) var fileStarts: [Int] = []
    public private(set) var fileNames: [String] = []
    /// Told apart from every other chunk a reader filled (readers keep session ids interned per
    /// chunk by it).
    public private(set) var generation: Int
    /// `ByteInput.bytesRead` after the last item (set by whoever hands the chunk on).
    public var bytesRead = 0

    private static let generations = GenerationCounter()

    /// A chunk with room for `capacity` touch records (and 128 bytes of line each) before it grows.
    public init(capacity: Int = 0) {
        generation = Self.generations.next()
        storage = ChunkTouches(touchCapacity: max(capacity, 16), rawCapacity: max(capacity, 16) * 128)
    }

    /// Touch record `i` (`0..<touchCount`).
    @inlinable public func touch(_ i: Int) -> ChunkTouch {
        precondition(i >= 0 && i < touchCount, "touch record index out of range")
        return storage.touches[i]
    }

    /// Items in the chunk: touch records and others.
    public var count: Int { touchCount + others.count }
    public var isEmpty: Bool { touchCount == 0 && others.isEmpty }

    /// Empties the chunk for reuse, keeping its capacity; it becomes a new generation.
    public mutating func removeAll() {
        touchCount = 0
        sessionIDs.removeAll(keepingCapacity: true)
        attributeTouches.removeAll(keepingCapacity: true)
        attributeValues.removeAll(keepingCapacity: true)
        others.removeAll(keepingCapacity: true)
        otherPositions.removeAll(keepingCapacity: true)
        rawCount = 0
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
    /// record's (set with `setFile`): the line copied after the others (one `memmove`), the
    /// record written in place.
    @inline(__always)
    mutating func appendTouch(_ sample: TouchSample, session: Int32, line: Int, raw: UnsafeBufferPointer<UInt8>) {
        let n = raw.count, end = rawCount + n
        if touchCount == storage.touchCapacity || end > storage.rawCapacity || !isKnownUniquelyReferenced(&storage) {
            grow(rawNeeded: end)
        }
        if n > 0 { (storage.raw + rawCount).update(from: raw.baseAddress!, count: n) }
        (storage.touches + touchCount).initialize(to: ChunkTouch(sample: sample, session: session, line: line, rawEnd: end))
        touchCount += 1
        rawCount = end
    }

    /// Makes `storage` this chunk's own, with room for one more touch record and `rawNeeded`
    /// bytes of lines.
    @inline(never)
    private mutating func grow(rawNeeded: Int) {
        let touches = touchCount < storage.touchCapacity ? storage.touchCapacity : 2 * storage.touchCapacity
        let bytes = rawNeeded <= storage.rawCapacity ? storage.rawCapacity : max(rawNeeded, 2 * storage.rawCapacity)
        storage = ChunkTouches(copying: storage, touchCount: touchCount, rawCount: rawCount,
                               touchCapacity: touches, rawCapacity: bytes)
    }

    private mutating func noteFile(_ file: String) {
        fileStarts.append(touchCount)
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
        attributeTouches.append(touchCount - 1)
        attributeValues.append(attributes)
    }

    /// Gives the last touch record appended its attributes (when it has any).
    mutating func setAttributesOfLastTouch(_ attributes: SessionAttributes) {
        guard attributes.hasAnyValue else { return }
        attributeTouches.append(touchCount - 1)
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
            otherPositions.append(touchCount)
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
        let end = touch(i).rawEnd, start = i == 0 ? 0 : storage.touches[i - 1].rawEnd
        return String(decoding: UnsafeBufferPointer(start: storage.raw + start, count: end - start), as: UTF8.self)
    }

    /// Touch record `i` as a `TouchRecord` (its attributes looked up: for a few records only).
    public func record(ofTouch i: Int) -> TouchRecord {
        let t = touch(i)
        var r = TouchRecord(session: sessionIDs[Int(t.session)], sample: t.sample,
                            source: SourceLocation(file: fileName(ofTouch: i), line: t.line))
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
