// Session attributes: the field table, one row per attribute, and the values of one session.
//
// Everything that reads, merges, stores, writes or filters by attributes goes through the table:
// the NDJSON and CSV readers (PressFormats), merging a session's records (here), the `sessions`
// and `pending` columns and their binding (PressStore), the log writer (PressFormats), and the
// report and comparison filters (PressStore). Adding a plain text attribute is one case and its
// row below, plus a migration that adds its column (docs/architecture.md, "Adding an attribute").

/// How an attribute's value is typed, read, written and stored. Each kind is handled once per
/// reader, writer and store; attributes of a kind need nothing of their own.
public enum AttributeKind: Hashable, Sendable {
    /// Free text: a JSON string, a CSV cell, a `TEXT` column.
    case text
    /// A rectangle in points: `[x, y, width, height]` in JSON; in CSV and the database four
    /// columns `<key>_x`, `<key>_y`, `<key>_w`, `<key>_h` (`REAL`). Finite, width and height ≥ 0.
    case frame
    /// A scroll view: a name (`none`, `scroll`, `table`, `scroll-immediate`) or an object of
    /// parameters (`Container`); stored as the name, or for parameters as `Container.storedText`.
    case container
    /// `vertical`, `horizontal` or `both` (`ScrollAxis`).
    case scrollAxis
    /// A size in points (`WindowSize`): `[width, height]` in JSON, `<w>x<h>` in CSV and the
    /// database (one `TEXT` column).
    case size
    /// A set of system edge gestures (`SystemGestures`): a list of names in JSON, the names
    /// joined by `+` (or `none`) in CSV and the database.
    case systemGestures

    /// How many database columns (and CSV columns) a value of this kind takes: 4 for a frame, else 1.
    @inlinable public var columnCount: Int { self == .frame ? 4 : 1 }
}

/// How reports use an attribute (its column in the `session_results` view).
public enum ReportUse: Int, Hashable, Sendable, Comparable {
    /// Not a report key.
    case none
    /// A `--where KEY=VALUE` filter of `pressdb report` and `pressdb compare`.
    case filter
    /// A filter and a `--by KEY` grouping of `pressdb report`.
    case grouping

    public static func < (a: ReportUse, b: ReportUse) -> Bool { a.rawValue < b.rawValue }
}

/// One row of the field table: the attribute's key (its NDJSON key, CSV header and database
/// column), its kind, and its use in reports.
public struct AttributeField: Hashable, Sendable {
    /// The NDJSON key and CSV header (`app_version`); also the column name, except for a frame.
    public let key: String
    public let kind: AttributeKind
    public let report: ReportUse

    public init(_ key: String, _ kind: AttributeKind, report: ReportUse = .none) {
        self.key = key; self.kind = kind; self.report = report
    }

    /// The database columns (and CSV headers) that hold the value: `[key]`, or for a frame
    /// `<key>_x`, `<key>_y`, `<key>_w`, `<key>_h`.
    public var columns: [String] {
        kind == .frame ? ["_x", "_y", "_w", "_h"].map { key + $0 } : [key]
    }
}

/// A session attribute. The cases and `definition` are the field table.
public enum SessionAttribute: Int, CaseIterable, Hashable, Sendable {
    case config, variant, control, frame, container, scrollAxis, screen, appVersion, user, device, display, window,
         systemGestures

