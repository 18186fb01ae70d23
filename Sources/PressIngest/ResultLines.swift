// The lines `pressdb replay --input` writes: one NDJSON object per line, told apart by `type`
// (docs/scale-out.md, "Result lines", documents every field). Numbers are JSONText's shortest
// round-trip form, so a latency read back is the same Double the replay computed.
import PressCore
import PressFormats
import PressStats
import PressSQLite
import PressStore

/// Writes result, pending, reject and unreplayed lines into a byte buffer.
///
/// A result line holds one session's row of `session_results` — the session id, its touch-down
/// time, its A/B arm as stored (`variant`), the configuration replayed and its version, every
/// column of `results`, and the per-session events of `result_events` — and, under
/// `attributes`, every attribute of the session as the log gave it (the field table's keys and
/// kinds, written as `TouchLogWriter` writes them, unknown fields included).
public struct ResultLines: Sendable {
    public var buffer: [UInt8] = []
    /// Writes the attribute object (every attribute of the table, in table order).
    private var attributeWriter = TouchLogWriter(format: .ndjson, attributes: SessionAttribute.ordered, capacity: 0)

    public init() {}

    /// `{"type":"result",…}` for session `s` and its result `row`.
    public mutating func result(_ s: AssembledSession, _ row: ResultRow) {
        let r = row.result
        raw("{\"type\":\"result\",\"session\":"); string(s.id)
        raw(",\"t0\":"); number(s.samples[0].t)
        raw(",\"variant\":"); optionalString(Store.storedVariant(s.meta))
        raw(",\"config\":"); string(row.config)
        raw(",\"config_version\":"); string(row.configVersion)
        raw(",\"counterfactual\":"); bool(row.counterfactual)
        raw(",\"outcome\":"); string(r.outcome.rawValue)
        raw(",\"cancel_reason\":"); optionalString(r.cancelReason?.rawValue)
        raw(",\"action_fired\":"); bool(r.actionFired)
        raw(",\"feedback_latency_ms\":"); optionalNumber(r.feedbackLatencyMs)
        raw(",\"action_latency_ms\":"); optionalNumber(r.actionLatencyMs)
        raw(",\"duration_ms\":"); number(r.durationMs)
        raw(",\"max_travel_pt\":"); number(r.maxTravelPt)
        raw(",\"press_depth\":"); number(r.pressDepth)
        raw(",\"release_jump_pt\":"); number(r.releaseJumpPt)
        raw(",\"feedback_photon_ms\":"); optionalNumber(r.feedbackPhotonMs)
        raw(",\"action_photon_ms\":"); optionalNumber(r.actionPhotonMs)
        for e in SessionEvent.allCases {
            raw(","); string(e.column); raw(":"); bool(e.occurs(in: r))
        }
        raw(",\"attributes\":"); attributes(s.meta)
        raw("}\n")
    }

    /// `{"type":"pending",…}` for a session still open at the end: where its first and latest
    /// records were, its samples as `[t, x, y, phase]`, its attributes.
    public mutating func pending(_ s: AssembledSession, first: SourceLocation, last: SourceLocation) {
        raw("{\"type\":\"pending\",\"session\":"); string(s.id)
        raw(",\"file\":"); string(first.file)
        raw(",\"line\":"); integer(first.line)
        raw(",\"last_file\":"); string(last.file)
        raw(",\"last_line\":"); integer(last.line)
        raw(",\"sample_count\":"); integer(s.samples.count)
        raw(",\"samples\":[")
        for (i, sample) in s.samples.enumerated() {
            if i > 0 { raw(",") }
            raw("["); number(sample.t); raw(","); number(sample.x); raw(","); number(sample.y); raw(",")
            string(sample.phase.rawValue); raw("]")
        }
        raw("],\"attributes\":"); attributes(s.meta)
        raw("}\n")
    }

    /// `{"type":"reject","file":…,"line":…,"reason":…,"raw":…}`: a `rejects` row.
    public mutating func reject(_ r: Reject) {
        raw("{\"type\":\"reject\",\"file\":"); string(r.source.file)
        raw(",\"line\":"); integer(r.source.line)
        raw(",\"reason\":"); string(r.reason)
        raw(",\"raw\":"); string(r.raw)
        raw("}\n")
    }

    /// `{"type":"unreplayed","session":…,"config":…,"reason":…}`: a complete session without a
    /// result (its configuration is unknown, or it cannot be replayed).
    public mutating func unreplayed(session: String, config: String, reason: String) {
        raw("{\"type\":\"unreplayed\",\"session\":"); string(session)
        raw(",\"config\":"); string(config)
        raw(",\"reason\":"); string(reason)
        raw("}\n")
    }

    // MARK: Pieces

    private mutating func attributes(_ a: SessionAttributes) {
        attributeWriter.removeAll()
        attributeWriter.appendAttributeObject(a)
        buffer.append(contentsOf: attributeWriter.buffer)
    }

    @inline(__always) private mutating func raw(_ s: StaticString) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }
    @inline(__always) private mutating func string(_ s: String) { JSONText.appendString(s, to: &buffer) }
    @inline(__always) private mutating func number(_ d: Double) {
        if d.isFinite { JSONText.appendNumber(d, to: &buffer) } else { raw("null") }
    }
    @inline(__always) private mutating func integer(_ n: Int) { JSONText.appendInteger(Int64(n), to: &buffer) }
    @inline(__always) private mutating func bool(_ b: Bool) { if b { raw("true") } else { raw("false") } }
    private mutating func optionalString(_ s: String?) { if let s { string(s) } else { raw("null") } }
    private mutating func optionalNumber(_ d: Double?) { if let d { number(d) } else { raw("null") } }
}
