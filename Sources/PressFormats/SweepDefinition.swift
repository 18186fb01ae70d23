// What `pressdb sweep` replays: a base configuration, the parameters varied (each a path of the
// configuration JSON, or `container.*`, with its values from a spec), and the grid of points —
// every combination, or a seeded random sample of them. Text in, checked values out; the errors
// name the part at fault. The JSON form is what the `sweeps` table stores.
import Foundation
import PressCore

/// A part of a sweep definition that is wrong: the part as typed (`press_animation.damping_ratio=0:1:0.1`,
/// or a path) and one sentence saying what is wrong and what is allowed.
public struct SweepDefinitionError: Error, Hashable, Sendable, CustomStringConvertible {
    public var part: String
    public var message: String
    public init(part: String, message: String) { self.part = part; self.message = message }
    public var description: String { part.isEmpty ? message : "\(part): \(message)" }
}

// MARK: - Specs

/// The values of one parameter, as typed after `PATH=`:
///
/// - a list, `0.9,0.95,0.97` (numbers, `true`/`false`, `null`, or words such as `any_release`);
/// - a range with a step, `0.3:1.0:0.1` (start, end, step > 0: start, start + step, … up to end);
/// - a count, `0.2:0.6/9` (nine values evenly spaced from 0.2 to 0.6, both included).
///
/// Range and count values are rounded to 12 significant digits, so `0.3:1.0:0.1` gives 0.3, 0.4,
/// …, 1 and not 0.30000000000000004.
public enum SweepSpec {
    /// The most values one spec may give.
    public static let maximumValues = 1000

    /// The spec's values, in order.
    /// - Throws: `SweepDefinitionError` naming `part` (the whole `PATH=SPEC`).
    public static func values(_ spec: String, part: String) throws(SweepDefinitionError) -> [CanonicalJSON] {
        func fail(_ m: String) -> SweepDefinitionError { SweepDefinitionError(part: part, message: m) }
        let text = spec.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else {
            throw fail("no values after '='; give a list (0.9,0.95), a range with a step (0.3:1.0:0.1) or a count (0.2:0.6/9)")
        }
        if text.contains(":") && !text.contains(",") {
            return try range(text, fail)
        }
        var out: [CanonicalJSON] = []
        for item in text.split(separator: ",", omittingEmptySubsequences: false) {
            let word = item.trimmingCharacters(in: .whitespaces)
            guard !word.isEmpty else { throw fail("an empty value in the list '\(text)'") }
            let v = scalar(word)
            if out.contains(v) { throw fail("the list gives \(v.text) twice") }
            out.append(v)
        }
        guard out.count <= maximumValues else { throw fail("\(out.count) values; at most \(maximumValues)") }
        return out
    }

