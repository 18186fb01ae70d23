// The configurations a database knows: the built-in presets, plus every definition stored in
// `configs`. A name resolves to its most recently added version; old versions stay so their
// results keep meaning what they meant.
import PressCore
import PressFormats
import PressSQLite

/// Where a configuration's current definition comes from.
public enum ConfigurationOrigin: String, Sendable {
    case preset, stored
}

/// Why a configuration cannot be stored.
public enum CatalogError: Error, CustomStringConvertible, Sendable {
    /// The name is a built-in preset's; presets cannot be redefined.
    case presetName(String)
    public var description: String {
        switch self {
        case .presetName(let n):
            return "'\(n)' is a built-in preset and cannot be redefined; give your configuration its own name "
                + "(it may start from the preset with \"base\": \"\(n)\")"
        }
    }
}

/// Resolves configuration names against the presets and the `configs` table, and stores new
/// definitions (from `pressdb config add` or `{"type":"config"}` log records).
///
///     let catalog = try ConfigurationCatalog(store: store)
///     let c = catalog.resolve("spring-press")   // PressConfiguration?
public final class ConfigurationCatalog {
    /// The database the definitions are stored in; nil for a catalog held in memory only.
    public let store: Store?
    /// Current definition per name.
    public private(set) var current: [String: (configuration: PressConfiguration, origin: ConfigurationOrigin)] = [:]
    /// Display profiles added to the database (`displays`), by name; the built-in ones are not
    /// here (PressStore/DisplayCatalog.swift).
    public internal(set) var displays: [String: DisplayProfile] = [:]

    /// The presets alone, held in memory: `add` keeps a definition here without writing it
    /// anywhere (`pressdb replay --input`, which has no database). `versions` and
    /// `importConfigRecords` need a store.
    public init() {
        store = nil
        for p in PressConfiguration.presets { current[p.name] = (p, .preset) }
    }

    /// Loads the presets and the `configs` table.
    /// - Throws: `DatabaseError`; a stored definition that no longer parses is skipped, not fatal.
    public init(store: Store) throws {
        self.store = store
        for p in PressConfiguration.presets { current[p.name] = (p, .preset) }
        let s = try store.db.prepare("SELECT name, definition FROM configs ORDER BY added_at, rowid")
        while try s.step() {
            let name = s.text(0)
            if let c = try? ConfigurationJSON.parse(s.text(1), bases: bases) {
                current[name] = (c, .stored)
            }
        }
        try loadDisplays()
    }

    /// The configurations a `base` field may name: every current one.
    public var bases: [PressConfiguration] { current.values.map(\.configuration) }

    /// The current configuration called `name`, or nil.
    public func resolve(_ name: String) -> PressConfiguration? { current[name]?.configuration }

    /// Stores `configuration` as the current definition of its name. Returns false when that
    /// exact version is already the current one (nothing written).
    /// - Throws: `CatalogError.presetName` for a preset's name (a preset means one thing in every
    ///   database), `DatabaseError`.
    @discardableResult
    public func add(_ configuration: PressConfiguration) throws -> Bool {
        if PressConfiguration.preset(named: configuration.name) != nil {
            throw CatalogError.presetName(configuration.name)
        }
        if let existing = current[configuration.name], existing.configuration.version == configuration.version {
            return false
        }
        if let store {
            let s = try store.db.prepare("""
                INSERT INTO configs(name, version, definition) VALUES (?, ?, ?)
                ON CONFLICT(name, version) DO UPDATE SET added_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                """)
            s.bind(1, configuration.name)
            s.bind(2, configuration.version)
            s.bind(3, configuration.definitionJSON)
            try s.run()
        }
        current[configuration.name] = (configuration, .stored)
        return true
    }

    /// Every stored version of `name`, oldest first by `added_at` (re-adding an old version
    /// makes it current again).
    public func versions(_ name: String) throws -> [(version: String, addedAt: String)] {
        guard let store else { return current[name].map { [($0.configuration.version, "")] } ?? [] }
        let s = try store.db.prepare("SELECT version, added_at FROM configs WHERE name = ? ORDER BY added_at, rowid")
        s.bind(1, name)
        var out: [(String, String)] = []
        while try s.step() { out.append((s.text(0), s.text(1))) }
        return out
    }

    /// Turns `{"type":"config"}` records stored by ingest (`config_records`) into configurations.
    /// A record that does not parse becomes a reject (its file, line, reason and text) and is
    /// removed from `config_records`, so it is reported once and kept where rejects are kept.
    /// - Returns: the rejects, in file and line order.
    public func importConfigRecords() throws -> [Reject] {
        guard let store else { return [] }
        let s = try store.db.prepare("SELECT id, definition, source_file, line FROM config_records ORDER BY id")
        var rows: [(id: Int64, text: String, file: String, line: Int)] = []
        while try s.step() { rows.append((s.int64(0), s.text(1), s.text(2), s.int(3))) }
        var rejects: [Reject] = []
        for row in rows {
            do {
                let c = try ConfigurationJSON.parse(row.text, bases: bases)
                try add(c)
            } catch {
                let r = Reject(source: SourceLocation(file: row.file, line: row.line),
                               reason: "configuration record: \(error)", raw: row.text)
                rejects.append(r)
                let source = try store.db.prepare("SELECT id FROM sources WHERE name = ? ORDER BY id DESC LIMIT 1")
                    .bound([.text(row.file)]).scalarInt()
                try store.insertReject(r, sourceID: source)
                let d = try store.db.prepare("DELETE FROM config_records WHERE id = ?")
                d.bind(1, row.id)
                try d.run()
            }
        }
        return rejects
    }
}

extension Statement {
    /// Binds `values` and returns the statement, for one-line queries.
    package func bound(_ values: [SQLValue]) -> Statement { bind(values); return self }
}
