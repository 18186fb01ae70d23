// The touch record's fields, shared by the NDJSON and CSV readers: names (the sample's and the
// field table's), validation with one clear reason per problem, container parameters.
import PressCore
#if canImport(Glibc)
import Glibc
#endif

/// The fields pressdb knows in a touch record: the sample's own, and the session attributes
/// of the field table (`SessionAttribute`). Anything else is an extra attribute.
enum TouchField: Hashable {
    case type, session, t, phase, x, y
    case attribute(SessionAttribute)

    /// The field's name in logs (`scroll_axis`, `app_version`).
    var name: String {
        switch self {
        case .type: return "type"
        case .session: return "session"
        case .t: return "t"
        case .phase: return "phase"
        case .x: return "x"
        case .y: return "y"
        case .attribute(let a): return a.key
        }
    }

    /// A distinct bit per field, for telling a repeated field in one record.
    var bit: UInt64 {
        switch self {
        case .type: return 1
        case .session: return 1 << 1
        case .t: return 1 << 2
        case .phase: return 1 << 3
        case .x: return 1 << 4
        case .y: return 1 << 5
        case .attribute(let a): return 1 << UInt64(6 + a.rawValue)
        }
    }

    /// The sample's own fields, which every record has.
    static let sampleFields: [TouchField] = [.type, .session, .t, .phase, .x, .y]

    static let byName: [String: TouchField] = Dictionary(uniqueKeysWithValues:
        (sampleFields + SessionAttribute.allCases.map(TouchField.attribute)).map { ($0.name, $0) })
}

/// The attribute values of one touch record as read, before the record is built: most records
/// have none, so readers make one only for a line that gives some.
struct TouchFieldValues {
    /// The attributes' values by `SessionAttribute.rawValue` (nil: not given), set one by one
    /// and made `SessionAttributes` once (its subscript's checks and copies cost per value).
    var values: [AttributeValue?] = TouchFieldValues.none()
    /// Unknown fields: name and the value as JSON text.
    var extras: [ExtraField] = []

    /// A value per attribute, each nil: for the ten attributes there are, an array literal, which
    /// the compiler allocates in place with its storage's type known (`reserved(count:)`'s
    /// reservation goes through `_consumeAndCreateNew` and asks the allocator for the block's
    /// usable size). NDJSON's `plainRecord` keeps `reserved(count:)`: inlined there, the literal
    /// cost its `read(into:)` more elsewhere than it saved.
    @inline(__always)
    static func none(count: Int = SessionAttribute.ordered.count) -> [AttributeValue?] {
        if count == 10 { return [nil, nil, nil, nil, nil, nil, nil, nil, nil, nil] }
        return reserved(count: count)
    }

    /// A value per attribute, each nil, built by reserving and appending, which the compiler
    /// specializes for the element type: `Array(repeating: nil, count:)` copies its
    /// `Optional<AttributeValue>` through the generic value witness, and
    /// `Array(unsafeUninitializedCapacity:)` makes an unspecialized allocation that looks the
    /// storage's metadata up.
    @inline(__always)
    static func reserved(count: Int) -> [AttributeValue?] {
        var values: [AttributeValue?] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(nil) }
        return values
    }

    /// The attributes, unknown fields included.
    var merged: SessionAttributes {
        var a = SessionAttributes(values: values)
        if !extras.isEmpty { a.setExtraFields(extras) }
        return a
    }
}

/// Values read of each attribute, by the bytes they were read from (a CSV cell, an NDJSON
/// value's JSON text), so a value that recurs from session to session (a configuration, a
/// variant, a screen, a container, a user) is checked, and its `String` made, once. Only values
/// read without a problem are kept; the same bytes always read as the same value.
///
/// Each attribute has `ways` slots, a value's place among them told by a hash of its
/// `ShortKey` (a bucket of two slots, tried in turn). Four slots an attribute, tried one by one,
/// missed for most values of an attribute with many (the user ids), a `String` made and
/// checked for each miss.
struct AttributeValueCache {
    /// Slots per attribute: a power of two.
    static let ways = 256
    private var slots = KeySlots(count: SessionAttribute.ordered.count * ways)
    private var values: [AttributeValue?] = Array(repeating: nil, count: SessionAttribute.ordered.count * ways)
    /// Per bucket (two slots), which of its slots the next value to keep replaces.
    private var next: [UInt8] = Array(repeating: 0, count: SessionAttribute.ordered.count * ways / 2)

    /// The first slot of `key`'s bucket among an attribute's `ways` (Fibonacci hashing of the
    /// key's words: the top bits of a multiplication by 2⁶⁴ / φ).
    @inline(__always)
    static func bucket(_ key: ShortKey) -> Int {
        let h = (key.tail ^ (key.head &* 0x9E37_79B9_7F4A_7C15) ^ UInt64(bitPattern: Int64(key.count))) &* 0x9E37_79B9_7F4A_7C15
        return Int(truncatingIfNeeded: h >> UInt64(65 - ways.trailingZeroBitCount)) << 1   // ways / 2 buckets of two
    }