    /// One list item: a JSON number, `true`, `false`, `null` or a JSON string literal, else the
    /// word itself as a string.
    static func scalar(_ word: String) -> CanonicalJSON {
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        default: break
        }
        if let x = number(word) { return .number(x) }
        if word.hasPrefix("\""), word.hasSuffix("\""), word.count >= 2,
           let s = try? JSONSerialization.jsonObject(with: Data(word.utf8), options: [.fragmentsAllowed]) as? String {
            return .string(s)
        }
        return .string(word)
    }

    /// A finite decimal number (`0.5`, `-3`, `1e-3`), not `nan`, `inf` or hexadecimal.
    static func number(_ word: String) -> Double? {
        guard word.allSatisfy({ $0.isASCII && ($0.isNumber || "+-.eE".contains($0)) }),
              let x = Double(word), x.isFinite else { return nil }
        return x
    }

    /// `A:B:S` or `A:B/N`.
    private static func range(_ text: String, _ fail: (String) -> SweepDefinitionError) throws(SweepDefinitionError) -> [CanonicalJSON] {
        var parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        var count: Int? = nil
        if parts.count == 2, let slash = parts[1].firstIndex(of: "/") {
            let n = String(parts[1][parts[1].index(after: slash)...])
            guard let k = Int(n.trimmingCharacters(in: .whitespaces)) else {
                throw fail("the count after '/' in '\(text)' must be a whole number, not '\(n)'")
            }
            guard k >= 2 else { throw fail("a count needs at least 2 values, not \(k) (for one value, give it as a list)") }
            guard k <= maximumValues else { throw fail("\(k) values; at most \(maximumValues)") }
            count = k
            parts[1] = String(parts[1][..<slash])
        } else if parts.count != 3 {
            throw fail("'\(text)' is neither a range with a step (start:end:step, e.g. 0.3:1.0:0.1) nor a count (start:end/n, e.g. 0.2:0.6/9)")
        }
        var numbers: [Double] = []
        for (p, name) in zip(parts, ["start", "end", "step"]) {
            guard let x = number(p.trimmingCharacters(in: .whitespaces)) else {
                throw fail("the \(name) of '\(text)' must be a number, not '\(p)'")
            }
            numbers.append(x)
        }
        let start = numbers[0], end = numbers[1]
        guard start <= end else { throw fail("the start \(shown(start)) of '\(text)' is above its end \(shown(end))") }
        var values: [Double] = []
        if let count {
            for i in 0..<count { values.append(rounded(start + (end - start) * Double(i) / Double(count - 1))) }
        } else {
            let step = numbers[2]
            guard step > 0 else { throw fail("the step of '\(text)' must be above 0, not \(shown(step))") }
            let steps = ((end - start) / step * (1 + 1e-12)).rounded(.down)
            guard steps < Double(maximumValues) else {
                throw fail("\(shown(steps + 1)) values; at most \(maximumValues) (a larger step, or a count start:end/n)")
            }
            for i in 0...Int(steps) { values.append(rounded(start + step * Double(i))) }
        }
        for (i, v) in values.enumerated() where i > 0 && v == values[i - 1] {
            throw fail("'\(text)' gives \(shown(v)) twice at 12 significant digits; use a larger step")
        }
        return values.map { .number($0) }
    }

    /// `x` at 12 significant digits (floating-point steps leave noise in the last digits).
    static func rounded(_ x: Double) -> Double {
        let r = Double(String(format: "%.12g", x)) ?? x
        return r == 0 ? 0 : r
    }

    static func shown(_ x: Double) -> String { JSONText.number(x) }
}

// MARK: - Paths

/// A field of the configuration JSON (`press_animation.damping_ratio`) or a container parameter
/// (`container.touch_delay`), and how a value is set there.
public enum SweepPath {
    /// The container parameters a sweep may override (docs/configurations.md, "Containers").
    public static let containerPaths = ConfigurationJSON.containerKeys.map { "container." + $0 }

    /// Fields that name or shape a configuration rather than tune it.
    static let fixedFields: Set<String> = ["type", "name", "base", "gesture", "kind"]

    /// Whether `path` overrides the sessions' container rather than the configuration.
    public static func isContainer(_ path: String) -> Bool { path.hasPrefix("container.") }

    /// The path that replays a point's sessions on a display profile (its values are profile
    /// names). The display is a session attribute like the container, not a configuration field.
    public static let displayPath = "display"

    /// Whether `path` sets the display every session of a point is replayed on.
    public static func isDisplay(_ path: String) -> Bool { path == displayPath }

    /// Whether `path` is a field of the configuration (not a container parameter or the display).
    public static func isConfiguration(_ path: String) -> Bool { !isContainer(path) && !isDisplay(path) }

    /// The paths `base` can vary: each number, boolean, string or null field of its canonical
    /// definition (animation fields as `press_animation.duration`), then the container paths and
    /// `display`.
    public static func paths(of base: PressConfiguration) -> [String] {
        guard case .object(let members) = base.definition else { return containerPaths + [displayPath] }
        var out: [String] = []
        func walk(_ m: [String: CanonicalJSON], _ prefix: String) {
            for key in m.keys.sorted() where !fixedFields.contains(key) {
                switch m[key]! {
                case .object(let inner): walk(inner, prefix + key + ".")
                case .array: break
                default: out.append(prefix + key)
                }
            }
        }
        walk(members, "")
        return out + containerPaths + [displayPath]
    }

