// What pressdb knows of the terminal it writes to: how wide it is, how many columns a text takes
// on it, how text from input is shown there (control characters made visible), and how standard
// output is written so that a closed pipe (`| head`) ends a command quietly.
import Foundation

enum Terminal {
    /// The width assumed for a terminal that does not say (`TIOCGWINSZ` fails and `$COLUMNS` is
    /// not set).
    static let defaultWidth = 100

    /// The width terminal tables are fitted to: the window's columns (`TIOCGWINSZ` on `fd`), else
    /// `$COLUMNS`, else 100; nil when `fd` is not a terminal (a pipe or a file gets the full
    /// table).
    static func width(_ fd: Int32 = STDOUT_FILENO) -> Int? {
        guard isatty(fd) == 1 else { return nil }
        var size = winsize()
        if ioctl(fd, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 { return Int(size.ws_col) }
        if let text = ProcessInfo.processInfo.environment["COLUMNS"], let n = Int(text), n > 0 { return n }
        return defaultWidth
    }

    // MARK: Control characters

    /// `text` with every character that a terminal would act on instead of showing made visible,
    /// so text from input (a session id, a rejected line) can never move the cursor, clear the
    /// screen or set the window title:
    /// - C0 controls U+0000–U+001F and DEL become their Unicode control pictures (U+2400–U+241F,
    ///   U+2421): ESC is `␛`, a line feed `␊`, a tab `␉`;
    /// - C1 controls U+0080–U+009F, the bidirectional embedding, override and isolate controls
    ///   (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F) and the line and paragraph separators
    ///   U+2028, U+2029 become `<U+XXXX>`.
    /// Everything else is unchanged (docs/guarantees.md, "Escaped output").
    static func visible(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = String.UnicodeScalarView()
        for u in text.unicodeScalars {
            switch u.value {
            case 0x00...0x1F: out.append(Unicode.Scalar(0x2400 + u.value)!)
            case 0x7F: out.append("\u{2421}")
            default:
                if needsEscape(u) {
                    let hex = String(u.value, radix: 16, uppercase: true)
                    out.append(contentsOf: "<U+\(String(repeating: "0", count: max(0, 4 - hex.count)) + hex)>".unicodeScalars)
                } else {
                    out.append(u)
                }
            }
        }
        return String(out)
    }

    /// Whether `visible` replaces `u`.
    static func needsEscape(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    // MARK: Width on screen

    /// The columns `text` takes on a terminal: 2 for each East Asian wide or full-width character
    /// and emoji, 0 for a lone combining mark or zero-width character, 1 for anything else (the
    /// rules of `wcwidth`, Unicode's East Asian Width property, for the ranges that occur).
    /// Assumes `visible` was applied (no control characters).
    static func columns(_ text: String) -> Int {
        // ASCII, the common case, is one column per byte.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.utf8.count }
        return text.reduce(0) { $0 + columns($1) }
    }

    static func columns(_ c: Character) -> Int {
        guard let first = c.unicodeScalars.first else { return 0 }
        if c.unicodeScalars.allSatisfy({ zeroWidth($0) }) { return 0 }
        if wide(first) || (c.unicodeScalars.count > 1 && first.properties.isEmoji
                           && c.unicodeScalars.contains { $0.value == 0xFE0F }) { return 2 }
        return 1
    }

    private static func zeroWidth(_ u: Unicode.Scalar) -> Bool {
        switch u.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return u.value != 0x00AD
        default: return u.value == 0x200B
        }
    }

    private static func wide(_ u: Unicode.Scalar) -> Bool {
        if u.properties.isEmojiPresentation { return true }
        switch u.value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD: return true
        default: return false
        }
    }

    /// The columns a name from input (a configuration, an arm, a file's text) keeps in a message:
    /// enough to recognise it, short enough that the message stays readable.
    static let nameColumns = 60

    /// `text` cut to `width` columns (default `nameColumns`), ending "… (N bytes)" with the whole
    /// text's size when cut; unchanged when it fits. Apply `visible` too before it reaches a
    /// terminal.
    static func cut(_ text: String, to width: Int = nameColumns) -> String {
        guard text.utf8.count > width, columns(text) > width else { return text }
        let note = "… (\(text.utf8.count) bytes)"
        return prefix(text, columns: max(1, width - note.count)) + note
    }

    /// The longest start of `text` that takes at most `width` columns.
    static func prefix(_ text: String, columns width: Int) -> String {
        var used = 0
        var end = text.startIndex
        for i in text.indices {
            let w = columns(text[i])
            if used + w > width { break }
            used += w
            end = text.index(after: i)
        }
        return String(text[..<end])
    }
}

// MARK: - Standard output

/// Standard output, written with `write(2)`. When the reader has gone (`pressdb report sessions |
/// head`), the write fails with EPIPE (SIGPIPE is ignored, `main.swift`) and `Closed` is thrown:
/// the command stops there and pressdb exits with status 0 and no message, as a closed pipe is
/// not an error (docs/guarantees.md, "Streaming reports").
enum StandardOutput {
    /// The reader of standard output has gone (EPIPE).
    struct Closed: Error {}

    /// Set once a write met a closed pipe: nothing more is written.
    nonisolated(unsafe) private(set) static var isClosed = false

    /// Writes `text` whole, retrying partial writes and interruptions.
    /// - Throws: `Closed` when the reader has gone; `CLIError.failure` for another error.
    static func write(_ text: String) throws {
        var text = text
        try text.withUTF8 { try write(UnsafeRawBufferPointer($0)) }
    }

    /// Writes `bytes` whole (see `write(_:)` for text).
    static func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0) }
    }

    private static func write(_ raw: UnsafeRawBufferPointer) throws {
        if isClosed { throw Closed() }
        var offset = 0
        while offset < raw.count {
            let n = Glibc.write(STDOUT_FILENO, raw.baseAddress! + offset, raw.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EPIPE { isClosed = true; throw Closed() }
                throw CLIError.failure("cannot write to standard output: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }
}
