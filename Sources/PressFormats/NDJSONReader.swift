// NDJSON touch logs: one JSON object per line (see docs/log-format.md).
import PressCore
#if canImport(Glibc)
import Glibc
#endif

/// Reads NDJSON: each non-blank line is one object — a touch record (`"type":"touch"` or no
/// type), a configuration (`"type":"config"`), or a layout control (`"type":"control"`). Any
/// other line becomes a `Reject` with its reason and raw text; reading continues.
///
///     var r = NDJSONReader(try ByteInput(path: "events.ndjson"))
///     while let item = try r.next() { … }
public struct NDJSONReader: ChunkedRecordSource {
    public let input: ByteInput
    private var fields: [JSONField] = []
    /// The last line returned; points into `input`'s buffer, valid until the next `next()`.
    var lastLine: UnsafeBufferPointer<UInt8>?
    /// Recent session ids, so a record of a session in flight reuses its `String`.
    private var sessionCache = SessionIDCache()
    /// Attribute values read recently (a session's first line gives them).
    private var attributeCache = AttributeValueCache()
    /// `SessionAttribute.ordered`, read without its global's lazy initialization check.
    private let orderedAttributes = SessionAttribute.ordered
    /// Unknown fields one edit from a known one.
    private var fieldNames = FieldNameCheck(csv: false)
    /// Warnings about fields that look misspelt (the first few), and how many there were.
    public var fieldWarnings: [FieldWarning] { fieldNames.warnings }
    public var fieldWarningCount: Int { fieldNames.count }

    /// Another time unit, other phase names (`TouchLogOptions`; its CSV column names do not apply).
    public let options: TouchLogOptions

    public init(_ input: ByteInput) { self.init(input, options: TouchLogOptions()) }

    public init(_ input: ByteInput, options: TouchLogOptions) {
        self.input = input
        self.options = options
        fields.reserveCapacity(32)
    }

    public mutating func next() throws -> RecordItem? {
        while let line = try input.nextLine() {
            if isBlank(line) {
                // An empty line may be one longer than the input holds, read past.
                if line.isEmpty, let long = input.takeLongLine() { lastLine = nil; return .reject(long.reject) }
                continue
            }
            let source = SourceLocation(file: input.name, line: input.lineNumber)
            lastLine = line
            return decode(line, source).dividingTime(by: options.timeUnit.perSecond)
        }
        return nil
    }

    public var lastRaw: String { lastLine.map(rawText) ?? "" }

    public mutating func read(into chunk: inout RecordChunk, limit: Int, yieldingBeforeWait: Bool) throws -> ChunkRead {
        if options.timeUnit != .s {
            let start = chunk.touchCount
            defer { chunk.divideTimes(from: start, by: options.timeUnit.perSecond) }
            return try readLines(into: &chunk, limit: limit, yieldingBeforeWait: yieldingBeforeWait)
        }
        return try readLines(into: &chunk, limit: limit, yieldingBeforeWait: yieldingBeforeWait)
    }

    /// `read(into:…)` in the log's own time unit.
    @inline(__always)
    private mutating func readLines(into chunk: inout RecordChunk, limit: Int, yieldingBeforeWait: Bool) throws -> ChunkRead {
        chunk.setFile(input.name)
        while chunk.count < limit {
            guard let line = try input.nextLine(yieldingBeforeWait: yieldingBeforeWait) else {
                return input.stoppedBeforeWaiting ? .wouldWait : .end
            }
            if isBlank(line) {
                if line.isEmpty, let long = input.takeLongLine() {
                    long.raw.withUnsafeBufferPointer { chunk.append(.reject(long.reject), raw: $0) }
                }
                continue
            }
            if input.framesOrigins { chunk.setFile(input.name) }
            lastLine = line
            if plainRecord(line, into: &chunk) { continue }
            chunk.append(decode(line, SourceLocation(file: input.name, line: input.lineNumber)), raw: line)
        }
        return .full
    }