    /// Checks that `path` can be varied on `base`, trying `value` there.
    /// - Throws: `SweepDefinitionError` naming the path: a field that names the configuration
    ///   (`name`, `gesture`, an animation's `kind`), an object or array field, a field of the
    ///   other gesture model or animation kind (ConfigurationJSON's own words), or no field at all.
    public static func check(_ path: String, on base: PressConfiguration, trying value: CanonicalJSON) throws(SweepDefinitionError) {
        func fail(_ m: String) -> SweepDefinitionError { SweepDefinitionError(part: path, message: m) }
        let keys = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !keys.contains(where: \.isEmpty) else { throw fail("a path is field names joined by '.', e.g. press_animation.damping_ratio") }
        if isContainer(path) {
            guard containerPaths.contains(path) else {
                throw fail("not a container parameter; those are " + containerPaths.joined(separator: ", "))
            }
            return
        }
        if isDisplay(path) { return }
        if let last = keys.last, fixedFields.contains(last) {
            throw fail("'\(last)' names or shapes the configuration and cannot be varied; sweep from a base configuration that has the \(last) you want")
        }
        let current = lookup(keys, in: base.definition)
        switch current {
        case .object?:
            let inner = paths(of: base).filter { $0.hasPrefix(path + ".") }
            throw fail("is an object; vary one of its fields: " + inner.joined(separator: ", "))
        case .array?:
            throw fail("is a list; a sweep varies numbers, booleans and words")
        case .some:
            return
        case nil:
            let known = "the paths of \(base.name): " + paths(of: base).joined(separator: ", ")
            if keys.count == 2, case .object(let animation)? = lookup([keys[0]], in: base.definition),
               case .string(let kind)? = animation["kind"] {
                let fields = paths(of: base).filter { $0.hasPrefix(keys[0] + ".") }
                throw fail("not a field of \(base.name)'s \(keys[0]), a \(kind) animation; its fields: " + fields.joined(separator: ", "))
            }
            // A field of the other gesture model: ConfigurationJSON says so in its own words.
            do { _ = try configuration(base, setting: [(path, value)], name: base.name) } catch {
                if error.message.contains("applies to gesture") { throw fail(error.message) }
            }
            throw fail("no such field; " + known)
        }
    }

    /// `base` with each `(path, value)` of the configuration set (container paths and the display
    /// are skipped),
    /// named `name`, read back through `ConfigurationJSON` so every value is checked as in a
    /// configuration file.
    /// - Throws: `SweepDefinitionError` whose part is the field ConfigurationJSON names
    ///   (`press_animation.damping_ratio`) and whose message is its reason (`expected a number > 0, got 0`).
    public static func configuration(_ base: PressConfiguration, setting values: [(path: String, value: CanonicalJSON)],
                                     name: String) throws(SweepDefinitionError) -> PressConfiguration {
        var definition = base.definition
        for (path, value) in values where isConfiguration(path) {
            definition = set(path.split(separator: ".").map(String.init)[...], to: value, in: definition)
        }
        definition = set(["name"], to: .string(name), in: definition)
        do {
            return try ConfigurationJSON.configuration(from: definition, bases: [])
        } catch let e as ConfigurationJSONError {
            throw SweepDefinitionError(part: e.field, message: e.message)
        } catch {
            throw SweepDefinitionError(part: "", message: "\(error)")
        }
    }

    /// The container parameters among `values`; nil when there are none.
    /// - Throws: `SweepDefinitionError` naming `container.KEY` for a value of the wrong kind.
    public static func containerOverride(_ values: [(path: String, value: CanonicalJSON)]) throws(SweepDefinitionError) -> ContainerOverride? {
        var members: [String: CanonicalJSON] = [:]
        for (path, value) in values where isContainer(path) { members[String(path.dropFirst("container.".count))] = value }
        guard !members.isEmpty else { return nil }
        do {
            return try ConfigurationJSON.containerOverride(from: .object(members))
        } catch let e as ConfigurationJSONError {
            throw SweepDefinitionError(part: e.field, message: e.message)
        } catch {
            throw SweepDefinitionError(part: "container", message: "\(error)")
        }
    }

