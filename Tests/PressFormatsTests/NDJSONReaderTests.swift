import Testing
import PressCore
@testable import PressFormats

/// Reads all items of an NDJSON text named `e.ndjson`.
func readNDJSON(_ text: String) throws -> [RecordItem] {
    var r = NDJSONReader(ByteInput(text: text, name: "e.ndjson"))
    var out: [RecordItem] = []
    while let i = try r.next() { out.append(i) }
    return out
}

func rejectReason(_ item: RecordItem?) -> String? {
    if case .reject(let r)? = item { return r.description }
    return nil
}

@Suite struct NDJSONReaderTests {
    @Test func readsATouchRecordWithAttributes() throws {
        let items = try readNDJSON("""
            {"session":"u42-0007","t":12.034,"phase":"began","x":187.5,"y":402.0,"config":"spring-press","variant":"B","control":"buy","frame":[160,380,80,44],"container":{"delays_content_touches":false,"cancels_control_touches":true},"scroll_axis":"horizontal","user":"u42","device":"iPhone15,2","app_version":"3.1","screen":"cart","zeta":{"k":[1, 2]},"alpha":"x"}
            """)
        guard case .touch(let r) = items.first else { Issue.record("no touch"); return }
        #expect(r.session == "u42-0007")
        #expect(r.sample == TouchSample(t: 12.034, x: 187.5, y: 402, phase: .began))
        #expect(r.source == SourceLocation(file: "e.ndjson", line: 1))
        let a = r.attributes
        #expect(a.config == "spring-press" && a.variant == "B" && a.control == "buy")
        #expect(a.frame == Rect(x: 160, y: 380, width: 80, height: 44))
        #expect(a.container == Container(name: nil, delaysContentTouches: false, cancelsControlTouches: true,
                                         touchDelay: 0.15, hysteresis: 10))
        #expect(a.scrollAxis == .horizontal && a[.user] == "u42" && a[.device] == "iPhone15,2")
        #expect(a[.appVersion] == "3.1" && a[.screen] == "cart")
        // Unknown fields: sorted by key, values as written.
        #expect(a.extra == #"{"alpha":"x","zeta":{"k":[1, 2]}}"#)
    }

    @Test func typeTouchIsOptionalAndConfigRecordsAreKeptAsText() throws {
        let items = try readNDJSON("""
            {"type":"touch","session":"s","t":0,"phase":"began","x":1,"y":2}
            {"type":"config","name":"mine","press":{"kind":"uiview-spring"}}
            """)
        guard case .touch = items[0] else { Issue.record("expected touch"); return }
        #expect(items[1] == .config(ConfigRecordText(name: "mine", json: #"{"type":"config","name":"mine","press":{"kind":"uiview-spring"}}"#,
                                                     source: SourceLocation(file: "e.ndjson", line: 2))))
    }

    @Test func eachProblemHasItsOwnReasonWithFileAndLine() throws {
        let cases: [(String, String)] = [
            (#"{"session":"s","t":1,"phase":"tapped","x":1,"y":2}"#,
             #"e.ndjson:1: phase "tapped" is not one of began, moved, stationary, ended, cancelled"#),
            (#"{"session":"s","t":1,"phase":"began","x":1"#, "e.ndjson:1: malformed JSON at column 43: unterminated object (opened at column 1)"),
            (#"{"session":"s","phase":"began","x":1,"y":2}"#, #"e.ndjson:1: missing field "t""#),
            (#"{"t":1,"phase":"began","x":1,"y":2}"#, #"e.ndjson:1: missing field "session""#),
            (#"{"session":"s","t":1,"phase":"began","y":2}"#, #"e.ndjson:1: missing field "x""#),
            (#"{"session":"s","t":NaN,"phase":"began","x":1,"y":2}"#, #"e.ndjson:1: "t" is NaN, not a finite number"#),
            (#"{"session":"s","t":1,"phase":"began","x":Infinity,"y":2}"#,
             #"e.ndjson:1: "x" is Infinity (beyond the range of a 64-bit float), not a finite number"#),
            (#"{"session":"s","t":1,"phase":"began","x":1,"y":-1e400}"#,
             #"e.ndjson:1: "y" is -1e400 (beyond the range of a 64-bit float), not a finite number"#),
            (#"{"session":"","t":1,"phase":"began","x":1,"y":2}"#, #"e.ndjson:1: "session" is empty: a session id is required"#),
            (#"{"session":7,"t":1,"phase":"began","x":1,"y":2}"#, #"e.ndjson:1: "session" must be a string, not a number"#),
            (#"{"session":"s","t":"1","phase":"began","x":1,"y":2}"#, #"e.ndjson:1: "t" must be a number, not a string"#),
            (#"{"session":"s","t":1,"t":2,"phase":"began","x":1,"y":2}"#, #"e.ndjson:1: duplicate field "t""#),
            (#"{"type":"control","id":"b"}"#, #"e.ndjson:1: "frame" must be [x, y, width, height] in points, width and height ≥ 0"#),
            (#"{"type":"layout","id":"b"}"#, #"e.ndjson:1: unknown record type "layout" (known: touch, config, control)"#),
            (#"{"session":"s","t":1,"phase":"began","x":1,"y":2,"container":"drawer"}"#,
             #"e.ndjson:1: container "drawer" is not one of none, scroll, table, scroll-immediate (or an object of container parameters)"#),
            (#"{"session":"s","t":1,"phase":"began","x":1,"y":2,"frame":[1,2,3]}"#,
             #"e.ndjson:1: "frame" must be [x, y, width, height], 4 numbers, not 3"#),
            (#"{"session":"s","t":1,"phase":"began","x":1,"y":2,"scroll_axis":"diagonal"}"#,
             #"e.ndjson:1: scroll_axis "diagonal" is not one of vertical, horizontal, both"#),
        ]
        for (line, message) in cases {
            let items = try readNDJSON(line)
            #expect(rejectReason(items.first) == message)
            if case .reject(let r)? = items.first { #expect(r.raw == line) }
        }
    }

    @Test func invalidUTF8IsRejectedWithTheByte() throws {
        var bytes = Array(#"{"session":"s"#.utf8)
        bytes.append(0xFF)
        bytes += Array(#"","t":1,"phase":"began","x":1,"y":2}"#.utf8)
        var r = NDJSONReader(ByteInput(bytes: bytes, name: "e.ndjson"))
        #expect(rejectReason(try r.next()) == "e.ndjson:1: invalid UTF-8 (byte 0xff at column 14)")
    }

    @Test func blankLinesAndCRLFKeepLineNumbers() throws {
        let items = try readNDJSON("\r\n{\"session\":\"s\",\"t\":1,\"phase\":\"began\",\"x\":1,\"y\":2}\r\n\n  \nbad\n")
        #expect(items.count == 2)
        if case .touch(let r) = items[0] { #expect(r.source.line == 2) } else { Issue.record("expected touch") }
        #expect(rejectReason(items[1])?.hasPrefix("e.ndjson:5: malformed JSON") == true)
    }

    @Test func longLinesAcrossChunksAreRead() throws {
        // A line longer than the 1 MiB chunk forces the buffer to grow.
        let pad = String(repeating: "a", count: ByteInput.chunkSize + 10)
        let items = try readNDJSON("{\"session\":\"s\",\"t\":1,\"phase\":\"began\",\"x\":1,\"y\":2,\"pad\":\"\(pad)\"}\n")
        if case .touch(let r) = items[0] { #expect(r.attributes.extra?.count == pad.count + 10) } else { Issue.record("expected touch") }
    }
}
