// Touch records → NDJSON or CSV lines, the formats `pressdb ingest` reads. Built for speed: lines
// are assembled as bytes in one buffer that the caller drains in large chunks, and numbers are
// printed without Foundation.
import PressCore

/// The text formats of a touch log.
public enum TouchLogFormat: String, CaseIterable, Sendable {
    /// One JSON object per line.
    case ndjson
    /// RFC 4180 CSV with the header `TouchLogWriter.csvHeader`; session attributes only on the
    /// `began` row, empty elsewhere.
    case csv
}

/// Writes touch records as NDJSON or CSV lines into a byte buffer: the sample's five fields,
/// then the session attributes by the field table (`SessionAttribute`), then unknown fields.
///
/// ```swift
/// var w = TouchLogWriter(format: .csv)
/// w.writeHeader()
/// w.append(record)
/// if w.buffer.count >= 1 << 20 { flush(w.buffer); w.removeAll() }
/// ```
///
/// Numbers are the shortest text that reads back as the same Double (`JSONText.number`) for a
/// `TouchRecord`, exact fixed-point decimals for a `SyntheticSample` (microseconds as seconds
/// with up to 6 decimals, hundredths of a point with up to 2), whose parse is the same Double as
/// the sample's `t`, `x`, `y`. A container is written as its name, or for custom parameters as
/// the object of all four (`Container.storedText`).
public struct TouchLogWriter: Sendable {
    public let format: TouchLogFormat
    /// The attributes written first, in this order, and the only ones CSV has columns for. By
    /// default those a synthetic log gives (`SyntheticSession.attributes`: every attribute but
    /// `device`). NDJSON also writes any other attribute a record gives, in table order, and its
    /// unknown fields; CSV has no column for those.
    public let attributes: [SessionAttribute]
    /// The bytes written so far and not yet removed.
    public private(set) var buffer: [UInt8] = []
    /// The CSV cells of a row without attributes: one comma per attribute column.
    private let emptyAttributeCells: [UInt8]
    /// The attributes after `attributes`, in table order.
    private let others: [SessionAttribute]

    /// A writer with `capacity` bytes reserved (1 MiB by default, the chunk size worth draining).
    public init(format: TouchLogFormat, attributes: [SessionAttribute] = SyntheticSession.attributes,
                capacity: Int = 1 << 20) {
        self.format = format
        self.attributes = attributes
        others = SessionAttribute.allCases.filter { !attributes.contains($0) }
        emptyAttributeCells = Array(repeating: 0x2C, count: attributes.reduce(0) { $0 + $1.field.columns.count })
        buffer.reserveCapacity(capacity + 4096)
    }

