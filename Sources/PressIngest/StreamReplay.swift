// Replay as a stream filter (`pressdb replay --input`): the ingest loop's sessions, replayed the
// moment they complete and written as result lines, with no database. The same readers, the same
// loop and rules as ingest (`Ingester(streamingTo:)`); what ingest would store becomes lines.
import PressCore
import PressFormats
import PressSQLite
import PressStore

/// What a stream replay did.
public struct StreamReplaySummary: Sendable {
    /// Result lines written.
    public var results = 0
    /// Pending lines written (sessions still open at the end).
    public var pending = 0
    /// Sessions that name a configuration that is neither a preset nor defined by a
    /// `{"type":"config"}` record of the stream, per name: not replayed (an `unreplayed` line each).
    public var unknownConfigs: [String: Int] = [:]
    /// Sessions that cannot be replayed (e.g. a zero-sized frame), with the reason; at most 20 kept.
    public var failures: [(session: String, reason: String)] = []
    public var failureCount = 0
    /// Configuration records that changed a configuration after sessions had been replayed under
    /// its earlier version: name, the record's place, and how many sessions were.
    public var redefinitions: [(name: String, at: SourceLocation, sessions: Int)] = []
}

/// The ingest sink of `pressdb replay --input`: replays each complete session under its own
/// configuration (or `target`, counterfactually, as `Replayer.replay(_:as:)` does) and writes
/// its result line (`ResultLines`), writes a pending line for each session still open at the
/// end, hands rejects to `onReject`, and keeps `{"type":"config"}` definitions in an in-memory
/// catalog. It holds nothing but the sessions whose configuration is not known yet when they
/// complete; those are replayed at the end if the stream defined it by then.
///
///     let stream = StreamReplay(options: ReplayOptions(), write: { out.write($0) }, onReject: { print($0) })
///     let ingester = Ingester(streamingTo: stream, options: IngestOptions())
///     try ingester.ingest(&reader, input: input)
///     _ = try ingester.finish()
public final class StreamReplay: IngestSink {
    public let catalog: ConfigurationCatalog
    public let options: ReplayOptions
    /// `--as`: every session replayed under this configuration.
    public let target: PressConfiguration?
    public private(set) var summary = StreamReplaySummary()
    private let write: ([UInt8]) -> Void
    private let onReject: (Reject) -> Void
    private var lines = ResultLines()
    private var sourceNames: [String] = []
    /// Ids of the origin files named by framed lines (`sourceID(of:input:)`).
    private var originIDs: [String: Int64] = [:]
    private var nextSessionID: Int64 = 0
    /// Resolved configurations by name (nil: not known yet).
    private var resolved: [String: PressConfiguration?] = [:]
    /// Sessions replayed so far per configuration name and version (to tell a redefinition).
    private var replayedUnder: [String: (version: String, sessions: Int)] = [:]
    /// Sessions whose configuration was unknown when they completed.
    private var unresolved: [AssembledSession] = []
    /// Bytes buffered before `write` is called.
    static let chunk = 1 << 20

    /// - Parameters:
    ///   - catalog: the configurations known at the start (the presets; `{"type":"config"}`
    ///     records add to it).
    ///   - options: display, default configuration and container (as `pressdb replay`'s).
    ///   - target: `--as CONFIG`.
    ///   - write: called with a chunk of lines (about 1 MiB) and at the end.
    ///   - onReject: each reject, in input order.
    public init(catalog: ConfigurationCatalog = ConfigurationCatalog(), options: ReplayOptions = ReplayOptions(),
                target: PressConfiguration? = nil, write: @escaping ([UInt8]) -> Void,
                onReject: @escaping (Reject) -> Void) {
        self.catalog = catalog
        self.options = options
        self.target = target
        self.write = write
        self.onReject = onReject
        lines.buffer.reserveCapacity(Self.chunk + 4096)
    }

    /// Appends a line written by `body` to the output (rejects as NDJSON, for `--rejects -`).
    public func emit(_ body: (inout ResultLines) -> Void) {
        body(&lines)
        if lines.buffer.count >= Self.chunk { drain() }
    }

    private func drain() {
        guard !lines.buffer.isEmpty else { return }
        write(lines.buffer)
        lines.buffer.removeAll(keepingCapacity: true)
    }

    // MARK: Replaying