    static func lookup(_ keys: [String], in value: CanonicalJSON) -> CanonicalJSON? {
        var v = value
        for k in keys {
            guard case .object(let m) = v, let next = m[k] else { return nil }
            v = next
        }
        return v
    }

    static func set(_ keys: ArraySlice<String>, to value: CanonicalJSON, in target: CanonicalJSON) -> CanonicalJSON {
        guard let first = keys.first else { return value }
        var m: [String: CanonicalJSON] = [:]
        if case .object(let existing) = target { m = existing }
        m[first] = set(keys.dropFirst(), to: value, in: m[first] ?? .object([:]))
        return .object(m)
    }
}

// MARK: - Parameters and the grid

/// One `--vary PATH=SPEC`: the path and its values.
public struct SweepParameter: Hashable, Sendable {
    /// The configuration path or `container.*` path.
    public var path: String
    /// The spec as typed.
    public var spec: String
    /// The values, in the spec's order.
    public var values: [CanonicalJSON]

    public init(path: String, spec: String, values: [CanonicalJSON]) {
        self.path = path; self.spec = spec; self.values = values
    }

    /// Reads `PATH=SPEC`.
    /// - Throws: `SweepDefinitionError` naming the text.
    public init(parsing text: String) throws(SweepDefinitionError) {
        guard let eq = text.firstIndex(of: "=") else {
            throw SweepDefinitionError(part: text, message: "expected PATH=SPEC, e.g. press_animation.damping_ratio=0.3:1.0:0.1")
        }
        let path = text[..<eq].trimmingCharacters(in: .whitespaces)
        guard !path.isEmpty else { throw SweepDefinitionError(part: text, message: "no path before '='") }
        let spec = String(text[text.index(after: eq)...])
        self.init(path: path, spec: spec, values: try SweepSpec.values(spec, part: text))
    }

    /// `PATH=SPEC` as typed.
    public var text: String { "\(path)=\(spec)" }
}

/// One point of the grid: a value per parameter, by index into each parameter's values.
public struct SweepPoint: Hashable, Sendable {
    /// 1, 2, …, in grid order (the first parameter varies slowest).
    public var number: Int
    /// Per parameter, the index of its value.
    public var indices: [Int]
    public init(number: Int, indices: [Int]) { self.number = number; self.indices = indices }
}

/// A sweep's definition: the base, the parameters, and which points of their grid to replay.
public struct SweepDefinition: Hashable, Sendable {
    /// The most points a sweep replays; a larger grid needs `--sample`.
    public static let maximumPoints = 10_000

    public var base: String
    public var parameters: [SweepParameter]
    /// Draw this many distinct grid points at random instead of every point.
    public var sample: Int?
    /// The seed of the draw (PressCore's `SplitMix64`).
    public var seed: UInt64

    public init(base: String, parameters: [SweepParameter], sample: Int? = nil, seed: UInt64 = 1) {
        self.base = base; self.parameters = parameters; self.sample = sample; self.seed = seed
    }

    /// The number of grid points (every combination); nil when it exceeds 2^53.
    public var gridSize: Int? {
        var n = 1
        for p in parameters {
            let (m, overflow) = n.multipliedReportingOverflow(by: p.values.count)
            guard !overflow, m <= 1 << 53 else { return nil }
            n = m
        }
        return n
    }

    /// The grid index of a point's value indices (first parameter slowest) and back.
    func indices(ofGridIndex g: Int) -> [Int] {
        var rest = g
        var out = [Int](repeating: 0, count: parameters.count)
        for i in parameters.indices.reversed() {
            out[i] = rest % parameters[i].values.count
            rest /= parameters[i].values.count
        }
        return out
    }

