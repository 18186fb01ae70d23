// Where a JSON document (a configuration file, a layout file) is malformed, in lines and columns:
// Foundation's JSONSerialization only says "The operation could not be completed", so the text is
// scanned again with `JSONScanner` to find the problem.

enum JSONDocumentError {
    /// What is wrong with `text` as one JSON document and where, e.g. `unterminated object (opened
    /// at line 2, column 3) at line 2, column 13 (the end of the text)`; lines and columns are
    /// 1-based, columns count bytes. Nil when the scanner finds nothing wrong (the caller then
    /// falls back to its own message).
    static func describe(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { b -> String? in
            var scanner = JSONScanner(b)
            do throws(JSONSyntaxError) {
                scanner.skipSpace()
                _ = try scanner.value(depth: 0)
                scanner.skipSpace()
                guard scanner.i >= b.count else {
                    return "unexpected text after the document at \(position(scanner.i, in: b))"
                }
                return nonFinite(b)
            } catch {
                // The scanner names columns of one line (byte offset + 1); make them lines and columns.
                var message = error.message
                if let r = message.firstRange(of: /opened at column (\d+)/), let column = Int(message[r].dropFirst("opened at column ".count)) {
                    message.replaceSubrange(r, with: "opened at \(position(column - 1, in: b))")
                }
                let end = error.offset >= b.count ? " (the end of the text)" : ""
                return "\(message) at \(position(error.offset, in: b))\(end)"
            }
        }
    }

    /// Where the scanner's bare `NaN`, `Infinity` or `-Infinity` (which it reads, so they can be
    /// named, and JSON does not have) is, outside strings; nil when there is none.
    static func nonFinite(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        var inString = false, escaped = false
        for i in b.indices {
            let c = b[i]
            if inString {
                if escaped { escaped = false } else if c == 0x5C { escaped = true } else if c == 0x22 { inString = false }
                continue
            }
            if c == 0x22 { inString = true; continue }
            for word in ["NaN", "Infinity", "-Infinity"] where b[i...].starts(with: word.utf8) {
                return "\(word) is not a JSON number (write a finite number) at \(position(i, in: b))"
            }
        }
        return nil
    }

    /// `line L, column C` of a byte offset.
    static func position(_ offset: Int, in b: UnsafeBufferPointer<UInt8>) -> String {
        var line = 1, lineStart = 0
        for k in 0..<min(offset, b.count) where b[k] == 0x0A { line += 1; lineStart = k + 1 }
        return "line \(line), column \(offset - lineStart + 1)"
    }
}
