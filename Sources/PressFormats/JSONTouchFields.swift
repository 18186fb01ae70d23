// The touch record's fields, shared by the NDJSON and CSV readers: names, validation with one
// clear reason per problem, and the canonical JSON pressdb writes (containers, extra fields).
import PressCore

/// The fields pressdb knows in a touch record. Anything else is an extra attribute.
enum TouchField: Int, CaseIterable {
    case type, session, t, phase, x, y
    case config, variant, control, frame, container, scrollAxis, user, device, appVersion, screen

    /// The field's name in logs (`scroll_axis`, `app_version`).
    var name: String {
        switch self {
        case .type: return "type"
        case .session: return "session"
        case .t: return "t"
        case .phase: return "phase"
        case .x: return "x"
        case .y: return "y"
        case .config: return "config"
        case .variant: return "variant"
        case .control: return "control"
        case .frame: return "frame"
        case .container: return "container"
        case .scrollAxis: return "scroll_axis"
        case .user: return "user"
        case .device: return "device"
        case .appVersion: return "app_version"
        case .screen: return "screen"
        }
    }

    static let byName: [String: TouchField] = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0) })
}

/// The values of one touch record as read, before validation into a `TouchRecord`.
struct TouchFieldValues {
    var session: String?
    var t: Double?
    var phase: TouchPhase?
    var x: Double?
    var y: Double?
    var attributes = SessionAttributes()
    /// Unknown fields: name and the value as JSON text.
    var extras: [(String, String)] = []

    /// The record, or the reason it is rejected when a required field is missing.
    func record(at source: SourceLocation) -> Result<TouchRecord, Reject> {
        func missing(_ f: String) -> Result<TouchRecord, Reject> { .failure(Reject(source: source, reason: "missing field \"\(f)\"", raw: "")) }
        guard let session else { return missing("session") }
        guard let t else { return missing("t") }
        guard let phase else { return missing("phase") }
        guard let x else { return missing("x") }
        guard let y else { return missing("y") }
        var attributes = self.attributes
        if !extras.isEmpty { attributes.extra = JSONText.object(extras) }
        return .success(TouchRecord(session: session, sample: TouchSample(t: t, x: x, y: y, phase: phase),
                                    attributes: attributes, source: source))
    }
}

/// Why a field's value is invalid: one sentence naming the field.
public struct FieldProblem: Error, Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    public var reason: String
    public init(stringLiteral value: String) { reason = value }
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// Field validation with the reasons pressdb reports.
enum FieldCheck {
    static let phaseList = TouchPhase.allCases.map(\.rawValue).joined(separator: ", ")

    static func phase(_ text: String) -> Result<TouchPhase, FieldProblem> {
        if let p = TouchPhase(rawValue: text) { return .success(p) }
        return .failure("phase \(JSONText.string(text)) is not one of \(phaseList)")
    }

    /// A finite coordinate or time; the reason names the field and what is wrong.
    static func finite(_ name: String, _ value: Double, text: String) -> Result<Double, FieldProblem> {
        if value.isFinite { return .success(value) }
        if value.isNaN { return .failure("\"\(name)\" is NaN, not a finite number") }
        return .failure("\"\(name)\" is \(text) (beyond the range of a 64-bit float), not a finite number")
    }

    static func session(_ text: String) -> Result<String, FieldProblem> {
        text.isEmpty ? .failure("\"session\" is empty: a session id is required") : .success(text)
    }

    static func scrollAxis(_ text: String) -> Result<ScrollAxis, FieldProblem> {
        if let a = ScrollAxis(rawValue: text) { return .success(a) }
        return .failure("scroll_axis \(JSONText.string(text)) is not one of vertical, horizontal, both")
    }

    static func containerName(_ text: String) -> Result<Container, FieldProblem> {
        if let c = Container(named: text) { return .success(c) }
        return .failure(FieldProblem("container \(JSONText.string(text)) is not one of none, scroll, table, "
            + "scroll-immediate (or an object of container parameters)"))
    }

    static func frame(_ v: [Double]) -> Result<Rect, FieldProblem> {
        guard v.count == 4 else { return .failure("\"frame\" must be [x, y, width, height], 4 numbers, not \(v.count)") }
        guard v.allSatisfy(\.isFinite) else { return .failure("\"frame\" values must be finite numbers") }
        guard v[2] >= 0, v[3] >= 0 else { return .failure("\"frame\" width and height must not be negative") }
        return .success(Rect(x: v[0], y: v[1], width: v[2], height: v[3]))
    }
}

/// Container parameters given as an object:
/// `{"delays_content_touches": false, "cancels_control_touches": true, "touch_delay": 0.15, "hysteresis": 10}`.
/// The two booleans are required; `touch_delay` (seconds) and `hysteresis` (points) default to
/// `Container.defaultTouchDelay` and `Container.defaultHysteresis`.
public enum ContainerJSON {
    /// Parses a container: a JSON string (a name) or object (parameters).
    /// - Returns: the container, or the reason it is invalid.
    public static func parse(json text: String) -> Result<Container, FieldProblem> {
        var bytes = Array(text.utf8)
        return bytes.withUnsafeMutableBufferPointer { mb in
            let b = UnsafeBufferPointer(mb)
            var s = JSONScanner(b)
            s.skipSpace()
            let token: JSONToken
            do { token = try s.value(depth: 0) } catch { return .failure(FieldProblem("container: \(error)")) }
            return parse(b, token)
        }
    }

