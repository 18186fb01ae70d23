// Touch sessions written back as NDJSON, in the format NDJSONReader reads.
import PressCore

/// Writes a session as NDJSON touch records (`TouchLogWriter`): one line per sample, the
/// session's attributes on the first (`began`) line.
public enum NDJSONWriter {
    /// The lines (without newlines) of `session`'s samples.
    public static func lines(session: String, samples: [TouchSample], attributes: SessionAttributes) -> [String] {
        var writer = TouchLogWriter(format: .ndjson)
        for (i, s) in samples.enumerated() {
            writer.append(TouchRecord(session: session, sample: s, attributes: i == 0 ? attributes : SessionAttributes(),
                                      source: SourceLocation(file: "-", line: i + 1)))
        }
        return String(decoding: writer.buffer, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
