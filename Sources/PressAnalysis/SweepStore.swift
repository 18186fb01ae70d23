// The `sweeps` table (migrations/0004_sweeps.sql): a finished sweep's definition, its points'
// configurations and every row's metrics, as JSON, so that it can be shown again and a point
// exported as a configuration without replaying anything.
import PressCore
import PressFormats
import PressStats
import PressSQLite
import PressStore

/// A point's configuration as a sweep stored it.
public struct StoredSweepPoint: Sendable, Hashable {
    public var point: Int
    public var values: [SweepValue]
    public var configuration: PressConfiguration
    public var containerOverride: ContainerOverride?
    public init(point: Int, values: [SweepValue], configuration: PressConfiguration, containerOverride: ContainerOverride?) {
        self.point = point; self.values = values; self.configuration = configuration; self.containerOverride = containerOverride
    }
}

/// A sweep read back from the `sweeps` table.
public struct StoredSweep: Sendable {
    public var id: Int64
    public var createdAt: String
    public var report: SweepReport
    /// `--where` as given.
    public var equals: [String: String]
    /// The median duration of the base's taps (ms), for the typical-tap chart.
    public var medianTapDurationMs: Double?
    /// The base configuration as it was, and the points' configurations.
    public var base: PressConfiguration
    public var points: [StoredSweepPoint]

    public init(id: Int64, createdAt: String, report: SweepReport, equals: [String: String], medianTapDurationMs: Double?,
                base: PressConfiguration, points: [StoredSweepPoint]) {
        self.id = id; self.createdAt = createdAt; self.report = report; self.equals = equals
        self.medianTapDurationMs = medianTapDurationMs; self.base = base; self.points = points
    }
}

/// Why a stored sweep cannot be read.
public enum SweepStoreError: Error, CustomStringConvertible, Sendable {
    case noSuchSweep(Int64, known: [Int64])
    case damaged(Int64, String)
    public var description: String {
        switch self {
        case let .noSuchSweep(id, known):
            return "no sweep \(id) is stored; " + (known.isEmpty ? "none is (run 'pressdb sweep' first)"
                : "stored sweeps: " + known.map(String.init).joined(separator: ", "))
        case let .damaged(id, why): return "sweep \(id) cannot be read: \(why)"
        }
    }
}

/// Reads and writes the `sweeps` table.
public enum SweepStore {
    /// Integer-valued metrics (counts), read back as integers.
    static let integerNames: Set<String> = ["sessions", "taps", "cancels", "scroll_aborts", "false_actions", "unseen_presses",
                                            "pairs", "failures"]

    /// Stores a finished sweep; returns its id.
    /// - Throws: `DatabaseError`.
    @discardableResult
    public static func save(_ report: SweepReport, base: PressConfiguration, points: [StoredSweepPoint],
                            equals: [String: String], medianTapDurationMs: Double?, in store: Store) throws -> Int64 {
        var definition: [String: CanonicalJSON] = [:]
        if case .object(let m) = report.definition.json { definition = m }
        definition["where"] = .object(equals.mapValues { .string($0) })
        definition["objectives"] = .array(report.objectives.map { .string($0.description) })
        definition["weights"] = report.weights.map { .array($0.map { .number($0) }) } ?? .null
        definition["median_tap_duration_ms"] = medianTapDurationMs.map { .number($0) } ?? .null
        let pointsJSON = CanonicalJSON.array(points.map { p in
            .object(["point": .number(Double(p.point)),
                     "values": .array(p.values.map { .object(["path": .string($0.path), "value": $0.value]) }),
                     "version": .string(p.configuration.version),
                     "configuration": p.configuration.definition,
                     "container": p.containerOverride.map(ConfigurationJSON.encode) ?? .null])
        })
        let rows = CanonicalJSON.array(([report.base] + report.rows).map(rowJSON))
        let s = try store.db.prepare("""
            INSERT INTO sweeps(base, base_version, definition, sessions, unit, units, points, aggregates)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """)
        s.bind(1, base.name); s.bind(2, base.version); s.bind(3, CanonicalJSON.object(definition).text)
        s.bind(4, report.sessions); s.bind(5, report.unit.rawValue); s.bind(6, report.units)
        s.bind(7, pointsJSON.text); s.bind(8, rows.text)
        try s.run()
        return try store.db.prepare("SELECT last_insert_rowid()").scalarInt() ?? 0
    }

    static func rowJSON(_ r: SweepRow) -> CanonicalJSON {
        var metrics: [String: CanonicalJSON] = [:]
        for c in r.metrics {
            switch c.value {
            case .integer(let i): metrics[c.name] = .number(Double(i))
            case .real(let d): metrics[c.name] = .number(d)
            default: metrics[c.name] = .null
            }
        }
        return .object(["point": .number(Double(r.point)), "metrics": .object(metrics), "pareto": .bool(r.pareto),
                        "score": r.score.map { .number($0) } ?? .null, "rank": r.rank.map { .number(Double($0)) } ?? .null])
    }

    /// The ids of the stored sweeps, oldest first.
    public static func ids(in store: Store) throws -> [Int64] {
        let s = try store.db.prepare("SELECT id FROM sweeps ORDER BY id")
        var out: [Int64] = []
        while try s.step() { out.append(s.int64(0)) }
        return out
    }