    /// The points to replay, numbered from 1 in grid order: the whole grid, or `sample` distinct
    /// points drawn uniformly without replacement (Floyd's algorithm; Bentley, "Programming
    /// Pearls: A sample of brilliance", CACM 30(9), 1987), kept in grid order.
    /// - Throws: `SweepDefinitionError` when there is no parameter, the grid is larger than
    ///   `maximumPoints` without `sample`, or `sample` is not positive.
    public func points() throws(SweepDefinitionError) -> [SweepPoint] {
        guard !parameters.isEmpty else {
            throw SweepDefinitionError(part: "--vary", message: "give at least one parameter to vary: --vary PATH=SPEC")
        }
        var seen = Set<String>()
        for p in parameters where !seen.insert(p.path).inserted {
            throw SweepDefinitionError(part: p.path, message: "is varied twice; give all its values in one --vary")
        }
        guard let size = gridSize else {
            throw SweepDefinitionError(part: "--vary", message: "the grid has more than 2^53 points; vary fewer parameters")
        }
        var chosen: [Int]
        if let sample {
            guard sample >= 1 else { throw SweepDefinitionError(part: "--sample", message: "must be at least 1, not \(sample)") }
            guard sample <= Self.maximumPoints else {
                throw SweepDefinitionError(part: "--sample", message: "at most \(Self.maximumPoints) points, not \(sample)")
            }
            if sample >= size {
                chosen = Array(0..<size)
            } else {
                var generator = SplitMix64(seed: seed)
                var set = Set<Int>()
                for j in (size - sample)..<size {
                    let t = Int(generator.next() % UInt64(j + 1))
                    set.insert(set.contains(t) ? j : t)
                }
                chosen = set.sorted()
            }
        } else {
            guard size <= Self.maximumPoints else {
                throw SweepDefinitionError(part: "--vary", message: "the grid has \(size) points, more than \(Self.maximumPoints); "
                    + "vary fewer values, or draw some with --sample N")
            }
            chosen = Array(0..<size)
        }
        return chosen.enumerated().map { SweepPoint(number: $0.offset + 1, indices: indices(ofGridIndex: $0.element)) }
    }

    /// A point's `(path, value)` pairs, in parameter order.
    public func values(of point: SweepPoint) -> [(path: String, value: CanonicalJSON)] {
        zip(parameters, point.indices).map { ($0.path, $0.values[$1]) }
    }

    /// The name a point's configuration gets: `BASE@sweepID.POINT` (the sweep's id once stored;
    /// `BASE@sweep.POINT` before).
    public static func pointName(base: String, sweep: Int64?, point: Int) -> String {
        "\(base)@sweep\(sweep.map(String.init) ?? "").\(point)"
    }

    // MARK: JSON

    /// `{"base": …, "parameters": [{"path", "spec", "values"}], "sample": n|null, "seed": s}`.
    public var json: CanonicalJSON {
        .object([
            "base": .string(base),
            "parameters": .array(parameters.map {
                .object(["path": .string($0.path), "spec": .string($0.spec), "values": .array($0.values)])
            }),
            "sample": sample.map { .number(Double($0)) } ?? .null,
            "seed": .string(String(seed)),
        ])
    }

    /// Reads `json`'s form back.
    /// - Throws: `SweepDefinitionError` for a document that is not one.
    public init(json value: CanonicalJSON) throws(SweepDefinitionError) {
        func bad() -> SweepDefinitionError { SweepDefinitionError(part: "", message: "not a stored sweep definition") }
        guard case .object(let m) = value, case .string(let base)? = m["base"], case .array(let ps)? = m["parameters"],
              case .string(let seedText)? = m["seed"], let seed = UInt64(seedText) else { throw bad() }
        var parameters: [SweepParameter] = []
        for p in ps {
            guard case .object(let q) = p, case .string(let path)? = q["path"], case .string(let spec)? = q["spec"],
                  case .array(let values)? = q["values"] else { throw bad() }
            parameters.append(SweepParameter(path: path, spec: spec, values: values))
        }
        var sample: Int? = nil
        if case .number(let n)? = m["sample"] { sample = Int(n) }
        self.init(base: base, parameters: parameters, sample: sample, seed: seed)
    }
}
