// JSON text back into a `CanonicalJSON` value with exact numbers (`JSONScanner` reads them
// with `DecimalParser`, which gives the nearest Double; Foundation's JSONSerialization on Linux
// may not), so that what `CanonicalJSON.text` wrote reads back bit for bit.
import PressCore

extension CanonicalJSON {
    /// Parses one JSON value.
    /// - Throws: `JSONSyntaxError` for malformed text (its offset counts from a wrapper's 5
    ///   leading bytes), or a bare NaN or Infinity.
    public init(parsing text: String) throws(JSONSyntaxError) {
        var wrapped = Array("{\"v\":".utf8)
        wrapped.append(contentsOf: text.utf8)
        wrapped.append(UInt8(ascii: "}"))
        self = try wrapped.withUnsafeBufferPointer { (bytes) throws(JSONSyntaxError) -> CanonicalJSON in
            var scanner = JSONScanner(bytes)
            var fields: [JSONField] = []
            try scanner.scanObject(into: &fields)
            guard let value = fields.first?.value else { throw JSONSyntaxError(message: "no value", offset: 0) }
            return try Self.value(bytes, value)
        }
    }

    private static func value(_ bytes: UnsafeBufferPointer<UInt8>, _ t: JSONToken) throws(JSONSyntaxError) -> CanonicalJSON {
        switch t.kind {
        case .null: return .null
        case .bool: return .bool(t.bool)
        case .number: return .number(t.number)
        case .string: return .string(try JSONScanner.string(bytes, t))
        case .array:
            var items: [CanonicalJSON] = []
            for e in try JSONScanner.elements(of: bytes, in: t) { items.append(try value(bytes, e)) }
            return .array(items)
        case .object:
            var members: [String: CanonicalJSON] = [:]
            for f in try JSONScanner.fields(of: bytes, in: t) { members[try JSONScanner.string(bytes, f.key)] = try value(bytes, f.value) }
            return .object(members)
        case .nonFinite:
            throw JSONSyntaxError(message: "NaN and Infinity are not JSON", offset: t.start)
        }
    }
}
