// SQL functions for results stored before schema version 9, which have no photon latencies:
// the default profile's, from the stored milliseconds (migrations/0009_display_profiles.sql).
import CSQLite
import PressCore

/// The photon latencies of a result stored on the default display (`Display()`), from its
/// stored model latencies in milliseconds, as replay computes them (`Replay.result`).
enum DefaultPhoton {
    /// A feedback latency is a whole number k of frames (`VisualMetrics`: k / refresh rate
    /// seconds), so the stored milliseconds give k back exactly and replay's seconds with it.
    static func feedbackMs(_ latencyMs: Double) -> Double {
        let d = Display()
        let seconds = (latencyMs / 1000 * d.refreshRate).rounded() / d.refreshRate
        return Replay.stored(PhotonLatency.feedback(seconds, on: d) * 1000, decimals: Replay.StoredResolution.milliseconds)
    }

    /// An action latency is a delay, kept to the nanosecond: the frame it lands on is the same.
    static func actionMs(_ latencyMs: Double) -> Double {
        Replay.stored(PhotonLatency.action(latencyMs / 1000, on: Display()) * 1000, decimals: Replay.StoredResolution.milliseconds)
    }
}

/// Registers `default_feedback_photon_ms(ms)` and `default_action_photon_ms(ms)` on a
/// connection (`DefaultPhoton`); NULL for a NULL or non-numeric argument. Returns SQLite's
/// result code.
@discardableResult
func registerPhotonFunctions(_ db: OpaquePointer) -> Int32 {
    for (name, kind) in [("default_feedback_photon_ms", 1), ("default_action_photon_ms", 2)] {
        let rc = sqlite3_create_function_v2(
            db, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, UnsafeMutableRawPointer(bitPattern: kind),
            { ctx, _, argv in
                guard let ctx, let argv else { return }
                let kind = Int(bitPattern: sqlite3_user_data(ctx))
                let type = sqlite3_value_type(argv[0])
                guard type == SQLITE_FLOAT || type == SQLITE_INTEGER else { sqlite3_result_null(ctx); return }
                let ms = sqlite3_value_double(argv[0])
                sqlite3_result_double(ctx, kind == 1 ? DefaultPhoton.feedbackMs(ms) : DefaultPhoton.actionMs(ms))
            }, nil, nil, nil)
        guard rc == SQLITE_OK else { return rc }
    }
    return SQLITE_OK
}
