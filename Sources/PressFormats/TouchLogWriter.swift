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

/// Writes touch records as NDJSON or CSV lines into a byte buffer.
///
/// ```swift
/// var w = TouchLogWriter(format: .csv)
/// w.writeHeader()
/// w.append(record)
/// if w.buffer.count >= 1 << 20 { flush(w.buffer); w.removeAll() }
/// ```
///
/// Numbers are the shortest text that reads back as the same Double: Swift's `description` for a
/// `TouchRecord`, exact fixed-point decimals for a `SyntheticSample` (microseconds as seconds with
/// up to 6 decimals, hundredths of a point with up to 2), whose parse is the same Double as the
/// sample's `t`, `x`, `y`.
public struct TouchLogWriter: Sendable {
    /// The CSV header: the five sample columns, then the session attributes.
    public static let csvHeader = "session,t,phase,x,y,config,variant,control,frame_x,frame_y,frame_w,frame_h,container,scroll_axis,user,screen,app_version"

    public let format: TouchLogFormat
    /// The bytes written so far and not yet removed.
    public private(set) var buffer: [UInt8] = []

    /// A writer with `capacity` bytes reserved (1 MiB by default, the chunk size worth draining).
    public init(format: TouchLogFormat, capacity: Int = 1 << 20) {
        self.format = format
        buffer.reserveCapacity(capacity + 4096)
    }

    /// Empties the buffer, keeping its capacity.
    public mutating func removeAll() { buffer.removeAll(keepingCapacity: true) }

    /// Writes the CSV header line; nothing for NDJSON.
    public mutating func writeHeader() {
        if format == .csv { raw(Self.csvHeader); byte(0x0A) }
    }

    // MARK: Records

    /// Appends one synthetic record: `session.samples[index]`, with the session's attributes when
    /// it is the `began` sample.
    public mutating func append(_ session: SyntheticSession, sample index: Int) {
        let s = session.samples[index]
        let began = s.phase == .began
        switch format {
        case .ndjson:
            raw("{\"session\":"); jsonString(session.id)
            raw(",\"t\":"); fixed(s.microseconds, decimals: 6)
            raw(",\"phase\":\""); raw(s.phase.rawValue)
            raw("\",\"x\":"); fixed(s.xHundredths, decimals: 2)
            raw(",\"y\":"); fixed(s.yHundredths, decimals: 2)
            if began {
                raw(",\"config\":"); jsonString(session.config)
                raw(",\"variant\":"); jsonString(session.variant)
                raw(",\"control\":"); jsonString(session.control)
                raw(",\"frame\":["); frameNumbers(session.frame, separator: 0x2C); byte(0x5D)
                raw(",\"container\":"); jsonString(session.container)
                if let a = session.scrollAxis { raw(",\"scroll_axis\":\""); raw(a.rawValue); byte(0x22) }
                raw(",\"user\":"); jsonString(session.user)
                raw(",\"screen\":"); jsonString(session.screen)
                raw(",\"app_version\":"); jsonString(session.appVersion)
            }
            raw("}\n")
        case .csv:
            csvField(session.id); byte(0x2C)
            fixed(s.microseconds, decimals: 6); byte(0x2C)
            raw(s.phase.rawValue); byte(0x2C)
            fixed(s.xHundredths, decimals: 2); byte(0x2C)
            fixed(s.yHundredths, decimals: 2)
            if began {
                byte(0x2C); csvField(session.config)
                byte(0x2C); csvField(session.variant)
                byte(0x2C); csvField(session.control)
                byte(0x2C); frameNumbers(session.frame, separator: 0x2C)
                byte(0x2C); csvField(session.container)
                byte(0x2C); if let a = session.scrollAxis { raw(a.rawValue) }
                byte(0x2C); csvField(session.user)
                byte(0x2C); csvField(session.screen)
                byte(0x2C); csvField(session.appVersion)
            } else {
                raw(",,,,,,,,,,,,")
            }
            byte(0x0A)
        }
    }

    /// Appends any touch record with the attributes it carries (a `device` and unknown `extra`
    /// fields only in NDJSON: the CSV header has no column for them).
    public mutating func append(_ record: TouchRecord) {
        let s = record.sample, a = record.attributes
        switch format {
        case .ndjson:
            raw("{\"session\":"); jsonString(record.session)
            raw(",\"t\":"); double(s.t)
            raw(",\"phase\":\""); raw(s.phase.rawValue)
            raw("\",\"x\":"); double(s.x)
            raw(",\"y\":"); double(s.y)
            func text(_ key: String, _ value: String?) {
                guard let value else { return }
                raw(",\"" + key + "\":"); jsonString(value)
            }
            text("config", a.config); text("variant", a.variant); text("control", a.control)
            if let f = a.frame {
                raw(",\"frame\":[")
                double(f.x); byte(0x2C); double(f.y); byte(0x2C); double(f.width); byte(0x2C); double(f.height)
                byte(0x5D)
            }
            text("container", a.container?.name); text("scroll_axis", a.scrollAxis?.rawValue)
            text("user", a.user); text("screen", a.screen); text("app_version", a.appVersion)
            text("device", a.device)
            if let extra = a.extra {
                // `extra` is a JSON object's text: splice its members in.
                let inner = extra.utf8.dropFirst().dropLast()
                if extra.utf8.first == 0x7B, extra.utf8.last == 0x7D, !inner.allSatisfy({ $0 == 0x20 }) {
                    byte(0x2C); buffer.append(contentsOf: inner)
                }
            }
            raw("}\n")
        case .csv:
            csvField(record.session); byte(0x2C)
            double(s.t); byte(0x2C)
            raw(s.phase.rawValue); byte(0x2C)
            double(s.x); byte(0x2C)
            double(s.y)
            func text(_ value: String?) { byte(0x2C); if let value { csvField(value) } }
            text(a.config); text(a.variant); text(a.control)
            if let f = a.frame {
                byte(0x2C); double(f.x); byte(0x2C); double(f.y); byte(0x2C); double(f.width); byte(0x2C); double(f.height)
            } else {
                raw(",,,,")
            }
            text(a.container?.name); text(a.scrollAxis?.rawValue)
            text(a.user); text(a.screen); text(a.appVersion)
            byte(0x0A)
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
