// What a partial summarises (docs/scale-out.md, "What a partial summarises"): per input its
// content hash and the range of its session ids, so `pressdb merge` can tell when two partials
// hold the same sessions — which addition would count twice.
import PressCore

/// One input of a partial: result lines (a file, or standard input) or a log ingested into the
/// database the partial was aggregated from.
public struct PartialSource: Sendable, Hashable {
    /// The file as given ("-" for standard input), or the ingested log's name in the database.
    public var name: String
    /// FNV-1a 64 of the input (16 hex digits): of its lines, each ended by a line feed, for
    /// result lines; the `sources` table's hash of the log's bytes, from a database.
    public var contentHash: String
    /// The sessions read from it.
    public var sessions: Int
    /// Its smallest and largest session id, in UTF-8 byte order (nil when it held none).
    public var firstSession: String?
    public var lastSession: String?

    public init(name: String, contentHash: String, sessions: Int, firstSession: String?, lastSession: String?) {
        self.name = name
        self.contentHash = contentHash
        self.sessions = sessions
        self.firstSession = firstSession
        self.lastSession = lastSession
    }

    /// The session ids known to be in this source: its two ends.
    var ends: [String] { [firstSession, lastSession].compactMap { $0 } }

    /// Sources in the file's order: by hash, then name, then range.
    static func precedes(_ a: PartialSource, _ b: PartialSource) -> Bool {
        (a.contentHash, a.name, a.firstSession ?? "", a.lastSession ?? "") < (b.contentHash, b.name, b.firstSession ?? "", b.lastSession ?? "")
    }

    /// Builds a source while its lines are read: every line hashed, every session's id counted.
    public struct Reading: Sendable {
        public let name: String
        var hash = FNV1a64()
        var sessions = 0
        var first: String?
        var last: String?

        public init(name: String) { self.name = name }

        /// Feeds one line (without its line feed) into the hash.
        public mutating func line(_ bytes: UnsafeBufferPointer<UInt8>) {
            hash.update(bytes)
            hash.update(CollectionOfOne(UInt8(ascii: "\n")))
        }

        /// Counts a session read from the input.
        public mutating func session(_ id: String) {
            sessions += 1
            if first.map({ id.utf8.lexicographicallyPrecedes($0.utf8) }) ?? true { first = id }
            if last.map({ $0.utf8.lexicographicallyPrecedes(id.utf8) }) ?? true { last = id }
        }

        public var source: PartialSource {
            PartialSource(name: name, contentHash: hash.hex, sessions: sessions, firstSession: first, lastSession: last)
        }
    }
}

extension Partial {
    /// Why `a` and `b` hold sessions in common, or nil when nothing says they do: an input in
    /// both (the same content hash — the same file aggregated twice, or a partial merged with one
    /// it already holds), or a session id in both (an end of one's source range equal to an end
    /// of the other's). Ranges that merely interleave do not count: partitions of one log (the
    /// Spark job's) interleave and share no session.
    public static func overlap(_ a: Partial, _ b: Partial) -> String? {
        for x in a.sources {
            if let y = b.sources.first(where: { $0.contentHash == x.contentHash }) {
                let names = x.name == y.name ? "'\(x.name)'" : "'\(x.name)' and '\(y.name)'"
                return "both summarise the same input, \(names) (content hash \(x.contentHash), \(x.sessions) sessions)"
            }
        }
        for x in a.sources {
            for y in b.sources {
                if let id = x.ends.first(where: y.ends.contains) {
                    return "session '\(id)' is in both ('\(x.name)' and '\(y.name)')"
                }
            }
        }
        return nil
    }

    /// Why sessions of no known source matter, for a warning when such a partial is merged.
    public static let unidentifiedNote = "some of its sessions come from no recorded source (a version-1 partial records none: "
        + "no content hashes, no session-id ranges), so their overlap with the others cannot be checked; aggregate them again "
        + "with this pressdb to make it checkable"
}
