// Record sources that can show the bytes of the line an item came from without making a String:
// what lets ingest read ahead on another thread and still store a later reject's raw text.

/// A `RecordSource` whose last line (or CSV row) can be read as bytes. `lastRaw` is
/// `String(decoding:as: UTF8.self)` of the same bytes.
public protocol RawLineSource: RecordSource {
    /// Calls `body` with the bytes of the line (or CSV row) that produced the item last returned
    /// (empty before the first); the pointer is valid only during the call.
    func withLastRawBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T
}

extension NDJSONReader: RawLineSource {
    public func withLastRawBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try body(lastLine ?? UnsafeBufferPointer(start: nil, count: 0))
    }
}

extension CSVReader: RawLineSource {
    public func withLastRawBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        if lastWasScratch { return try scratch.withUnsafeBufferPointer(body) }
        return try body(lastLine ?? UnsafeBufferPointer(start: nil, count: 0))
    }
}

extension ControlRecordCollector: RawLineSource where Base: RawLineSource {
    public func withLastRawBytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws -> T) rethrows -> T {
        try base.withLastRawBytes(body)
    }
}