    /// The field table: key, kind, report use. Readers, the store and the writer follow this
    /// order (CSV columns, `sessions` columns as bound).
    var definition: AttributeField {
        switch self {
        // The configuration the app ran (a preset or a stored one); `--config` gives a default.
        case .config: AttributeField("config", .text, report: .grouping)
        // The A/B arm; the store defaults it to the config name (`variant_given` = 0).
        case .variant: AttributeField("variant", .text, report: .grouping)
        // Which button (an id of the app's choosing, or the layout control hit).
        case .control: AttributeField("control", .text, report: .grouping)
        // The control's frame in points, in the samples' space.
        case .frame: AttributeField("frame", .frame)
        // The scroll view around the control; replay defaults to `none`.
        case .container: AttributeField("container", .container)
        // The container's scroll axis; replay defaults to `vertical`.
        case .scrollAxis: AttributeField("scroll_axis", .scrollAxis)
        case .screen: AttributeField("screen", .text, report: .grouping)
        case .appVersion: AttributeField("app_version", .text, report: .grouping)
        case .user: AttributeField("user", .text, report: .filter)
        case .device: AttributeField("device", .text, report: .filter)
        // The display profile the session was seen on (`DisplayProfile`); replay defaults to
        // `iphone-60hz`.
        case .display: AttributeField("display", .text, report: .filter)
        // The app window's size in points; with `system_gestures` it places the screen edges
        // (reference §5.3). Replay ignores the edges without both.
        case .window: AttributeField("window", .size)
        // The system edge gestures active while the session ran (`back`, `home`).
        case .systemGestures: AttributeField("system_gestures", .systemGestures)
        }
    }

    /// The attribute's row of the field table.
    @inlinable public var field: AttributeField { SessionAttribute.fields[rawValue] }
    /// The NDJSON key and CSV header.
    @inlinable public var key: String { field.key }
    @inlinable public var kind: AttributeKind { SessionAttribute.kinds[rawValue] }

    /// Every row, in case order.
    public static let fields: [AttributeField] = allCases.map(\.definition)
    /// Every row's kind (read per value, without copying the row).
    public static let kinds: [AttributeKind] = fields.map(\.kind)
    /// `allCases`, built once (the synthesized `allCases` builds a new array on every use, and
    /// the store and the readers walk the table once per session).
    public static let ordered: [SessionAttribute] = allCases

    /// The attribute whose key is `key` (`app_version`), or nil.
    public static func named(_ key: String) -> SessionAttribute? { byKey[key] }
    static let byKey: [String: SessionAttribute] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.key, $0) })

    /// The attributes reports may filter by (`--where`), in table order.
    public static let reportFilters: [SessionAttribute] = allCases.filter { $0.field.report >= .filter }
    /// The attributes reports may group by (`--by`), in table order.
    public static let reportGroupings: [SessionAttribute] = allCases.filter { $0.field.report == .grouping }

    /// Every column of every attribute, in table order: `config, variant, …, frame_x, …, device`.
    public static let columns: [String] = allCases.flatMap(\.field.columns)
}

/// An attribute's value, of its attribute's kind.
public enum AttributeValue: Hashable, Sendable {
    case text(String)
    case frame(Rect)
    case container(Container)
    case scrollAxis(ScrollAxis)
    case size(WindowSize)
    case systemGestures(SystemGestures)

    public var kind: AttributeKind {
        switch self {
        case .text: .text
        case .frame: .frame
        case .container: .container
        case .scrollAxis: .scrollAxis
        case .size: .size
        case .systemGestures: .systemGestures
        }
    }

    /// The value as a reject reason quotes it: text and scroll axes as JSON strings, a frame as
    /// `[x, y, width, height]`, a container as its stored text.
    public var quoted: String {
        switch self {
        case .text(let s): JSONText.string(s)
        case .frame(let f): "[\(f.x), \(f.y), \(f.width), \(f.height)]"
        case .container(let c): c.storedText
        case .scrollAxis(let a): JSONText.string(a.rawValue)
        case .size(let w): w.json
        case .systemGestures(let g): g.json
        }
    }
}

/// A field pressdb does not know, kept as given: its key and its value as JSON text (`7`,
/// `"x"`, `{"a":1}`; from CSV always a string).
public struct ExtraField: Hashable, Sendable {
    public var key: String
    public var json: String
    public init(key: String, json: String) { self.key = key; self.json = json }
}

/// The attributes of one session (or of one record, before they are merged into its session):
/// a value per attribute of the table, every one optional, and the unknown fields, so nothing
/// read is dropped. Usually given on the `began` record.
public struct SessionAttributes: Hashable, Sendable {
    /// Values by `SessionAttribute.rawValue`; empty (no allocation) while nothing is set.
    @usableFromInline var values: [AttributeValue?] = []
    /// Unknown fields, sorted by key (UTF-8 bytes), keys distinct.
    public private(set) var extraFields: [ExtraField] = []