    /// Reads sweep `id`.
    /// - Throws: `SweepStoreError.noSuchSweep`, `.damaged`, `DatabaseError`.
    public static func load(_ id: Int64, from store: Store) throws -> StoredSweep {
        let s = try store.db.prepare("""
            SELECT base, base_version, definition, sessions, unit, units, points, aggregates, created_at FROM sweeps WHERE id = ?
            """)
        s.bind(1, id)
        guard try s.step() else { throw SweepStoreError.noSuchSweep(id, known: try ids(in: store)) }
        func damaged(_ why: String) -> SweepStoreError { .damaged(id, why) }
        func parse(_ text: String) throws -> CanonicalJSON {
            do { return try CanonicalJSON(parsing: text) } catch { throw damaged("not valid JSON: \(error)") }
        }
        let baseName = s.text(0), baseVersion = s.text(1)
        let definitionJSON = try parse(s.text(2))
        guard case .object(let d) = definitionJSON, let unit = AnalysisUnit(rawValue: s.text(4)) else { throw damaged("its definition") }
        let definition: SweepDefinition
        do { definition = try SweepDefinition(json: definitionJSON) } catch { throw damaged("\(error)") }
        var equals: [String: String] = [:]
        if case .object(let w)? = d["where"] { for (k, v) in w { if case .string(let t) = v { equals[k] = t } } }
        var objectives: [SweepObjective] = []
        if case .array(let names)? = d["objectives"] {
            for n in names {
                guard case .string(let t) = n, let o = try? SweepObjective(parsing: t) else { throw damaged("its objectives") }
                objectives.append(o)
            }
        }
        var weights: [Double]? = nil
        if case .array(let ws)? = d["weights"] { weights = ws.compactMap { if case .number(let x) = $0 { x } else { nil } } }
        var median: Double? = nil
        if case .number(let m)? = d["median_tap_duration_ms"] { median = m }

        guard case .array(let pointItems) = try parse(s.text(6)) else { throw damaged("its points") }
        var points: [StoredSweepPoint] = []
        for item in pointItems {
            guard case .object(let p) = item, case .number(let n)? = p["point"], case .array(let vs)? = p["values"],
                  let definition = p["configuration"] else { throw damaged("a point") }
            let configuration: PressConfiguration
            do { configuration = try ConfigurationJSON.configuration(from: definition, bases: []) } catch {
                throw damaged("point \(Int(n))'s configuration: \(error)")
            }
            var override: ContainerOverride? = nil
            if let c = p["container"], c != .null {
                do { override = try ConfigurationJSON.containerOverride(from: c) } catch { throw damaged("point \(Int(n))'s container") }
            }
            points.append(StoredSweepPoint(point: Int(n), values: try values(vs, damaged), configuration: configuration,
                                           containerOverride: override))
        }
        guard case .array(let rowItems) = try parse(s.text(7)), !rowItems.isEmpty else { throw damaged("its rows") }
        var rows: [SweepRow] = []
        for item in rowItems {
            guard case .object(let r) = item, case .number(let n)? = r["point"], case .object(let m)? = r["metrics"],
                  case .bool(let pareto)? = r["pareto"] else { throw damaged("a row") }
            let metrics = SweepReport.metricNames.map { name -> SweepColumn in
                guard case .number(let x)? = m[name] else { return SweepColumn(name: name, value: .null) }
                return SweepColumn(name: name, value: integerNames.contains(name) ? .integer(Int64(x)) : .real(x))
            }
            var score: Double? = nil, rank: Int? = nil
            if case .number(let x)? = r["score"] { score = x }
            if case .number(let x)? = r["rank"] { rank = Int(x) }
            let point = Int(n)
            rows.append(SweepRow(point: point, values: points.first { $0.point == point }?.values ?? [], metrics: metrics,
                                 pareto: pareto, score: score, rank: rank))
        }
        let base = rows.removeFirst()
        let baseConfiguration = try baseConfiguration(named: baseName, version: baseVersion, points: points, store: store)
        let report = SweepReport(definition: definition, baseVersion: baseVersion, unit: unit, sessions: s.int(3), units: s.int(5),
                                 objectives: objectives, weights: weights, base: base, rows: rows)
        return StoredSweep(id: id, createdAt: s.text(8), report: report, equals: equals, medianTapDurationMs: median,
                           base: baseConfiguration, points: points)
    }

    static func values(_ items: [CanonicalJSON], _ damaged: (String) -> SweepStoreError) throws -> [SweepValue] {
        try items.map { item in
            guard case .object(let v) = item, case .string(let path)? = v["path"], let value = v["value"] else {
                throw damaged("a point's values")
            }
            return SweepValue(path: path, value: value)
        }
    }

    /// The base as it was when the sweep ran: the preset or stored version with that version
    /// (`configs` keeps every version), else its current definition.
    static func baseConfiguration(named name: String, version: String, points: [StoredSweepPoint], store: Store) throws -> PressConfiguration {
        if let p = PressConfiguration.preset(named: name), p.version == version { return p }
        let s = try store.db.prepare("SELECT definition FROM configs WHERE name = ? AND version = ?")
        s.bind(1, name); s.bind(2, version)
        let catalog = try ConfigurationCatalog(store: store)
        if try s.step(), let c = try? ConfigurationJSON.parse(s.text(0), bases: catalog.bases) { return c }
        if let c = catalog.resolve(name) { return c }
        throw SweepStoreError.damaged(0, "its base configuration \(name) version \(version) is no longer known")
    }
}
