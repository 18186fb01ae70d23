// Records: what a log line becomes before sessions are assembled.
import PressCore

/// Where a record came from: the input's name (a file path, or `-` for standard input) and its
/// 1-based line number.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public init(file: String, line: Int) { self.file = file; self.line = line }
    /// `file:line`, the form error messages use.
    public var description: String { "\(file):\(line)" }
}

/// One touch sample of one session, with any session attributes given on the same line.
///
/// Most records carry no attributes (a log gives them on the `began` record only), so they are
/// held in a shared box that is nil when empty: a record is small to copy and pass along, and
/// `hasAttributes` says without building an empty value whether there is anything to merge.
public struct TouchRecord: Hashable, Sendable {
    public var session: String
    public var sample: TouchSample
    public var source: SourceLocation
    @usableFromInline var attributesBox: AttributesBox?

    /// The session attributes given on this record (empty when none).
    public var attributes: SessionAttributes {
        @inlinable get { attributesBox?.value ?? SessionAttributes() }
        set { attributesBox = newValue.hasAnyValue ? AttributesBox(newValue) : nil }
    }

    /// True when the record gives at least one session attribute.
    @inlinable public var hasAttributes: Bool { attributesBox != nil }

    public init(session: String, sample: TouchSample, attributes: SessionAttributes = SessionAttributes(),
                source: SourceLocation) {
        self.session = session; self.sample = sample; self.source = source
        attributesBox = attributes.hasAnyValue ? AttributesBox(attributes) : nil
    }

    /// A record without attributes.
    init(session: String, sample: TouchSample, source: SourceLocation) {
        self.session = session; self.sample = sample; self.source = source
        attributesBox = nil
    }

    public static func == (a: TouchRecord, b: TouchRecord) -> Bool {
        a.session == b.session && a.sample == b.sample && a.source == b.source && a.attributes == b.attributes
    }

    public func hash(into h: inout Hasher) {
        h.combine(session); h.combine(sample); h.combine(source); h.combine(attributes)
    }
}

/// Non-empty session attributes, shared between copies of a record.
@usableFromInline final class AttributesBox: Sendable {
    @usableFromInline let value: SessionAttributes
    @usableFromInline init(_ value: SessionAttributes) { self.value = value }
}

/// A line that could not be read: where, why (one sentence saying what is wrong), and the raw
/// text exactly as read, so it can be stored and nothing is lost.
public struct Reject: Hashable, Sendable, Error, CustomStringConvertible {
    public var source: SourceLocation
    public var reason: String
    public var raw: String
    public init(source: SourceLocation, reason: String, raw: String) {
        self.source = source; self.reason = reason; self.raw = raw
    }
    /// `file:line: reason`
    public var description: String { "\(source): \(reason)" }
}
