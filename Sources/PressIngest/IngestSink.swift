// The seam between the ingest loop and what it writes to: the loop (`Ingester`) decides by
// `IngestRules` and calls these; `IngestWriter` carries the calls out in the database,
// `StreamReplay` replays each complete session at once and writes lines (no database).
import PressCore
import PressFormats
import PressSQLite
import PressStore

/// Where one ingest run's decisions go. Ids are the sink's own: `sources` and `sessions` row ids
/// for the database, running numbers for a stream.
protocol IngestSink: AnyObject {
    // MARK: The run

    /// Ends the run, committing (or rolling back) what is written; idempotent.
    func end(committing: Bool)
    /// Commits what is written, then ends the run.
    func commitAndEnd() throws
    /// Whether the batch is due to be committed (`IngestOptions.batchSessions`, `.batchFraction`,
    /// `.batchSeconds`).
    func batchIsDue(_ options: IngestOptions) -> Bool
    /// Commits the batch, then calls `committed`, then begins the next.
    func commitBatch(committed: () -> Void) throws

    // MARK: Inputs

    /// An input is about to be read: its id.
    func beginSource(name: String) throws -> Int64
    /// The input `id` was read whole: the id it keeps (a database merges identical contents).
    func finishSource(id: Int64, input: ByteInput, records: Int, rejects: Int) throws -> Int64
    /// The name of input `id`, for a message.
    func sourceName(_ id: Int64) throws -> String
    /// The id a record read from input `input` at `location` is kept under: `input`, except for
    /// a stream whose lines name their own origins (`ByteInput.framesOrigins`), where each origin
    /// file has an id of its own so a pending session names the file its records came from.
    func sourceID(of location: SourceLocation, input: Int64) -> Int64

    // MARK: What earlier runs kept

    /// Ids of the sessions earlier runs left open (pending).
    func pendingIDs() throws -> Set<String>
    /// The pending session `session`, or nil.
    func pending(_ session: String) throws -> AssembledSession?
    /// The samples of the complete session stored as `session`, or nil.
    func storedSamples(_ session: String) throws -> [TouchSample]?

    // MARK: Writes

    /// A complete session: its new id, or nil when a session of this id is stored already.
    func insert(_ s: AssembledSession) throws -> Int64?
    /// A session still open at the end of the run.
    func keepPending(_ s: AssembledSession) throws
    /// The pending session `session` was completed by this run.
    func deletePending(_ session: String) throws
    /// A rejected record (or session), at the input `sourceID`.
    func reject(_ r: Reject, sourceID: Int64?) throws
    /// A `{"type":"config"}` record.
    func configRecord(_ c: ConfigRecordText) throws
}