    public init() {}

    /// Attributes from a value per attribute, by `SessionAttribute.rawValue` (as the store reads
    /// them, one column after another).
    public init(values: [AttributeValue?]) {
        precondition(values.count == SessionAttribute.ordered.count, "one value per attribute")
        assert(zip(SessionAttribute.ordered, values).allSatisfy { a, v in v.map { $0.kind == a.kind } ?? true })
        if values.contains(where: { $0 != nil }) { self.values = values }
    }

    /// `init(values:)` for values of which the caller knows at least one is given (the CSV and
    /// NDJSON readers make the array at the first value they set): not looked through again for
    /// one (each value copied out and compared with nil). For the package's readers only: an
    /// array without a given value would
    /// make attributes that differ from `SessionAttributes()` while having none.
    @inlinable package init(givenValues values: [AttributeValue?]) {
        precondition(values.count == SessionAttribute.ordered.count, "one value per attribute")
        assert(values.contains { $0 != nil }, "one value given")
        self.values = values
    }

    /// Attributes with the given values; `text` sets text attributes by attribute
    /// (`[.user: "u1", .appVersion: "3.1"]`).
    public init(config: String? = nil, variant: String? = nil, control: String? = nil, frame: Rect? = nil,
                container: Container? = nil, scrollAxis: ScrollAxis? = nil, text: [SessionAttribute: String] = [:],
                extraFields: [ExtraField] = []) {
        self.config = config; self.variant = variant; self.control = control; self.frame = frame
        self.container = container; self.scrollAxis = scrollAxis
        for (a, s) in text { self[a] = s }
        setExtraFields(extraFields)
    }

    /// The value of `attribute`, nil when not given.
    @inlinable public subscript(value attribute: SessionAttribute) -> AttributeValue? {
        get { values.isEmpty ? nil : values[attribute.rawValue] }
        set {
            precondition(newValue.map { $0.kind == attribute.kind } ?? true, "\(attribute) takes a \(attribute.kind) value")
            if values.isEmpty {
                guard newValue != nil else { return }
                values = Array(repeating: nil, count: SessionAttribute.ordered.count)
            }
            values[attribute.rawValue] = newValue
        }
    }

    /// Whether `attribute` has a value (asked without copying the value out).
    @inlinable public func has(_ attribute: SessionAttribute) -> Bool {
        !values.isEmpty && values[attribute.rawValue] != nil
    }

    /// Calls `body` with the value per attribute, by `SessionAttribute.rawValue`, read in place
    /// (no value copied out): a buffer of `SessionAttribute.ordered.count` values, or an empty
    /// one while nothing is set.
    @inlinable public func withValues<R>(_ body: (UnsafeBufferPointer<AttributeValue?>) throws -> R) rethrows -> R {
        try values.withUnsafeBufferPointer(body)
    }

    /// A text attribute's value (nil when not given, or for an attribute of another kind).
    @inlinable public subscript(attribute: SessionAttribute) -> String? {
        get { if case .text(let s)? = self[value: attribute] { return s }; return nil }
        set { self[value: attribute] = newValue.map(AttributeValue.text) }
    }

    public var config: String? {
        get { self[.config] }
        set { self[.config] = newValue }
    }
    /// The variant as given (the store defaults it to the config name).
    public var variant: String? {
        get { self[.variant] }
        set { self[.variant] = newValue }
    }
    public var control: String? {
        get { self[.control] }
        set { self[.control] = newValue }
    }
    /// The control's frame in points, in the same space as the samples.
    public var frame: Rect? {
        get { if case .frame(let r)? = self[value: .frame] { return r }; return nil }
        set { self[value: .frame] = newValue.map(AttributeValue.frame) }
    }
    public var container: Container? {
        get { if case .container(let c)? = self[value: .container] { return c }; return nil }
        set { self[value: .container] = newValue.map(AttributeValue.container) }
    }
    public var scrollAxis: ScrollAxis? {
        get { if case .scrollAxis(let a)? = self[value: .scrollAxis] { return a }; return nil }
        set { self[value: .scrollAxis] = newValue.map(AttributeValue.scrollAxis) }
    }
    /// The app window's size in points (reference §5.3).
    public var window: WindowSize? {
        get { if case .size(let w)? = self[value: .window] { return w }; return nil }
        set { self[value: .window] = newValue.map(AttributeValue.size) }
    }
    /// The system edge gestures active (reference §5.3).
    public var systemGestures: SystemGestures? {
        get { if case .systemGestures(let g)? = self[value: .systemGestures] { return g }; return nil }
        set { self[value: .systemGestures] = newValue.map(AttributeValue.systemGestures) }
    }

