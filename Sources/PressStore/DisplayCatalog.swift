// The display profiles a database knows: the built-in ones (PressCore's `DisplayProfile.builtIn`)
// and those added from JSON into `displays` (`pressdb displays add`).
import PressCore
import PressFormats

/// Why a display profile cannot be stored.
public enum DisplayCatalogError: Error, CustomStringConvertible, Sendable {
    /// The name is a built-in profile's.
    case builtInName(String)
    public var description: String {
        switch self {
        case .builtInName(let n):
            return "'\(n)' is a built-in display profile and cannot be redefined; give yours its own name"
        }
    }
}

extension ConfigurationCatalog {
    /// Loads `displays` (a definition that no longer parses is skipped). Databases before schema
    /// version 9 have no such table: none.
    func loadDisplays() throws {
        guard let store else { return }
        guard try store.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'displays'").scalarInt() != nil
        else { return }
        let s = try store.db.prepare("SELECT definition FROM displays ORDER BY name")
        while try s.step() {
            if let p = try? DisplayProfileJSON.parseFile(s.text(0)).first { displays[p.name] = p }
        }
    }

    /// The profile `name` names: built in, else added; nil when neither.
    public func display(named name: String) -> DisplayProfile? {
        DisplayProfile.builtIn(named: name) ?? displays[name]
    }

    /// Every profile: the built-in ones first, then the added ones by name.
    public var allDisplays: [DisplayProfile] {
        DisplayProfile.builtIn + displays.keys.sorted().map { displays[$0]! }
    }

    /// Stores `profile` (replacing an added profile of the same name). Returns false when that
    /// exact definition is already stored.
    /// - Throws: `DisplayCatalogError.builtInName`, `DatabaseError`.
    @discardableResult
    public func addDisplay(_ profile: DisplayProfile) throws -> Bool {
        if DisplayProfile.builtIn(named: profile.name) != nil { throw DisplayCatalogError.builtInName(profile.name) }
        if displays[profile.name] == profile { return false }
        if let store {
            let s = try store.db.prepare("""
                INSERT INTO displays(name, definition) VALUES (?, ?)
                ON CONFLICT(name) DO UPDATE SET definition = excluded.definition,
                    added_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
                """)
            s.bind(1, profile.name)
            s.bind(2, profile.definition.text)
            try s.run()
        }
        displays[profile.name] = profile
        return true
    }
}