    /// The common line, read straight into `chunk`: ASCII, no blanks, an object of the sample's
    /// five fields (`session`, `t`, `phase`, `x`, `y`) and any of the field table's attributes,
    /// in any order, each once; the session a non-empty string without escapes, the numbers
    /// without an exponent, the phase one of the five; an attribute a string without escapes
    /// (a container by its name) or a frame's array of four such numbers, valid for its kind.
    /// False (nothing read) for any other line (`type`, an unknown field, `null`, a container's
    /// object, a value that is not valid), which then takes the general path (`decode`, the
    /// `JSONScanner`): the same record, or its reject. A session's first line gives attributes:
    /// they are read straight into the `SessionAttributes` values, through `attributeCache`.
    @inline(__always)
    mutating func plainRecord(_ line: UnsafeBufferPointer<UInt8>, into chunk: inout RecordChunk) -> Bool {
        guard let p = line.baseAddress, line.count > 2, input.isASCII(line: line) else { return false }
        let n = line.count
        guard p[0] == 0x7B, p[n - 1] == 0x7D else { return false }   // { … }
        var k = 1
        var given = 0   // one bit per field
        var sessionStart = 0, sessionEnd = 0
        var t = 0.0, x = 0.0, y = 0.0, phase = TouchPhase.began
        /// The attributes' values, by `SessionAttribute.rawValue`: made at the first one given.
        var values: [AttributeValue?] = []
        while true {
            // "key":
            guard k + 3 < n, p[k] == 0x22 else { return false }
            let key: Int   // 1 session, 2 t, 4 phase, 8 x, 16 y, 32 << rawValue an attribute
            if p[k + 2] == 0x22 {
                switch p[k + 1] {
                case UInt8(ascii: "t"): key = 2
                case UInt8(ascii: "x"): key = 8
                case UInt8(ascii: "y"): key = 16
                default: return false
                }
                k += 3
            } else if k + 8 < n, p[k + 8] == 0x22, Self.spells(p + k + 1, "session") {
                key = 1; k += 9
            } else if k + 6 < n, p[k + 6] == 0x22, Self.spells(p + k + 1, "phase") {
                key = 4; k += 7
            } else {
                var j = k + 1
                while j < n, p[j] != 0x22, p[j] != 0x5C { j += 1 }
                guard j < n, p[j] == 0x22,
                      case .attribute(let a)? = Self.attributeID(UnsafeBufferPointer(start: p + k + 1, count: j - k - 1))
                else { return false }   // `type`, an unknown field, an escape: the general path
                key = 32 << a.rawValue
                k = j + 1
            }
            guard given & key == 0, k < n, p[k] == 0x3A else { return false }
            given |= key
            k += 1
            if key == 1 || key == 4 {
                // A string of printable ASCII without escapes.
                guard let (start, end) = Self.plainString(p, &k, n) else { return false }
                if key == 1 {
                    sessionStart = start; sessionEnd = end
                } else {
                    guard let ph = CSVReader.phase(UnsafeBufferPointer(start: p + start, count: end - start)) else { return false }
                    phase = ph
                }
            } else if key < 32 {
                guard let d = Self.number(p, &k, n), k < n, p[k] == 0x2C || p[k] == 0x7D else { return false }
                if key == 2 { t = d } else if key == 8 { x = d } else { y = d }
            } else {
                let attribute = orderedAttributes[(key >> 5).trailingZeroBitCount]
                let value: AttributeValue
                if attribute.kind == .frame {
                    // [x,y,w,h], four numbers without blanks.
                    guard k < n, p[k] == 0x5B else { return false }
                    k += 1
                    var v: (Double, Double, Double, Double) = (0, 0, 0, 0)
                    for part in 0..<4 {
                        guard let d = Self.plainNumber(p, &k, n), k < n, p[k] == (part == 3 ? 0x5D : 0x2C) else { return false }
                        switch part {
                        case 0: v.0 = d
                        case 1: v.1 = d
                        case 2: v.2 = d
                        default: v.3 = d
                        }
                        k += 1
                    }
                    guard case .success(let r) = FieldCheck.frame([v.0, v.1, v.2, v.3], name: attribute.key) else { return false }
                    value = .frame(r)
                } else {
                    // A string without escapes (a container's object: the general path).
                    let open = k
                    guard let (start, end) = Self.plainString(p, &k, n) else { return false }
                    let token = JSONToken(kind: .string, start: start, end: end)
                    let read = attributeCache.value(attribute, UnsafeBufferPointer(start: p + open, count: k - open)) {
                        () -> Result<AttributeValue, FieldProblem> in
                        (try? Self.read(attribute, token, in: line)) ?? .failure(FieldProblem("not read"))
                    }
                    guard case .success(let v) = read else { return false }
                    value = v
                }
                if values.isEmpty { values = TouchFieldValues.reserved(count: orderedAttributes.count) }
                values[attribute.rawValue] = value
            }
            guard k < n else { return false }
            if p[k] == 0x2C { k += 1; continue }
            guard p[k] == 0x7D, k == n - 1 else { return false }
            break
        }
        guard given & 31 == 31 else { return false }
        let session = sessionCache.index(UnsafeBufferPointer(start: p + sessionStart, count: sessionEnd - sessionStart),
                                         in: &chunk)
        chunk.appendTouch(TouchSample(t: t, x: x, y: y, phase: phase), session: session, line: input.lineNumber, raw: line)
        if !values.isEmpty { chunk.addAttributesOfLastTouch(SessionAttributes(givenValues: values)) }
        return true
    }

