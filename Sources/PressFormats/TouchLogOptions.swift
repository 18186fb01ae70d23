// How a touch log that is not quite pressdb's is read: its columns named or renamed, its times
// in another unit, its phases under other names (`pressdb ingest --columns`, `--time-unit`,
// `--phase-names`; docs/log-format.md, "Other exports").
import PressCore

/// The unit of a log's `t`.
public enum TimeUnit: String, CaseIterable, Sendable, Hashable {
    case s, ms, us, ns

    /// How many of the unit make a second: times are divided by it (a correctly rounded
    /// division, so `5003081` ms is the Double nearest 5003.081 s, as the text `5003.081` reads).
    public var perSecond: Double {
        switch self {
        case .s: 1
        case .ms: 1e3
        case .us: 1e6
        case .ns: 1e9
        }
    }
}

/// Options of the NDJSON and CSV readers for exports in other shapes. The default reads pressdb's
/// own format and costs nothing.
public struct TouchLogOptions: Sendable, Hashable {
    /// A CSV without a header: the name of each column, in order (pressdb's field names; other
    /// names become extra attributes). The first line is then a row.
    public var columns: [String]?
    /// A CSV header's names to read as pressdb's field names: header name → field name.
    public var headerNames: [String: String] = [:]
    public var timeUnit = TimeUnit.s
    /// Other names of the phases: name → phase (the phase's own names still read).
    public var phaseNames: [String: TouchPhase] = [:]

    public init() {}

    /// Whether anything is set.
    public var isDefault: Bool { columns == nil && headerNames.isEmpty && timeUnit == .s && phaseNames.isEmpty }

    /// `--columns`: `NAME,NAME,…` names the columns of a header-less CSV; `FIELD=HEADER,…` reads
    /// the header's column HEADER as FIELD. Names are not empty and not repeated.
    /// - Throws: `FieldProblem` saying what is wrong.
    public mutating func setColumns(_ text: String) throws(FieldProblem) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        let mapped = parts.filter { $0.contains("=") }
        if mapped.isEmpty {
            guard !parts.contains(where: \.isEmpty) else { throw FieldProblem("a column name is empty") }
            if let twice = parts.first(where: { p in parts.filter { $0 == p }.count > 1 }) {
                throw FieldProblem("column \(JSONText.string(twice)) is named twice")
            }
            columns = parts
            return
        }
        guard mapped.count == parts.count else {
            throw FieldProblem("give either every column's name (NAME,…, for a CSV without a header) or FIELD=HEADER pairs, not both")
        }
        var names: [String: String] = [:]
        for p in parts {
            let kv = p.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard kv[0].isEmpty == false, kv[1].isEmpty == false else { throw FieldProblem("\(JSONText.string(p)) is not FIELD=HEADER") }
            guard names[kv[1]] == nil else { throw FieldProblem("header \(JSONText.string(kv[1])) is mapped twice") }
            names[kv[1]] = kv[0]
        }
        headerNames = names
    }

    /// `--phase-names`: `PHASE=NAME,…` (a phase may have several names).
    /// - Throws: `FieldProblem` for a phase that is not one of the five, or a name given twice.
    public mutating func setPhaseNames(_ text: String) throws(FieldProblem) {
        var names: [String: TouchPhase] = [:]
        for p in text.split(separator: ",", omittingEmptySubsequences: false).map(String.init) {
            let kv = p.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard kv.count == 2, !kv[1].isEmpty else { throw FieldProblem("\(JSONText.string(p)) is not PHASE=NAME") }
            guard let phase = TouchPhase(rawValue: kv[0]) else {
                throw FieldProblem("\(JSONText.string(kv[0])) is not one of \(FieldCheck.phaseList)")
            }
            guard names[kv[1]] == nil else { throw FieldProblem("name \(JSONText.string(kv[1])) is given twice") }
            names[kv[1]] = phase
        }
        phaseNames = names
    }

    /// The phase `text` names: its own name, or one of `phaseNames`.
    func phase(_ text: String) -> Result<TouchPhase, FieldProblem> {
        if let p = phaseNames[text] { return .success(p) }
        if phaseNames.isEmpty { return FieldCheck.phase(text) }
        if let p = TouchPhase(rawValue: text) { return .success(p) }
        let names = (TouchPhase.allCases.map(\.rawValue) + phaseNames.keys.sorted()).joined(separator: ", ")
        return .failure(FieldProblem("phase \(JSONText.string(text)) is not one of \(names)"))
    }
}

extension RecordChunk {
    /// Divides the times of touch records `from…` by `divisor` (`TouchLogOptions.timeUnit`),
    /// after a reader filled them in its own unit.
    mutating func divideTimes(from start: Int, by divisor: Double) {
        var k = start
        while k < touchCount {
            storage.touches[k].sample.t /= divisor
            k += 1
        }
    }
}

extension RecordItem {
    /// The item with a touch record's time divided by `divisor`.
    func dividingTime(by divisor: Double) -> RecordItem {
        guard divisor != 1, case .touch(var r) = self else { return self }
        r.sample.t /= divisor
        return .touch(r)
    }
}

/// A line read in spite of something that looks like a mistake (a field one edit from a known
/// one): where, and what.
public struct FieldWarning: Hashable, Sendable, CustomStringConvertible {
    public var source: SourceLocation
    public var message: String
    public var description: String { "\(source): warning: \(message)" }
}

/// Unknown field names one edit from a known field (`sesion`, `containr`), warned once per name
/// and input.
struct FieldNameCheck {
    /// The known names: the sample's fields and the field table's keys (and, for CSV, a frame's
    /// columns); one-letter names (`t`, `x`, `y`) are left out: `z` is a field of its own.
    let known: [String]
    private var warned: Set<String> = []
    private(set) var warnings: [FieldWarning] = []
    private(set) var count = 0
    static let kept = 20

    init(csv: Bool) {
        var names = TouchField.sampleFields.map(\.name) + SessionAttribute.allCases.map(\.key)
        if csv {
            names += SessionAttribute.allCases.filter { $0.kind == .frame }.flatMap(\.field.columns)
            names.removeAll { SessionAttribute.named($0)?.kind == .frame }
        }
        known = names.filter { $0.count > 1 }
    }

    /// The known name one edit from `name`, if exactly one is.
    func nearest(_ name: String) -> String? {
        guard name.count >= 3 else { return nil }
        let near = known.filter { Suggestions.distance(name, $0) == 1 }
        return near.count == 1 ? near[0] : nil
    }

    /// Notes an unknown field read at `source` (kept as an extra attribute).
    mutating func unknown(_ name: String, at source: SourceLocation) {
        guard let near = nearest(name), warned.insert(name).inserted else { return }
        count += 1
        if warnings.count < Self.kept {
            warnings.append(FieldWarning(source: source, message: "field \(JSONText.string(name)) is not one pressdb knows "
                + "and is kept as an extra attribute: did you mean \(JSONText.string(near))?"))
        }
    }

    /// " (did you mean …?)" for a required field `missing` when one of `given` is one edit from it.
    func hint(missing: String, given: [String]) -> String {
        guard let typo = given.first(where: { nearest($0) == missing }) else { return "" }
        return "; the line has \(JSONText.string(typo)): did you mean \(JSONText.string(missing))?"
    }
}