    static func parse(_ b: UnsafeBufferPointer<UInt8>, _ token: JSONToken) -> Result<Container, FieldProblem> {
        switch token.kind {
        case .string:
            guard let name = try? JSONScanner.string(b, token) else { return .failure("container: bad string") }
            return FieldCheck.containerName(name)
        case .object:
            guard let fields = try? JSONScanner.fields(of: b, in: token) else { return .failure("container: malformed object") }
            var delays: Bool?, cancels: Bool?
            var delay = Container.defaultTouchDelay, hysteresis = Container.defaultHysteresis
            for f in fields {
                let key = (try? JSONScanner.string(b, f.key)) ?? ""
                switch key {
                case "delays_content_touches", "cancels_control_touches":
                    guard f.value.kind == .bool else { return .failure("container \"\(key)\" must be true or false") }
                    if key == "delays_content_touches" { delays = f.value.bool } else { cancels = f.value.bool }
                case "touch_delay", "hysteresis":
                    guard f.value.kind == .number, f.value.number.isFinite, f.value.number >= 0 else {
                        return .failure("container \"\(key)\" must be a finite number ≥ 0")
                    }
                    if key == "touch_delay" { delay = f.value.number } else { hysteresis = f.value.number }
                default:
                    return .failure(FieldProblem("unknown container parameter \"\(key)\" (known: delays_content_touches, "
                        + "cancels_control_touches, touch_delay, hysteresis)"))
                }
            }
            guard let delays, let cancels else {
                return .failure("container parameters need \"delays_content_touches\" and \"cancels_control_touches\"")
            }
            return .success(Container(name: nil, isScrollView: true, delaysContentTouches: delays,
                                      cancelsControlTouches: cancels, touchDelay: delay, hysteresis: hysteresis))
        default:
            return .failure("\"container\" must be a name or an object of container parameters")
        }
    }

    /// How pressdb stores a container: its name, or for custom parameters a JSON object with all
    /// four keys, sorted, numbers in shortest round-trip form.
    public static func storedText(_ c: Container) -> String {
        if let name = c.name { return name }
        return JSONText.object([
            ("cancels_control_touches", c.cancelsControlTouches ? "true" : "false"),
            ("delays_content_touches", c.delaysContentTouches ? "true" : "false"),
            ("hysteresis", JSONText.number(c.hysteresis)),
            ("touch_delay", JSONText.number(c.touchDelay)),
        ])
    }

    /// The container of a stored text (`storedText`'s inverse).
    public static func fromStoredText(_ text: String) -> Container? {
        if let c = Container(named: text) { return c }
        if case .success(let c) = parse(json: text) { return c }
        return nil
    }
}

// MARK: - Merging a session's attributes

extension SessionAttributes: SessionMergeable {
    /// Adds a later record's attributes: unset fields are filled, an identical repeat is fine,
    /// a different value is a conflict (reported, `self` unchanged). Extra fields merge key by
    /// key under the same rule.
    public mutating func merge(_ later: SessionAttributes) -> String? {
        if !later.hasAnyValue || later == self { return nil }
        var merged = self
        func take<T: Equatable>(_ name: String, _ path: WritableKeyPath<SessionAttributes, T?>,
                                _ show: (T) -> String) -> String? {
            guard let v = later[keyPath: path] else { return nil }
            if let old = merged[keyPath: path] {
                return old == v ? nil : "\"\(name)\" \(show(v)) differs from \(show(old)) given earlier"
            }
            merged[keyPath: path] = v
            return nil
        }
        let q = JSONText.string
        if let p = take("config", \.config, q) { return p }
        if let p = take("variant", \.variant, q) { return p }
        if let p = take("control", \.control, q) { return p }
        if let p = take("frame", \.frame, { "[\($0.x), \($0.y), \($0.width), \($0.height)]" }) { return p }
        if let p = take("container", \.container, { ContainerJSON.storedText($0) }) { return p }
        if let p = take("scroll_axis", \.scrollAxis, { q($0.rawValue) }) { return p }
        if let p = take("user", \.user, q) { return p }
        if let p = take("device", \.device, q) { return p }
        if let p = take("app_version", \.appVersion, q) { return p }
        if let p = take("screen", \.screen, q) { return p }
        if let extra = later.extra, extra != merged.extra {
            if let old = merged.extra {
                var pairs = Dictionary(JSONText.pairs(old), uniquingKeysWith: { a, _ in a })
                for (k, v) in JSONText.pairs(extra) {
                    if let o = pairs[k] {
                        if o != v { return "extra field \(q(k)) \(v) differs from \(o) given earlier" }
                    } else { pairs[k] = v }
                }
                merged.extra = JSONText.object(pairs.map { ($0.key, $0.value) })
            } else {
                merged.extra = extra
            }
        }
        self = merged
        return nil
    }
}

extension SessionAttributes {
    /// True when some field is set: `!isEmpty` without building an empty value to compare with
    /// (this runs once per record).
    @inline(__always)
    var hasAnyValue: Bool {
        config != nil || variant != nil || control != nil || frame != nil || container != nil || scrollAxis != nil
            || user != nil || device != nil || appVersion != nil || screen != nil || extra != nil
    }
}

extension JSONText {
    /// The (key, value JSON text) pairs of an object text; empty when it is not an object.
    public static func pairs(_ object: String) -> [(String, String)] {
        var bytes = Array(object.utf8)
        return bytes.withUnsafeMutableBufferPointer { mb in
            let b = UnsafeBufferPointer(mb)
            var s = JSONScanner(b)
            var fields: [JSONField] = []
            guard (try? s.scanObject(into: &fields)) != nil else { return [] }
            return fields.compactMap { f in
                guard let k = try? JSONScanner.string(b, f.key) else { return nil }
                return (k, NDJSONReader.valueText(b, f.value))
            }
        }
    }
}