    /// A non-empty JSON string of printable ASCII without escapes at `k` (its opening quote):
    /// its text's range (without the quotes), `k` moved past the closing quote; nil otherwise.
    @inline(__always)
    private static func plainString(_ p: UnsafePointer<UInt8>, _ k: inout Int, _ n: Int) -> (Int, Int)? {
        guard k < n, p[k] == 0x22 else { return nil }
        let start = k + 1
        var j = start
        // Eight bytes at a time to the first quote, backslash or control byte (the line is ASCII).
        while j + 8 <= n {
            let w = WordScan.load(p + j)
            let stops = WordScan.zeroBytes(w ^ WordScan.lanes(0x22)) | WordScan.zeroBytes(w ^ WordScan.lanes(0x5C))
                | WordScan.zeroBytes(w & WordScan.lanes(0x60))
            if stops != 0 { j += stops.trailingZeroBitCount >> 3; break }
            j += 8
        }
        while j < n, p[j] != 0x22 {
            if p[j] == 0x5C || p[j] < 0x20 { return nil }
            j += 1
        }
        guard j < n, j > start else { return nil }
        k = j + 1
        return (start, j)
    }

    /// `plainNumber`, its common case read in place (`DecimalParser.wordDecimal`, inlined):
    /// a number that starts with a digit, has fewer than eight before the point and stops
    /// within 16 bytes, and is JSON (no leading zero but `0` itself, a digit after a point,
    /// which the text then does not end in, no exponent after). Any other text, valid or not,
    /// is left to `plainNumber`, which reads it as before.
    @_transparent
    static func number(_ p: UnsafePointer<UInt8>, _ k: inout Int, _ n: Int) -> Double? {
        var j = k
        let negative = j < n && p[j] == 0x2D
        if negative { j &+= 1 }
        if j < n, p[j] &- 0x30 < 10 {
            let word = DecimalParser.wordDecimal(p, j, n, negative: negative)
            let end = word.end
            if end >= 0, p[j] != 0x30 || j &+ 1 == end || p[j &+ 1] == 0x2E, p[end &- 1] != 0x2E,
               end >= n || (p[end] != 0x65 && p[end] != 0x45) {
                k = end
                return word.value
            }
        }
        return plainNumber(p, &k, n)
    }

    /// A finite JSON number without an exponent at `k`, -?(0|[1-9][0-9]*)(\.[0-9]+)?, `k` moved
    /// past it (the caller checks what follows); nil otherwise. Its digits are gathered as
    /// `DecimalParser.shortPrefix` gathers them, by `DecimalParser.digitRun` (the value is its,
    /// for up to 15 digits in 16 bytes; `DecimalParser.parse`'s beyond).
    @inline(never)
    private static func plainNumber(_ p: UnsafePointer<UInt8>, _ k: inout Int, _ n: Int) -> Double? {
        let start = k
        var negative = false
        if k < n, p[k] == 0x2D { negative = true; k += 1 }
        guard k < n, p[k] &- 0x30 < 10 else { return nil }
        var mantissa: UInt64 = 0
        var digits = 0, fraction = 0
        if p[k] == 0x30 {
            k += 1; digits = 1
        } else {
            let first = k
            k = DecimalParser.digitRun(p, k, n, &mantissa)
            digits = k - first
        }
        if k < n, p[k] == 0x2E {
            k += 1
            let after = k
            k = DecimalParser.digitRun(p, k, n, &mantissa)
            fraction = k - after
            guard fraction > 0 else { return nil }
            digits += fraction
        }
        guard k >= n || (p[k] != 0x65 && p[k] != 0x45) else { return nil }   // an exponent: the general path
        if digits <= 15, k - start <= 16 {
            var d = Double(mantissa)
            if fraction > 0 { d /= DecimalParser.exactPower(fraction) }
            return negative ? -d : d
        }
        guard let parsed = DecimalParser.parse(UnsafeBufferPointer(start: p + start, count: k - start)), parsed.isFinite
        else { return nil }
        return parsed
    }