    /// The value `key` reads as for `attribute`: kept, else `read()` (and kept when valid).
    mutating func value<E: Error>(_ attribute: SessionAttribute, _ key: UnsafeBufferPointer<UInt8>,
                                  _ read: () throws(E) -> Result<AttributeValue, FieldProblem>) throws(E)
        -> Result<AttributeValue, FieldProblem>
    {
        let shortKey = ShortKey(key)
        let first = attribute.rawValue * Self.ways + Self.bucket(shortKey)
        if slots.holds(first, shortKey, key), let v = values[first] { return .success(v) }
        if slots.holds(first + 1, shortKey, key), let v = values[first + 1] { return .success(v) }
        let result = try read()
        if case .success(let v) = result {
            let k = first + Int(next[first >> 1])
            next[first >> 1] ^= 1
            slots.store(k, shortKey, key)
            values[k] = v
        }
        return result
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

    /// A scroll axis attribute's value (`name` is its key, `scroll_axis`).
    static func scrollAxis(_ text: String, name: String = "scroll_axis") -> Result<ScrollAxis, FieldProblem> {
        if let a = ScrollAxis(rawValue: text) { return .success(a) }
        return .failure("\(name) \(JSONText.string(text)) is not one of vertical, horizontal, both")
    }

    /// A container attribute's name (`name` is its key, `container`).
    static func containerName(_ text: String, name: String = "container") -> Result<Container, FieldProblem> {
        if let c = Container(named: text) { return .success(c) }
        return .failure(FieldProblem("\(name) \(JSONText.string(text)) is not one of none, scroll, table, "
            + "scroll-immediate (or an object of container parameters)"))
    }

    /// A window size's two numbers (`name` is its key, `window`).
    static func window(_ v: [Double], name: String = "window") -> Result<WindowSize, FieldProblem> {
        guard v.count == 2 else { return .failure("\"\(name)\" must be [width, height] in points, 2 numbers, not \(v.count)") }
        guard let w = WindowSize(checkedWidth: v[0], height: v[1]) else {
            return .failure("\"\(name)\" width and height must be finite positive numbers of points")
        }
        return .success(w)
    }

    /// A window size's CSV text, `<width>x<height>` (`390x844`).
    static func window(text: String, name: String = "window") -> Result<WindowSize, FieldProblem> {
        if let w = WindowSize(text: text) { return .success(w) }
        return .failure(FieldProblem("\(name) \(JSONText.string(text)) is not <width>x<height> in positive points (e.g. 390x844)"))
    }

    /// System gestures from their names (JSON's list); the reason names the unknown one.
    static func systemGestures(_ names: [String], name: String = "system_gestures") -> Result<SystemGestures, FieldProblem> {
        var g: SystemGestures = []
        for n in names {
            guard let one = SystemGestures.gesture(named: Substring(n)) else {
                return .failure(FieldProblem("\(name) \(JSONText.string(n)) is not one of back, home"))
            }
            g.insert(one)
        }
        return .success(g)
    }

    /// System gestures from their CSV text: names joined by `+` (`back+home`), or `none`.
    static func systemGestures(text: String, name: String = "system_gestures") -> Result<SystemGestures, FieldProblem> {
        if let g = SystemGestures(text: text) { return .success(g) }
        return .failure(FieldProblem("\(name) \(JSONText.string(text)) is not back, home, back+home or none"))
    }

    /// A frame attribute's four numbers (`name` is its key, `frame`).
    static func frame(_ v: [Double], name: String = "frame") -> Result<Rect, FieldProblem> {
        guard v.count == 4 else { return .failure("\"\(name)\" must be [x, y, width, height], 4 numbers, not \(v.count)") }
        guard v.allSatisfy(\.isFinite) else { return .failure("\"\(name)\" values must be finite numbers") }
        // A control of no width or height can never be replayed (UIControl's tracking needs an
        // area); it is rejected here, where the line is known, as a negative size is.
        guard v[2] > 0, v[3] > 0 else { return .failure("\"\(name)\" width and height must be positive") }
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

    /// The container of a stored text (`Container.storedText`'s inverse).
    public static func fromStoredText(_ text: String) -> Container? {
        if let c = Container(named: text) { return c }
        if case .success(let c) = parse(json: text) { return c }
        return nil
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

extension SessionAttributes {
    /// The unknown fields of a stored `extra` object text (`{"k":v,…}`); empty when it is nil
    /// or not an object.
    public static func extraFields(ofStoredText text: String?) -> [ExtraField] {
        guard let text else { return [] }
        return JSONText.pairs(text).map { ExtraField(key: $0.0, json: $0.1) }
    }
}