    /// The CSV header: the five sample columns, then the attributes' columns
    /// (`session,t,phase,x,y,config,variant,control,frame_x,frame_y,frame_w,frame_h,…` by default).
    public var csvHeader: String {
        (["session", "t", "phase", "x", "y"] + attributes.flatMap(\.field.columns)).joined(separator: ",")
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() { buffer.removeAll(keepingCapacity: true) }

    /// Writes the CSV header line; nothing for NDJSON.
    public mutating func writeHeader() {
        if format == .csv { raw(csvHeader); byte(0x0A) }
    }

    // MARK: Records

    /// Appends one synthetic record: `session.samples[index]`, with the session's attributes when
    /// it is the `began` sample.
    public mutating func append(_ session: SyntheticSession, sample index: Int) {
        let s = session.samples[index]
        let attributes = s.phase == .began ? session.attributes : nil
        switch format {
        case .ndjson:
            raw("{\"session\":"); jsonString(session.id)
            raw(",\"t\":"); fixed(s.microseconds, decimals: 6)
            raw(",\"phase\":\""); raw(s.phase.rawValue)
            raw("\",\"x\":"); fixed(s.xHundredths, decimals: 2)
            raw(",\"y\":"); fixed(s.yHundredths, decimals: 2)
            if let attributes { ndjsonAttributes(attributes) }
            raw("}\n")
        case .csv:
            csvField(session.id); byte(0x2C)
            fixed(s.microseconds, decimals: 6); byte(0x2C)
            raw(s.phase.rawValue); byte(0x2C)
            fixed(s.xHundredths, decimals: 2); byte(0x2C)
            fixed(s.yHundredths, decimals: 2)
            csvAttributes(attributes)
            byte(0x0A)
        }
    }

    /// Appends any touch record with the attributes it carries.
    public mutating func append(_ record: TouchRecord) {
        let s = record.sample
        let attributes = record.hasAttributes ? record.attributes : nil
        switch format {
        case .ndjson:
            raw("{\"session\":"); jsonString(record.session)
            raw(",\"t\":"); double(s.t)
            raw(",\"phase\":\""); raw(s.phase.rawValue)
            raw("\",\"x\":"); double(s.x)
            raw(",\"y\":"); double(s.y)
            if let attributes { ndjsonAttributes(attributes) }
            raw("}\n")
        case .csv:
            csvField(record.session); byte(0x2C)
            double(s.t); byte(0x2C)
            raw(s.phase.rawValue); byte(0x2C)
            double(s.x); byte(0x2C)
            double(s.y)
            csvAttributes(attributes)
            byte(0x0A)
        }
    }

    // MARK: Attributes, by kind

    /// `,"key":value` for every attribute given (`attributes`' first), then the unknown fields.
    mutating func ndjsonAttributes(_ a: SessionAttributes) {
        for attribute in attributes { ndjsonAttribute(attribute, a) }
        for attribute in others { ndjsonAttribute(attribute, a) }
        for f in a.extraFields {
            byte(0x2C); jsonString(f.key); byte(0x3A); raw(f.json)
        }
    }

    /// The attributes as one JSON object, `{"key":value,…}` as an NDJSON record carries them
    /// (`attributes` first, then the others in table order, then the unknown fields); `{}` when
    /// none is given.
    public mutating func appendAttributeObject(_ a: SessionAttributes) {
        let start = buffer.count
        ndjsonAttributes(a)
        if buffer.count == start { raw("{}") } else { buffer[start] = 0x7B; byte(0x7D) }
    }

    mutating func ndjsonAttribute(_ attribute: SessionAttribute, _ a: SessionAttributes) {
        guard let value = a[value: attribute] else { return }
        byte(0x2C); byte(0x22); raw(attribute.key); raw("\":")
        switch value {
        case .text(let s): jsonString(s)
        case .frame(let f):
            byte(0x5B); frameNumbers(f, separator: 0x2C); byte(0x5D)
        case .container(let c):
            if let name = c.name { jsonString(name) } else { raw(c.storedText) }
        case .scrollAxis(let axis): jsonString(axis.rawValue)
        case .size(let w): buffer.append(contentsOf: w.json.utf8)
        case .systemGestures(let g): buffer.append(contentsOf: g.json.utf8)
        }
    }

    /// The attribute cells of a CSV row, each after a comma (all empty for nil).
    mutating func csvAttributes(_ a: SessionAttributes?) {
        guard let a else { buffer.append(contentsOf: emptyAttributeCells); return }
        for attribute in attributes {
            guard let value = a[value: attribute] else {
                for _ in attribute.field.columns { byte(0x2C) }
                continue
            }
            byte(0x2C)
            switch value {
            case .text(let s): csvField(s)
            case .frame(let f): frameNumbers(f, separator: 0x2C)
            case .container(let c): csvField(c.storedText)
            case .scrollAxis(let axis): raw(axis.rawValue)
            case .size(let w): csvField(w.text)
            case .systemGestures(let g): csvField(g.text)
            }
        }
    }

    // MARK: Pieces

    @inline(__always) mutating func byte(_ b: UInt8) { buffer.append(b) }

    /// ASCII text known to need no escaping.
    @inline(__always) mutating func raw(_ s: StaticString) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }
    @inline(__always) mutating func raw(_ s: String) {
        var s = s
        s.withUTF8 { buffer.append(contentsOf: $0) }
    }

    /// A JSON string (`JSONText.appendString`).
    @inline(__always) mutating func jsonString(_ s: String) { JSONText.appendString(s, to: &buffer) }

    /// A CSV field (RFC 4180 §2): quoted, with quotes doubled, when it holds a comma, a quote, CR or LF.
    mutating func csvField(_ s: String) {
        var s = s
        s.withUTF8 { bytes in
            if !bytes.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }) {
                buffer.append(contentsOf: bytes)
                return
            }
            buffer.append(0x22)
            for b in bytes {
                if b == 0x22 { buffer.append(0x22) }
                buffer.append(b)
            }
            buffer.append(0x22)
        }
    }

    /// A whole number in decimal.
    @inline(__always) mutating func integer(_ n: Int) { JSONText.appendInteger(Int64(n), to: &buffer) }

    /// `value` / 10^`decimals` as a decimal with trailing zeros dropped but at least one decimal
    /// (12034000, 6 → `12.034`; 40200, 2 → `402.0`), the text Swift's `description` gives the
    /// same Double.
    mutating func fixed(_ value: Int, decimals: Int) {
        var scale = 1
        for _ in 0..<decimals { scale *= 10 }
        if value < 0 { byte(0x2D) }
        let m = Int(value.magnitude)
        integer(m / scale)
        byte(0x2E)
        var fraction = m % scale
        if fraction == 0 { byte(0x30); return }
        var width = decimals
        while fraction % 10 == 0 { fraction /= 10; width -= 1 }
        // Leading zeros of the fraction, then its digits.
        var leading = width - 1
        var f = fraction
        while f >= 10 { f /= 10; leading -= 1 }
        for _ in 0..<leading { byte(0x30) }
        integer(fraction)
    }

    /// A Double in its shortest round-trip text (`JSONText.appendNumber`; negative zero as `-0`).
    @inline(__always) mutating func double(_ d: Double) { JSONText.appendNumber(d, to: &buffer) }

    /// The frame's four numbers (whole points print without a fraction).
    mutating func frameNumbers(_ f: Rect, separator: UInt8) {
        double(f.x); byte(separator); double(f.y); byte(separator); double(f.width); byte(separator); double(f.height)
    }
}