    /// The configuration a session is replayed under and whether that is counterfactual; nil
    /// when its own configuration is not known (yet).
    private func choose(_ s: AssembledSession) -> (PressConfiguration, Bool)? {
        let name = s.meta.config ?? options.defaultConfig
        let own: PressConfiguration?
        if let known = resolved[name] { own = known } else {
            own = catalog.resolve(name)
            resolved[name] = own
        }
        if let target { return (target, own?.version != target.version) }
        return own.map { ($0, false) }
    }

    private func replay(_ s: AssembledSession, under configuration: PressConfiguration, counterfactual: Bool) {
        let result: SessionResult
        do {
            result = try Replay.session(s.samples, attributes: s.meta, defaultContainer: options.defaultContainer,
                                        configuration: configuration, display: options.display(for: s.meta))
        } catch {
            summary.failureCount += 1
            if summary.failures.count < 20 { summary.failures.append((s.id, "\(error)")) }
            emit { $0.unreplayed(session: s.id, config: configuration.name, reason: "cannot be replayed: \(error)") }
            return
        }
        let row = ResultRow(sessionID: 0, configuration: configuration, counterfactual: counterfactual, result: result)
        replayedUnder[configuration.name, default: (configuration.version, 0)].sessions += 1
        summary.results += 1
        emit { $0.result(s, row) }
    }

    // MARK: IngestSink

    func end(committing: Bool) { if committing { drain() } }

    /// The end of the stream: the sessions held for a configuration are replayed now, or written
    /// as `unreplayed`; then everything is written.
    func commitAndEnd() throws {
        resolved = [:]
        for s in unresolved {
            if let (c, counterfactual) = choose(s) {
                replay(s, under: c, counterfactual: counterfactual)
            } else {
                let name = s.meta.config ?? options.defaultConfig
                summary.unknownConfigs[name, default: 0] += 1
                emit { $0.unreplayed(session: s.id, config: name, reason: "configuration '\(name)' is neither a preset nor defined by a {\"type\":\"config\"} record") }
            }
        }
        unresolved = []
        drain()
    }

    func batchIsDue(_ options: IngestOptions) -> Bool { false }
    func commitBatch(committed: () -> Void) throws { committed() }

    func beginSource(name: String) throws -> Int64 {
        sourceNames.append(name)
        return Int64(sourceNames.count)
    }

    func finishSource(id: Int64, input: ByteInput, records: Int, rejects: Int) throws -> Int64 { id }

    func sourceID(of location: SourceLocation, input: Int64) -> Int64 {
        if location.file == sourceNames[Int(input - 1)] { return input }
        if let id = originIDs[location.file] { return id }
        sourceNames.append(location.file)
        originIDs[location.file] = Int64(sourceNames.count)
        return Int64(sourceNames.count)
    }

    func sourceName(_ id: Int64) throws -> String {
        id >= 1 && id <= sourceNames.count ? sourceNames[Int(id - 1)] : "?"
    }

    func pendingIDs() throws -> Set<String> { [] }
    func pending(_ session: String) throws -> AssembledSession? { nil }
    func storedSamples(_ session: String) throws -> [TouchSample]? { nil }
    func deletePending(_ session: String) throws {}

    func insert(_ s: AssembledSession) throws -> Int64? {
        nextSessionID += 1
        if let (c, counterfactual) = choose(s) {
            replay(s, under: c, counterfactual: counterfactual)
        } else {
            unresolved.append(s)
        }
        return nextSessionID
    }

    func keepPending(_ s: AssembledSession) throws {
        summary.pending += 1
        let first = try SourceLocation(file: sourceName(s.first.sourceID), line: s.first.line)
        let last = try SourceLocation(file: sourceName(s.last.sourceID), line: s.last.line)
        emit { $0.pending(s, first: first, last: last) }
    }

    func reject(_ r: Reject, sourceID: Int64?) throws { onReject(r) }

    /// A configuration record defines (or redefines) a configuration from here on; one that
    /// does not parse, or names a preset, is a reject (what ingest's later import makes of it).
    func configRecord(_ c: ConfigRecordText) throws {
        let configuration: PressConfiguration
        do {
            configuration = try ConfigurationJSON.parse(c.json, bases: catalog.bases)
            try catalog.add(configuration)
        } catch {
            return onReject(Reject(source: c.source, reason: "configuration record: \(error)", raw: c.json))
        }
        resolved[configuration.name] = nil
        if let before = replayedUnder[configuration.name], before.version != configuration.version {
            summary.redefinitions.append((configuration.name, c.source, before.sessions))
            replayedUnder[configuration.name] = nil
        }
    }
}
