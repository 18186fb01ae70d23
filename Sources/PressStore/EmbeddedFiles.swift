// Access to the SQL files the EmbedSQL plugin compiled into this module.

/// The SQL files of `migrations/` and `reports/`, embedded at build time.
public enum SQLFiles {
    /// Migrations as (file name, SQL), sorted by name (`0001_…`, `0002_…`).
    public static var migrations: [(name: String, sql: String)] {
        EmbeddedSQL.files.filter { $0.kind == "migrations" }.map { ($0.name, $0.sql) }
    }
    /// Report definitions as (file name, SQL), sorted by name.
    public static var reports: [(name: String, sql: String)] {
        EmbeddedSQL.files.filter { $0.kind == "reports" }.map { ($0.name, $0.sql) }
    }
}