    /// Whether the bytes at `p` spell `word` (the caller checked there are enough).
    @inline(__always)
    private static func spells(_ p: UnsafePointer<UInt8>, _ word: StaticString) -> Bool {
        memcmp(p, word.utf8Start, word.utf8CodeUnitCount) == 0
    }


    func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in line where !(b == 0x20 || b == 0x09 || b == 0x0D) { return false }
        return true
    }

    /// One line → a record or a reject.
    mutating func decode(_ line: UnsafeBufferPointer<UInt8>, _ source: SourceLocation) -> RecordItem {
        func reject(_ reason: String) -> RecordItem { .reject(Reject(source: source, reason: reason, raw: rawText(line))) }
        if let problem = utf8Problem(line) { return reject(problem) }
        var scanner = JSONScanner(line)
        do { try scanner.scanObject(into: &fields) } catch { return reject(error.description) }

        // The sample's fields go to locals; the attributes' values are built only for a line
        // that has some (most lines have none).
        var sample = SampleFields()
        var values: TouchFieldValues?
        var seen: UInt64 = 0
        var typeToken: JSONToken?
        var extraKeys: Set<String> = []
        do {
            for f in fields {
                let known = Self.fieldID(line, f.key)
                if let known {
                    let bit = known.bit
                    if seen & bit != 0 { return reject("duplicate field \"\(known.name)\"") }
                    seen |= bit
                    switch known {
                    case .type: typeToken = f.value
                    case .session, .t, .phase, .x, .y:
                        if let problem = try sample.set(known, f.value, in: line, &sessionCache, options) { return reject(problem) }
                    case .attribute(let attribute):
                        if values == nil { values = TouchFieldValues() }
                        if let problem = try set(attribute, f.value, in: line, &values!.values) { return reject(problem) }
                    }
                } else {
                    let key = try JSONScanner.string(line, f.key)
                    guard extraKeys.insert(key).inserted else { return reject("duplicate field \(JSONText.string(key))") }
                    fieldNames.unknown(key, at: source)
                    if values == nil { values = TouchFieldValues() }
                    values!.extras.append(ExtraField(key: key, json: Self.valueText(line, f.value)))
                }
            }
        } catch { return reject(error.description) }

        if let typeToken {
            guard typeToken.kind == .string, let type = try? JSONScanner.string(line, typeToken) else {
                return reject("\"type\" must be a string")
            }
            switch type {
            case "touch": break
            case "config":
                guard let nameField = fields.first(where: { JSONScanner.equals(line, $0.key, "name") }),
                      nameField.value.kind == .string,
                      let name = try? JSONScanner.string(line, nameField.value), !name.isEmpty else {
                    return reject("configuration record needs a non-empty string \"name\"")
                }
                return .config(ConfigRecordText(name: name, json: rawText(line), source: source))
            case "control":
                do { return .control(try LayoutJSON.controlRecord(line: rawText(line))) } catch { return reject(error.message) }
            default:
                return reject("unknown record type \(JSONText.string(type)) (known: touch, config, control)")
            }
        }
        guard let session = sample.session else {
            return reject("missing field \"session\"" + fieldNames.hint(missing: "session", given: Array(extraKeys)))
        }
        guard let t = sample.t else { return reject("missing field \"t\"") }
        guard let phase = sample.phase else {
            return reject("missing field \"phase\"" + fieldNames.hint(missing: "phase", given: Array(extraKeys)))
        }
        guard let x = sample.x else { return reject("missing field \"x\"") }
        guard let y = sample.y else { return reject("missing field \"y\"") }
        let touch = TouchSample(t: t, x: x, y: y, phase: phase)
        guard let values else { return .touch(TouchRecord(session: session, sample: touch, source: source)) }
        return .touch(TouchRecord(session: session, sample: touch, attributes: values.merged, source: source))
    }

    /// The sample's own fields of one line, as `set` would store them, with the same reasons.
    struct SampleFields {
        var session: String?
        var t: Double?
        var phase: TouchPhase?
        var x: Double?
        var y: Double?

        /// Reads `session`, `t`, `phase`, `x` or `y`; returns the reason when it is invalid.
        mutating func set(_ field: TouchField, _ v: JSONToken, in b: UnsafeBufferPointer<UInt8>,
                          _ cache: inout SessionIDCache, _ options: TouchLogOptions) throws(JSONSyntaxError) -> String? {
            switch field {
            case .t, .x, .y:
                guard v.kind == .number || v.kind == .nonFinite else {
                    return "\"\(field.name)\" must be a number, not \(NDJSONReader.kindName(v.kind))"
                }
                var d = v.number
                if !d.isFinite {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: b[v.start..<v.end]), as: UTF8.self)
                    switch FieldCheck.finite(field.name, d, text: text) {
                    case .failure(let r): return r.reason
                    case .success(let value): d = value
                    }
                }
                if field == .t { t = d } else if field == .x { x = d } else { y = d }
            case .session:
                guard v.kind == .string else { return "\"session\" must be a string, not \(NDJSONReader.kindName(v.kind))" }
                if v.start == v.end { return FieldProblem("\"session\" is empty: a session id is required").reason }
                session = v.hasEscapes ? try JSONScanner.string(b, v) : cache.string(UnsafeBufferPointer(rebasing: b[v.start..<v.end]))
                if session!.isEmpty { session = nil; return "\"session\" is empty: a session id is required" }
            case .phase:
                guard v.kind == .string else { return "\"phase\" must be a string, not \(NDJSONReader.kindName(v.kind))" }
                if !v.hasEscapes, let p = CSVReader.phase(UnsafeBufferPointer(rebasing: b[v.start..<v.end])) { phase = p; return nil }
                switch options.phase(try JSONScanner.string(b, v)) {
                case .failure(let r): return r.reason
                case .success(let p): phase = p
                }
            default:
                return nil
            }
            return nil
        }
    }

    /// A value's JSON text as written (a string with its quotes).
    static func valueText(_ b: UnsafeBufferPointer<UInt8>, _ v: JSONToken) -> String {
        let range = v.kind == .string ? (v.start - 1)..<(v.end + 1) : v.start..<v.end
        return String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
    }

    /// The known field a key names, or nil. The sample's own fields, on every line, are told by
    /// length and bytes without building a string; attribute keys (usually on a `began` line
    /// only) are compared with the field table's keys.
    @inline(__always)
    static func fieldID(_ b: UnsafeBufferPointer<UInt8>, _ key: JSONToken) -> TouchField? {
        if key.hasEscapes {
            guard let s = try? JSONScanner.string(b, key) else { return nil }
            return TouchField.byName[s]
        }
        switch key.end - key.start {
        case 1:
            switch b[key.start] {
            case UInt8(ascii: "t"): return .t
            case UInt8(ascii: "x"): return .x
            case UInt8(ascii: "y"): return .y
            default: return nil
            }
        case 4:
            if JSONScanner.equals(b, key, "type") { return .type }
        case 5:
            if JSONScanner.equals(b, key, "phase") { return .phase }
        case 7:
            if JSONScanner.equals(b, key, "session") { return .session }
        default: break
        }
        return attributeID(UnsafeBufferPointer(rebasing: b[key.start..<key.end]))
    }

    /// The attributes' keys as bytes, in table order.
    static let attributeKeys: [[UInt8]] = SessionAttribute.ordered.map { Array($0.key.utf8) }

    /// The attribute whose key is exactly `key`, or nil.
    static func attributeID(_ key: UnsafeBufferPointer<UInt8>) -> TouchField? {
        for (i, k) in attributeKeys.enumerated() where k.count == key.count {
            let same = k.withUnsafeBufferPointer { memcmp($0.baseAddress!, key.baseAddress!, key.count) == 0 }
            if same { return .attribute(SessionAttribute.ordered[i]) }
        }
        return nil
    }

    static func kindName(_ k: JSONKind) -> String {
        switch k {
        case .string: return "a string"
        case .number, .nonFinite: return "a number"
        case .bool: return "true/false"
        case .null: return "null"
        case .object: return "an object"
        case .array: return "an array"
        }
    }

    /// Stores one attribute's value (JSON `null`: not given) in `values` (by
    /// `SessionAttribute.rawValue`), by its kind; returns the reason when it is invalid. A value
    /// whose JSON text was read before comes from `attributeCache`.
    mutating func set(_ attribute: SessionAttribute, _ v: JSONToken, in b: UnsafeBufferPointer<UInt8>,
                      _ values: inout [AttributeValue?]) throws(JSONSyntaxError) -> String? {
        if v.kind == .null { return nil }
        let text = v.kind == .string ? (v.start - 1)..<(v.end + 1) : v.start..<v.end
        let value = try attributeCache.value(attribute, UnsafeBufferPointer(rebasing: b[text])) {
            () throws(JSONSyntaxError) -> Result<AttributeValue, FieldProblem> in try Self.read(attribute, v, in: b)
        }
        switch value {
        case .failure(let r): return r.reason
        case .success(let value): values[attribute.rawValue] = value
        }
        return nil
    }

    /// One attribute's value (not JSON `null`), by its kind, or the reason it is invalid.
    static func read(_ attribute: SessionAttribute, _ v: JSONToken, in b: UnsafeBufferPointer<UInt8>)
        throws(JSONSyntaxError) -> Result<AttributeValue, FieldProblem>
    {
        let name = attribute.key
        func string() throws(JSONSyntaxError) -> Result<String, FieldProblem> {
            guard v.kind == .string else { return .failure(FieldProblem("\"\(name)\" must be a string, not \(kindName(v.kind))")) }
            return .success(try JSONScanner.string(b, v))
        }
        switch attribute.kind {
        case .text:
            return try string().map(AttributeValue.text)
        case .frame:
            guard v.kind == .array else { return .failure(FieldProblem("\"\(name)\" must be [x, y, width, height], not \(kindName(v.kind))")) }
            let elements = try JSONScanner.elements(of: b, in: v)
            guard elements.allSatisfy({ $0.kind == .number || $0.kind == .nonFinite }) else {
                return .failure(FieldProblem("\"\(name)\" must be [x, y, width, height], 4 numbers"))
            }
            return FieldCheck.frame(elements.map(\.number), name: name).map(AttributeValue.frame)
        case .container:
            return ContainerJSON.parse(b, v).map(AttributeValue.container)
        case .scrollAxis:
            return try string().flatMap { FieldCheck.scrollAxis($0, name: name) }.map(AttributeValue.scrollAxis)
        case .size:
            guard v.kind == .array else { return .failure(FieldProblem("\"\(name)\" must be [width, height] in points, not \(kindName(v.kind))")) }
            let elements = try JSONScanner.elements(of: b, in: v)
            guard elements.allSatisfy({ $0.kind == .number || $0.kind == .nonFinite }) else {
                return .failure(FieldProblem("\"\(name)\" must be [width, height] in points, 2 numbers"))
            }
            return FieldCheck.window(elements.map(\.number), name: name).map(AttributeValue.size)
        case .systemGestures:
            let problem = FieldProblem("\"\(name)\" must be a list of \"back\" and \"home\" ([] for none), not \(kindName(v.kind))")
            guard v.kind == .array else { return .failure(problem) }
            let elements = try JSONScanner.elements(of: b, in: v)
            guard elements.allSatisfy({ $0.kind == .string }) else {
                return .failure(FieldProblem("\"\(name)\" must be a list of the strings \"back\" and \"home\""))
            }
            var names: [String] = []
            for e in elements { names.append(try JSONScanner.string(b, e)) }
            return FieldCheck.systemGestures(names, name: name).map(AttributeValue.systemGestures)
        }
    }
}
