// The samples of one session as one BLOB: compact, bit-exact, and a prefix of a session's samples
// is a byte prefix of its BLOB (used to recognise a re-ingested open session).
import CSQLite
import PressCore
import PressSQLite

/// Encodes a session's samples as `sampleSize` (25) bytes each, in order: `t`, `x`, `y` as IEEE-754
/// binary64 little-endian (8 bytes each, the exact bits read, so nothing is rounded), then the
/// phase as one byte: 0 began, 1 moved, 2 stationary, 3 ended, 4 cancelled. No header: the
/// sample count is the length / 25.
public enum SampleCodec {
    /// Bytes per sample: 3 × 8 + 1.
    public static let sampleSize = 25

    /// The phase's byte code.
    public static func code(_ phase: TouchPhase) -> UInt8 {
        switch phase {
        case .began: return 0
        case .moved: return 1
        case .stationary: return 2
        case .ended: return 3
        case .cancelled: return 4
        }
    }

    /// The phase of a byte code, or nil for an unknown code.
    public static func phase(_ code: UInt8) -> TouchPhase? {
        switch code {
        case 0: return .began
        case 1: return .moved
        case 2: return .stationary
        case 3: return .ended
        case 4: return .cancelled
        default: return nil
        }
    }

    /// The BLOB of `samples`.
    public static func encode(_ samples: [TouchSample]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: samples.count * sampleSize)
        out.withUnsafeMutableBytes { encode(samples, into: $0) }
        return out
    }

    /// Writes the BLOB of `samples` into `raw`, which holds exactly `samples.count * sampleSize`
    /// bytes (ingest encodes straight into the bytes it binds: `Statement.bindBlob`).
    public static func encode(_ samples: [TouchSample], into raw: UnsafeMutableRawBufferPointer) {
        precondition(raw.count == samples.count * sampleSize, "the BLOB's buffer must hold every sample")
        var o = 0
        for s in samples {
            raw.storeBytes(of: s.t.bitPattern.littleEndian, toByteOffset: o, as: UInt64.self)
            raw.storeBytes(of: s.x.bitPattern.littleEndian, toByteOffset: o + 8, as: UInt64.self)
            raw.storeBytes(of: s.y.bitPattern.littleEndian, toByteOffset: o + 16, as: UInt64.self)
            raw[o + 24] = code(s.phase)
            o += sampleSize
        }
    }

    /// The samples of a BLOB.
    /// - Throws: `SampleCodecError` when the length is not a multiple of 25 or a phase code is
    ///   unknown (a damaged or foreign BLOB).
    public static func decode(_ bytes: UnsafeRawBufferPointer) throws -> [TouchSample] {
        guard bytes.count % sampleSize == 0 else { throw SampleCodecError(message: "BLOB length \(bytes.count) is not a multiple of \(sampleSize)") }
        var out: [TouchSample] = []
        out.reserveCapacity(bytes.count / sampleSize)
        var o = 0
        while o < bytes.count {
            let t = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: o, as: UInt64.self)))
            let x = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: o + 8, as: UInt64.self)))
            let y = Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: o + 16, as: UInt64.self)))
            guard let phase = phase(bytes[o + 24]) else {
                throw SampleCodecError(message: "unknown phase code \(bytes[o + 24]) in sample \(o / sampleSize)")
            }
            out.append(TouchSample(t: t, x: x, y: y, phase: phase))
            o += sampleSize
        }
        return out
    }

    public static func decode(_ bytes: [UInt8]) throws -> [TouchSample] {
        try bytes.withUnsafeBytes { try decode($0) }
    }
}

/// A sample BLOB that cannot be decoded.
public struct SampleCodecError: Error, CustomStringConvertible, Sendable {
    public var message: String
    public var description: String { "samples: \(message)" }
}

// MARK: - SQL functions over a samples BLOB

/// The touch-down point stored in a samples BLOB: the first sample's `x` (`axis` 0) or `y`
/// (`axis` 1), in points, exactly the stored bits; nil when the BLOB is shorter than one sample.
/// The same bytes `SampleCodec.decode` reads (offsets 8 and 16 of the first 25-byte sample).
public func touchDownCoordinate(_ bytes: UnsafeRawBufferPointer, axis: Int) -> Double? {
    guard bytes.count >= SampleCodec.sampleSize, axis == 0 || axis == 1 else { return nil }
    return Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8 + 8 * axis, as: UInt64.self)))
}

/// Registers `touch_down_x(samples)` and `touch_down_y(samples)` on a connection: the first
/// sample's x and y (points) of a samples BLOB (`touchDownCoordinate`), NULL for anything else
/// (a NULL, text, or a BLOB shorter than 25 bytes). Schema version 5 fills `sessions.x0`/`y0`
/// of older databases with them (migrations/0005_touch_down_point.sql). Returns SQLite's result
/// code.
@discardableResult
public func registerSampleFunctions(_ db: OpaquePointer) -> Int32 {
    for (name, axis) in [("touch_down_x", 0), ("touch_down_y", 1)] {
        let rc = sqlite3_create_function_v2(
            db, name, 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC, UnsafeMutableRawPointer(bitPattern: axis + 1),
            { ctx, _, argv in
                guard let ctx, let argv else { return }
                let axis = Int(bitPattern: sqlite3_user_data(ctx)) - 1
                guard sqlite3_value_type(argv[0]) == SQLITE_BLOB, let base = sqlite3_value_blob(argv[0]) else {
                    sqlite3_result_null(ctx); return
                }
                let bytes = UnsafeRawBufferPointer(start: base, count: Int(sqlite3_value_bytes(argv[0])))
                if let v = touchDownCoordinate(bytes, axis: axis) { sqlite3_result_double(ctx, v) } else { sqlite3_result_null(ctx) }
            }, nil, nil, nil)
        guard rc == SQLITE_OK else { return rc }
    }
    return SQLITE_OK
}