    /// Replaces the unknown fields (sorted here; for a repeated key the first is kept).
    public mutating func setExtraFields(_ fields: [ExtraField]) {
        var sorted = fields.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        if sorted.count > 1 {
            var k = 1
            while k < sorted.count { if sorted[k].key == sorted[k - 1].key { sorted.remove(at: k) } else { k += 1 } }
        }
        extraFields = sorted
    }

    /// The unknown fields as one JSON object text with sorted keys (what `sessions.extra`
    /// stores), or nil when there are none.
    public var extra: String? {
        extraFields.isEmpty ? nil : JSONText.object(extraFields.map { ($0.key, $0.json) })
    }

    /// True when some value or unknown field is given (without building an empty value to
    /// compare with: readers ask once per record).
    @inlinable public var hasAnyValue: Bool {
        !extraFields.isEmpty || values.contains { $0 != nil }
    }

    /// True when nothing is given.
    public var isEmpty: Bool { !hasAnyValue }

    public static func == (a: SessionAttributes, b: SessionAttributes) -> Bool {
        if a.extraFields != b.extraFields { return false }
        if a.values.isEmpty && b.values.isEmpty { return true }
        return SessionAttribute.ordered.allSatisfy { a[value: $0] == b[value: $0] }
    }

    public func hash(into h: inout Hasher) {
        for attribute in SessionAttribute.ordered { h.combine(self[value: attribute]) }
        h.combine(extraFields)
    }
}

// MARK: - Merging a session's records

extension SessionAttributes: SessionMergeable {
    /// Adds a later record's attributes: unset values are filled, an identical repeat is fine,
    /// a different value is a conflict (reported, `self` unchanged). Unknown fields merge key by
    /// key under the same rule. The reason names the first conflicting field in table order.
    public mutating func merge(_ later: SessionAttributes) -> String? {
        if !later.hasAnyValue || later == self { return nil }
        var merged = self
        for attribute in SessionAttribute.ordered {
            guard let v = later[value: attribute] else { continue }
            if let old = merged[value: attribute] {
                if old != v { return "\"\(attribute.key)\" \(v.quoted) differs from \(old.quoted) given earlier" }
            } else {
                merged[value: attribute] = v
            }
        }
        if !later.extraFields.isEmpty, later.extraFields != merged.extraFields {
            var fields = merged.extraFields
            for f in later.extraFields {
                if let old = fields.first(where: { $0.key == f.key }) {
                    if old.json != f.json {
                        return "extra field \(JSONText.string(f.key)) \(f.json) differs from \(old.json) given earlier"
                    }
                } else {
                    fields.append(f)
                }
            }
            merged.setExtraFields(fields)
        }
        self = merged
        return nil
    }
}

extension Container {
    /// How pressdb stores a container: its name, or for custom parameters a JSON object with all
    /// four keys, sorted, numbers in shortest round-trip form (`JSONText`):
    /// `{"cancels_control_touches":true,"delays_content_touches":false,"hysteresis":10,"touch_delay":0.15}`.
    public var storedText: String {
        if let name { return name }
        return JSONText.object([
            ("cancels_control_touches", cancelsControlTouches ? "true" : "false"),
            ("delays_content_touches", delaysContentTouches ? "true" : "false"),
            ("hysteresis", JSONText.number(hysteresis)),
            ("touch_delay", JSONText.number(touchDelay)),
        ])
    }
}
