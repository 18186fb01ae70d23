// Bad input never crashes a reader: each parser gets seeded random and mutated inputs (a bounded
// loop; PRESSDB_FUZZ_ITERATIONS raises the count for long runs) and a regression corpus (huge
// lines, NUL bytes, invalid UTF-8, deep nesting, 1e400, empty inputs). Each case must finish,
// every bad line must be rejected with a reason, and the good lines around it kept.
import Foundation
import Testing
import PressCore
@testable import PressFormats

/// Cases per parser (default 1500; PRESSDB_FUZZ_ITERATIONS=100000 for a long run).
private let iterations = ProcessInfo.processInfo.environment["PRESSDB_FUZZ_ITERATIONS"].flatMap(Int.init) ?? 1500
// The cases come from PressCore's SplitMix64 under fixed seeds, so every failing case is reproducible.

/// Bytes that matter to the grammars: delimiters, quotes, escapes, digits, NUL, bytes that are
/// never valid UTF-8 (0xC0, 0xFF) and a lone continuation byte (0x80).
private let interesting: [UInt8] = Array("{}[]\",:\\\n\r\t 0123456789-+.eE".utf8) + [0x00, 0x80, 0xC0, 0xFF, 0xE2]

/// One random change to `bytes`: flip, insert, delete, duplicate or truncate, or a fresh
/// random string.
private func mutate(_ bytes: [UInt8], _ r: inout SplitMix64) -> [UInt8] {
    var b = bytes
    for _ in 0...r.below(4) {
        switch r.below(7) {
        case 0 where !b.isEmpty: b[r.below(b.count)] = UInt8(truncatingIfNeeded: r.next())
        case 1: b.insert(interesting[r.below(interesting.count)], at: r.below(b.count + 1))
        case 2 where !b.isEmpty:
            let i = r.below(b.count); b.removeSubrange(i..<min(b.count, i + 1 + r.below(8)))
        case 3 where !b.isEmpty:
            let i = r.below(b.count); let piece = b[i..<min(b.count, i + 1 + r.below(16))]
            b.insert(contentsOf: piece, at: r.below(b.count + 1))
        case 4: b = Array(b.prefix(r.below(b.count + 1)))
        case 5: b = (0..<r.below(64)).map { _ in interesting[r.below(interesting.count)] }
        default: if !b.isEmpty { b[r.below(b.count)] = interesting[r.below(interesting.count)] }
        }
    }
    return b
}

/// Lines of `bytes` as the readers count them: split at `\n`, a line blank when only spaces,
/// tabs and `\r`.
private func nonBlankLines(_ bytes: [UInt8]) -> Int {
    bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        .filter { line in line.contains { !($0 == 0x20 || $0 == 0x09 || $0 == 0x0D) } }.count
}

private let goodNDJSON = [
    #"{"session":"a","t":12.034,"phase":"began","x":187.5,"y":402.0,"config":"spring-press","frame":[140,380,95,44],"container":"none"}"#,
    #"{"session":"a","t":12.051,"phase":"stationary","x":187.5,"y":402.0,"extra":{"k":[1,2,{"z":null}]}}"#,
    #"{"session":"b","t":31.0,"phase":"began","x":200,"y":300,"container":{"delays_content_touches":false,"cancels_control_touches":true},"scroll_axis":"vertical"}"#,
    #"{"session":"a\u00e9\ud83d\ude00","t":1e-3,"phase":"cancelled","x":-0.0,"y":1E+2,"user":"u\"1"}"#,
    #"{"type":"config","name":"soft","base":"spring-press","pressed_scale":0.97}"#,
]

/// The items of `bytes` read by `next()`; each case is read again a chunk at a time
/// (`read(into:)`, chunks of 1 to 64 items) and must give the same items, bit for bit, with the
/// same raw text, and fail at the same point with the same message.
private func readNDJSON(_ bytes: [UInt8]) throws -> [RecordItem] {
    var reader = NDJSONReader(ByteInput(bytes: bytes, name: "fuzz"))
    var out: [RecordItem] = []
    var raws: [String] = []
    while let item = try reader.next() { out.append(item); raws.append(reader.lastRaw) }
    var chunked = NDJSONReader(ByteInput(bytes: bytes, name: "fuzz"))
    expectSameItems(try readChunks(&chunked, limit: 1 + bytes.count % 64), (out, raws, nil), bytes)
    return out
}

private func readCSV(_ bytes: [UInt8]) -> Result<[RecordItem], InputError> {
    var reader = CSVReader(ByteInput(bytes: bytes, name: "fuzz"))
    var out: [RecordItem] = []
    var raws: [String] = []
    var failure: InputError?
    do {
        while let item = try reader.next() { out.append(item); raws.append(reader.lastRaw) }
    } catch let e as InputError { failure = e } catch { Issue.record("unexpected \(error)") }
    var chunked = CSVReader(ByteInput(bytes: bytes, name: "fuzz"))
    expectSameItems(try? readChunks(&chunked, limit: 1 + bytes.count % 64), (out, raws, failure?.message), bytes)
    if let failure { return .failure(failure) }
    return .success(out)
}

/// Every item `reader` gives a chunk at a time, with its raw text (a touch record's line; ""
/// for other items), and the message of the `InputError` that stopped it.
func readChunks<R: ChunkedRecordSource>(_ reader: inout R, limit: Int) throws
    -> (items: [RecordItem], raws: [String], failure: String?)
{
    var items: [RecordItem] = []
    var raws: [String] = []
    var chunk = RecordChunk()
    while true {
        chunk.removeAll()
        let read: ChunkRead
        do { read = try reader.read(into: &chunk, limit: limit, yieldingBeforeWait: false) } catch let e as InputError {
            chunk.forEachItem { items.append($0); raws.append($1()) }
            return (items, raws, e.message)
        }
        #expect(chunk.count <= limit)
        chunk.forEachItem { items.append($0); raws.append($1()) }
        if read == .end { return (items, raws, nil) }
    }
}

/// `chunked` (from `readChunks`) equals `items` read by `next()`, samples bit for bit, raw texts
/// of touch records too.
func expectSameItems(_ chunked: (items: [RecordItem], raws: [String], failure: String?)?,
                     _ expected: (items: [RecordItem], raws: [String], failure: String?), _ input: [UInt8],
                     sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    let text = String(decoding: input.prefix(300), as: UTF8.self)
    guard let chunked else { Issue.record("read(into:) threw: \(text)", sourceLocation: sourceLocation); return }
    #expect(chunked.items == expected.items, "\(text)", sourceLocation: sourceLocation)
    #expect(chunked.failure == expected.failure, "\(text)", sourceLocation: sourceLocation)
    for (k, (a, b)) in zip(chunked.items, expected.items).enumerated() {
        guard case .touch(let x) = a, case .touch(let y) = b else { continue }
        let bits = { (s: TouchSample) in [s.t.bitPattern, s.x.bitPattern, s.y.bitPattern] }
        #expect(bits(x.sample) == bits(y.sample), "\(text)", sourceLocation: sourceLocation)
        #expect(k < expected.raws.count && chunked.raws[k] == expected.raws[k], "\(text)", sourceLocation: sourceLocation)
    }
}

private func expectReasons(_ items: [RecordItem], sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    for case .reject(let r) in items {
        #expect(!r.reason.isEmpty && r.source.line > 0, "\(r)", sourceLocation: sourceLocation)
    }
}

private func isTouch(_ item: RecordItem?, session: String) -> Bool {
    if case .touch(let r)? = item { return r.session == session }
    return false
}

@Suite struct FuzzTests {
    /// Every non-blank line yields exactly one item; a good line before and after a mutated
    /// one is read as a record.
    @Test func ndjsonMutations() throws {
        var r = SplitMix64(seed: 0xF022_0001)
        let seeds = goodNDJSON.map { Array($0.utf8) }
        let before = Array(#"{"session":"before","t":1,"phase":"began","x":1,"y":2}"#.utf8)
        let after = Array(#"{"session":"after","t":1,"phase":"began","x":1,"y":2}"#.utf8)
        for _ in 0..<iterations {
            let bad = mutate(seeds[r.below(seeds.count)], &r)
            let input = before + [0x0A] + bad + [0x0A] + after + [0x0A]
            let items = try readNDJSON(input)
            #expect(items.count == nonBlankLines(input), "\(String(decoding: bad, as: UTF8.self))")
            #expect(isTouch(items.first, session: "before"))
            #expect(isTouch(items.last, session: "after"), "\(String(decoding: bad, as: UTF8.self))")
            expectReasons(items)
        }
    }

    /// A mutated row without a line break is one item and leaves its neighbours intact, quotes
    /// included (a quote it leaves open is given up on at the end of the input, and the row after
    /// it read again); any mutation reads to the end or fails with an `InputError` for a broken
    /// header only.
    @Test func csvMutations() throws {
        var r = SplitMix64(seed: 0xF022_0002)
        let header = Array("session,t,phase,x,y,config,frame_x,frame_y,frame_w,frame_h,container,note".utf8)
        let rows = [
            "a,12.034,began,187.5,402.0,spring-press,140,380,95,44,none,",
            "a,12.051,stationary,187.5,402.0,,,,,,,\"say \"\"hi\"\", ok\"",
            "b,31,began,200,300,,,,,,\"{\"\"delays_content_touches\"\":false,\"\"cancels_control_touches\"\":true}\",x",
            "b,31.2,cancelled,201,180,,,,,,,\"two\nlines\"",
        ].map { Array($0.utf8) }
        let before = Array("before,1,began,1,2,,,,,,,".utf8)
        let after = Array("after,1,began,1,2,,,,,,,".utf8)
        for k in 0..<iterations {
            // Mostly rows; one case in ten mutates the header instead.
            let mutateHeader = k % 10 == 0
            let bad = mutate(mutateHeader ? header : rows[r.below(rows.count)], &r)
            let input = (mutateHeader ? bad : header) + [0x0A] + before + [0x0A] + (mutateHeader ? rows[0] : bad) + [0x0A] + after + [0x0A]
            switch readCSV(input) {
            case .failure(let e):
                #expect(mutateHeader, "only a header may fail the whole input: \(e)")
                #expect(!e.message.isEmpty)
            case .success(let items):
                expectReasons(items)
                if !mutateHeader, !bad.contains(0x0A) {
                    #expect(items.count == nonBlankLines([UInt8](input)) - 1, "\(String(decoding: bad, as: UTF8.self))")
                    #expect(isTouch(items.first, session: "before"))
                    #expect(isTouch(items.last, session: "after"), "\(String(decoding: bad, as: UTF8.self))")
                }
            }
        }
    }

    /// The readers' common rows (a sample's five fields and nothing else, which `read(into:)`
    /// reads without the general path), mutated: read a chunk at a time they give the same items
    /// as `next()` (readNDJSON and readCSV compare the two), whatever the bytes.
    @Test func plainRowMutations() throws {
        let ndjson = [
            #"{"session":"s000017","t":12.034,"phase":"moved","x":187.5,"y":402.0}"#,
            #"{"t":0,"x":-0.0,"y":10,"phase":"ended","session":"s2"}"#,
            #"{"session":"s2","t":123456789012345.5,"phase":"stationary","x":0.1,"y":1e3}"#,
        ].map { Array($0.utf8) }
        let csv = [
            "s000017,12.034,moved,187.5,402.0,,,,,,",
            "s2,0,ended,-0.0,10,,,,,,",
            "s2,123456789012345.5,stationary,+0.1,1.,,,,,,",
        ].map { Array($0.utf8) }
        let header = Array("session,t,phase,x,y,config,frame_x,frame_y,frame_w,frame_h,note".utf8)
        try readMutated(ndjson: ndjson, csv: csv, header: header, seed: 0xF022_0005)
    }

    /// A session's first row, with every attribute of the field table (text, a frame, a
    /// container by name or by parameters, a scroll axis), mutated: `read(into:)` reads a valid
    /// one without the general path, and must give the same items as `next()`, whatever the
    /// bytes (readNDJSON and readCSV compare the two): a value of the wrong kind, a partial
    /// frame, a repeated or unknown key.
    @Test func attributeRowMutations() throws {
        let ndjson = [
            #"{"session":"s1-u206-0001","t":0.000635,"phase":"began","x":277.12,"y":552.07,"config":"spring-press","variant":"A","control":"buy","frame":[261,533,47,44],"container":"scroll","scroll_axis":"vertical","user":"s1-u206","screen":"feed","app_version":"3.1.4+synthetic","device":"iPhone15,2"}"#,
            #"{"session":"s2","t":1,"phase":"began","x":1,"y":2,"frame":[-0.5,0,10.25,3],"container":"table","scroll_axis":"both"}"#,
            #"{"session":"s3","t":2,"phase":"began","x":1,"y":2,"container":{"delays_content_touches":false,"cancels_control_touches":true},"control":"a long control name, past fifteen bytes"}"#,
            #"{"session":"s2","t":1.5,"phase":"moved","x":1,"y":2,"config":"spring-press","config":"x"}"#,
        ].map { Array($0.utf8) }
        let csv = [
            "s1-u206-0001,0.000635,began,277.12,552.07,spring-press,A,buy,261,533,47,44,scroll,vertical,s1-u206,feed,3.1.4+synthetic,iPhone15,",
            "s2,1,began,1,2,,,,-0.5,0,10.25,3,table,both,,,,,",
            "s3,2,began,1,2,spring-press,,a long control name past fifteen bytes,,,,,none,,u,,,,",
            "s4,3,began,1,2,,,,1,2,,,,horizontal,,,,d,x",
        ].map { Array($0.utf8) }
        let header = Array(("session,t,phase,x,y,config,variant,control,frame_x,frame_y,frame_w,frame_h,container,"
            + "scroll_axis,user,screen,app_version,device,note").utf8)
        try readMutated(ndjson: ndjson, csv: csv, header: header, seed: 0xF022_0006)
    }

    /// Logs of 1–6 lines drawn from `ndjson` (and a header and rows from `csv`), two in three
    /// mutated, read by `readNDJSON` and `readCSV` (both ways, compared); every reject has a reason.
    private func readMutated(ndjson: [[UInt8]], csv: [[UInt8]], header: [UInt8], seed: UInt64) throws {
        var r = SplitMix64(seed: seed)
        for _ in 0..<iterations {
            var lines: [[UInt8]] = []
            for _ in 0..<(1 + r.below(6)) {
                let seed = ndjson[r.below(ndjson.count)]
                lines.append(r.below(3) == 0 ? seed : mutate(seed, &r))
            }
            let nd = Array(lines.joined(separator: [0x0A]))
            let items = try readNDJSON(nd)
            expectReasons(items)
            lines = [header]
            for _ in 0..<(1 + r.below(6)) {
                let seed = csv[r.below(csv.count)]
                lines.append(r.below(3) == 0 ? seed : mutate(seed, &r))
            }
            if case .success(let rows) = readCSV(Array(lines.joined(separator: [0x0A]))) { expectReasons(rows) }
        }
    }

    /// getevent, evemu, evtest and libinput recordings: any bytes read to the end; every reject
    /// has a reason and a line within the input.
    @Test func deviceRecordingMutations() throws {
        var r = SplitMix64(seed: 0xF022_0003)
        let getevent = """
            add device 1: /dev/input/event2
              name:     "touchscreen"
            [   100.000000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   00000001
            [   100.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_X    000001a4
            [   100.000000] /dev/input/event2: EV_ABS       ABS_MT_POSITION_Y    00000320
            [   100.000000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
            [   100.016000] /dev/input/event2: 0003 0035 000001a8
            [   100.016000] /dev/input/event2: 0000 0000 00000000
            [   100.090000] /dev/input/event2: EV_ABS       ABS_MT_TRACKING_ID   ffffffff
            [   100.090000] /dev/input/event2: EV_SYN       SYN_REPORT           00000000
            """
        let evemu = """
            # EVEMU 1.3
            N: touchscreen
            A: 35 0 1079 0 0 0
            A: 36 0 2339 0 0 0
            E: 100.000000 0003 0039 0001
            E: 100.000000 0003 0035 0420
            E: 100.000000 0003 0036 0800
            E: 100.000000 0000 0000 0000
            E: 100.016000 0003 0035 0424
            E: 100.016000 0000 0000 0000
            E: 100.090000 0003 0039 -001
            E: 100.090000 0000 0000 0000
            """
        let evtest = """
            Input driver version is 1.0.1
            Supported events:
              Event type 3 (EV_ABS)
                Event code 53 (ABS_MT_POSITION_X)
                  Value      0
                  Min        0
                  Max     1079
                  Resolution 12
            Testing ... (interrupt to exit)
            Event: time 100.000000, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 1
            Event: time 100.000000, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 420
            Event: time 100.000000, -------------- SYN_REPORT ------------
            Event: time 100.016000, ++++++++++++++ SYN_MT_REPORT ++++++++++++
            Event: time 100.016000, type 1 (EV_KEY), code 330 (BTN_TOUCH), value 0
            Event: time 100.016000, type 4 (EV_MSC), code 4 (MSC_SCAN), value 90001
            Event: time 100.090000, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value -1
            Event: time 100.090000, >>>>>>>>>>>>>> SYN_DROPPED <<<<<<<<<<<<
            Event: time 100.090000, -------------- SYN_REPORT ------------
            """
        let libinput = """
            # libinput record
            version: 1
            devices:
            - node: /dev/input/event15
              evdev:
                absinfo:
                  53: [0, 3987, 0, 0, 32]
                  54: [0, 1960, 0, 0, 31]
              hid: [0x05, 0x01]
              events:
              # Current time is 11:14:38
              - evdev:
                - [  0,      0,   3,  57,      15] # EV_ABS / ABS_MT_TRACKING_ID       15
                - [  0,      0,   3,  53,    1208]
                - [  0,      0,   0,   0,       0] # ------------ SYN_REPORT (0) ---------- +0ms
              - hid: {time: [0, 5], hidraw0: [4, 1]}
              - evdev:
                - [  0, 103818,   3,  57,      -1]
                - [  0, 103818,   0,   0,       0]
            """
        for (format, text) in [(DeviceLogFormat.getevent, getevent), (.evemu, evemu), (.evtest, evtest), (.libinput, libinput)] {
            let lines = text.split(separator: "\n").map { Array($0.utf8) }
            for _ in 0..<iterations / 2 {
                var doc = lines
                for _ in 0...r.below(3) {
                    let i = r.below(doc.count)
                    doc[i] = mutate(doc[i], &r)
                }
                let bytes = Array(doc.joined(separator: [0x0A]))
                let result = DeviceLogReader.readAll(bytes, format: format, file: "fuzz")
                // A mutation may put in a lone CR, which ends a line too: count every CR and LF.
                let lineCount = bytes.split(omittingEmptySubsequences: false) { $0 == 0x0A || $0 == 0x0D }.count
                for reject in result.rejects {
                    #expect(!reject.reason.isEmpty && reject.source.line >= 1 && reject.source.line <= lineCount, "\(reject)")
                }
            }
        }
    }

    /// Configuration and layout documents: a value or an error naming the problem, never a crash.
    @Test func configurationAndLayoutMutations() throws {
        var r = SplitMix64(seed: 0xF022_0004)
        let configs = [
            #"{"type":"config","name":"soft","base":"spring-press","pressed_scale":0.97}"#,
            #"[{"name":"a","base":"spring-press"},{"name":"b","base":"a","pressed_scale":0.9}]"#,
        ].map { Array($0.utf8) }
        let layouts = [
            #"{"controls":[{"id":"ok","frame":[10,20,100,44],"container":"scroll","scroll_axis":"vertical","config":"spring-press"}]}"#,
            "{\"type\":\"control\",\"id\":\"ok\",\"frame\":[1,2,3,4]}\n{\"type\":\"control\",\"id\":\"b\",\"frame\":[5,6,7,8],\"container\":{\"delays_content_touches\":true,\"cancels_control_touches\":true}}",
        ].map { Array($0.utf8) }
        for _ in 0..<iterations {
            let c = mutate(configs[r.below(configs.count)], &r)
            do { _ = try ConfigurationJSON.parseFile(String(decoding: c, as: UTF8.self)) } catch let e as ConfigurationJSONError {
                #expect(!e.message.isEmpty)
            }
            let l = mutate(layouts[r.below(layouts.count)], &r)
            do { _ = try LayoutJSON.parse(Data(l), file: "fuzz") } catch { #expect(!error.message.isEmpty) }
        }
    }

    // MARK: Regression corpus

    /// A 10 MB line (garbage, then a valid record with a 10 MB extra field), NUL bytes, invalid
    /// UTF-8, 100,000 nested `[`, 1e400: each one reject (or one record) with a reason, and the
    /// next line still read.
    @Test func ndjsonCorpus() throws {
        let next = Array(#"{"session":"next","t":1,"phase":"began","x":1,"y":2}"#.utf8)
        let tenMB = 10 * 1024 * 1024
        let cases: [(name: String, line: [UInt8], reason: String?)] = [
            ("10 MB garbage", [UInt8](repeating: UInt8(ascii: "a"), count: tenMB), "malformed JSON"),
            ("10 MB field", Array(#"{"session":"big","t":1,"phase":"began","x":1,"y":2,"blob":""#.utf8)
                + [UInt8](repeating: UInt8(ascii: "b"), count: tenMB) + Array(#""}"#.utf8), nil),
            ("NUL", Array(#"{"session":"a","t":1,"#.utf8) + [0] + Array(#""phase":"began","x":1,"y":2}"#.utf8), "malformed JSON"),
            ("NUL in a string", Array(#"{"session":"a"#.utf8) + [0] + Array(#"","t":1,"phase":"began","x":1,"y":2}"#.utf8), "control character"),
            ("invalid UTF-8", Array(#"{"session":""#.utf8) + [0xC0, 0xAF] + Array(#"","t":1,"phase":"began","x":1,"y":2}"#.utf8), "invalid UTF-8"),
            ("100,000 [", Array(#"{"session":"a","x":"#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: 100_000), "nested deeper than"),
            ("100,000 {", [UInt8](repeating: UInt8(ascii: "{"), count: 100_000), "malformed JSON"),
            ("1e400", Array(#"{"session":"a","t":1e400,"phase":"began","x":1,"y":2}"#.utf8), "not a finite number"),
            ("-1e400", Array(#"{"session":"a","t":1,"phase":"began","x":-1e400,"y":2}"#.utf8), "not a finite number"),
            ("1e-400 (underflows to 0, finite)", Array(#"{"session":"tiny","t":1e-400,"phase":"began","x":1,"y":2}"#.utf8), nil),
            ("huge exponent digits", Array(#"{"session":"a","t":1e999999999999999999999,"phase":"began","x":1,"y":2}"#.utf8), "not a finite number"),
        ]
        for c in cases {
            let started = ContinuousClock.now
            let items = try readNDJSON(c.line + [0x0A] + next)
            // Not a speed target (those are scripts/bench's): a guard against quadratic work on a
            // 10 MB line (10^13 and more steps, hours), loose enough for a loaded debug build.
            #expect(ContinuousClock.now - started < .seconds(60), "\(c.name) took too long")
            #expect(items.count == 2, "\(c.name)")
            if let reason = c.reason {
                guard case .reject(let r)? = items.first else { Issue.record("\(c.name): not rejected"); continue }
                #expect(r.reason.contains(reason), "\(c.name): \(r.reason)")
                #expect(r.source.line == 1)
            } else {
                guard case .touch? = items.first else { Issue.record("\(c.name): \(String(describing: items.first))"); continue }
            }
            #expect(isTouch(items.last, session: "next"), "\(c.name)")
        }
        #expect(try readNDJSON([]).isEmpty)
        #expect(try readNDJSON(Array(" \n\r\n\t\n".utf8)).isEmpty)
    }

    @Test func csvCorpus() throws {
        let header = Array("session,t,phase,x,y".utf8)
        // Empty file, blank lines, a header alone (with and without a newline): no records.
        for input in [[], Array("\n \n".utf8), header, header + [0x0A], header + Array("\r\n".utf8)] {
            guard case .success(let items) = readCSV(input) else { Issue.record("failed: \(input)"); continue }
            #expect(items.isEmpty)
        }
        let next = Array("next,1,began,1,2".utf8)
        let cases: [(name: String, row: [UInt8], reason: String)] = [
            ("10 MB cell", [UInt8](repeating: UInt8(ascii: "a"), count: 10 * 1024 * 1024), "row has 1 field"),
            ("NUL", Array("a,1".utf8) + [0] + Array(",began,1,2".utf8), "\"t\" must be a number"),
            ("invalid UTF-8", Array("a".utf8) + [0xFF] + Array(",1,began,1,2".utf8), "invalid UTF-8"),
            ("1e400", Array("a,1e400,began,1,2".utf8), "not a finite number"),
            ("nan", Array("a,nan,began,1,2".utf8), "NaN"),
            ("text after a quote", Array("\"a\"x,1,began,1,2".utf8), "text after a closing quote"),
        ]
        for c in cases {
            guard case .success(let items) = readCSV(header + [0x0A] + c.row + [0x0A] + next) else {
                Issue.record("\(c.name): failed"); continue
            }
            #expect(items.count == 2, "\(c.name)")
            guard case .reject(let r)? = items.first else { Issue.record("\(c.name): not rejected"); continue }
            #expect(r.reason.contains(c.reason), "\(c.name): \(r.reason)")
            #expect(isTouch(items.last, session: "next"), "\(c.name)")
        }
        // Regression (found by scripts/fuzz csv): text after a closing quote in the header read
        // the cell from offset -1 (a trap in debug builds, a heap over-read in release), in
        // format detection and in the header itself. Now: no such name, an InputError.
        for bad in [#""a"x,session,t"#, #"session,t,phase,x,"y"z"#, "\"\"\"Ra0\0\0gn\"\"et\"$"] {
            let input = ByteInput(text: bad + "\nrow,1,began,1,2\n", name: "h.csv")
            _ = try? InputFormat.detect(input) // must return (CSV or an InputError), not trap
            guard case .failure(let e) = readCSV(Array((bad + "\n").utf8)) else { Issue.record("\(bad): no error"); continue }
            #expect(e.message.contains("text after a closing quote") || e.message.contains("lacks the required"), "\(e.message)")
        }
        // Splitting stops at the malformed cell: the names before it.
        #expect(CSVReader.splitHeader(Array(#"session,"t"x,phase"#.utf8)) == ["session", "t"])
        // An unclosed quote: its own line is rejected and the next line read again
        // (it used to run to the end of the input as one reject).
        guard case .success(let items) = readCSV(header + Array("\n\"a,1,began,1,2\nb,1,began,1,2\n".utf8)) else {
            Issue.record("unclosed quote failed"); return
        }
        #expect(items.count == 2)
        if case .reject(let r)? = items.first { #expect(r.reason.contains("not closed")) } else { Issue.record("not rejected") }
        #expect(isTouch(items.last, session: "b"))
    }

    @Test func documentCorpus() throws {
        let deep = String(repeating: "[", count: 100_000)
        #expect(throws: ConfigurationJSONError.self) { try ConfigurationJSON.parseFile(deep) }
        #expect(throws: ConfigurationJSONError.self) { try ConfigurationJSON.parse("{\"name\":\"a\",\"x\":" + deep) }
        #expect(throws: ConfigurationJSONError.self) { try ConfigurationJSON.parse("") }
        #expect(throws: ConfigurationJSONError.self) { try ConfigurationJSON.parse(#"{"type":"config","name":"a","base":"spring-press","pressed_scale":1e400}"#) }
        #expect(throws: ConfigurationJSONError.self) { try ConfigurationJSON.parse("{\"name\":\"a\u{0}\"}") }
        #expect(throws: LayoutError.self) { try LayoutJSON.parse(Data(deep.utf8), file: "deep.json") }
        #expect(throws: LayoutError.self) { try LayoutJSON.parse(Data([0xFF, 0xFE, 0x00]), file: "bad.json") }
        #expect(throws: LayoutError.self) { try LayoutJSON.parse(Data(#"{"controls":[{"id":"a","frame":[1e400,0,1,1]}]}"#.utf8), file: "inf.json") }
        // An empty layout file has no controls.
        #expect(try LayoutJSON.parse(Data(), file: "empty.json").controls.isEmpty)
        for format in DeviceLogFormat.allCases {
            let empty = DeviceLogReader.readAll([], format: format, file: "empty")
            #expect(empty.records.isEmpty && empty.rejects.isEmpty)
            let huge = DeviceLogReader.readAll([UInt8](repeating: UInt8(ascii: "["), count: 10 * 1024 * 1024) + [0x0A, 0x00, 0xFF],
                                               format: format, file: "huge")
            #expect(huge.records.isEmpty)
            if format == .libinput {
                // YAML: 10 MB of `[` nest deeper than the limit, which ends the reading (one reject).
                #expect(huge.rejects.map(\.reason).first?.hasPrefix("nested deeper than") == true && huge.rejects.count == 1,
                        "\(huge.rejects.map(\.reason))")
            } else {
                #expect(huge.rejects.count == 2, "\(format): \(huge.rejects.map(\.reason))")
            }
        }
    }
}

/// Found by review: a UTF-8 byte-order mark at the start of a file, or a blank first line before
/// a CSV header, made valid input unreadable.
@Suite struct ByteOrderMarkTests {
    static let bom: [UInt8] = [0xEF, 0xBB, 0xBF]

    @Test func ndjsonAndCSVAfterAByteOrderMarkOrBlankLines() throws {
        let ndjson = Self.bom + Array(#"{"session":"a","t":0,"phase":"began","x":1,"y":1}"#.utf8) + [0x0A]
            + Array(#"{"session":"a","t":0.1,"phase":"ended","x":1,"y":1}"#.utf8) + [0x0A]
        let csv = Array("session,t,phase,x,y\na,0,began,1,1\na,0.1,ended,1,1\n".utf8)
        for (bytes, format) in [(ndjson, InputFormat.ndjson), (Self.bom + csv, .csv), (Array("\n\n".utf8) + csv, .csv)] {
            let input = ByteInput(bytes: bytes, name: "t")
            #expect(try InputFormat.detect(input) == format)
            var reader = try format.reader(input)
            var touches = 0
            while let item = try reader.next() {
                switch item {
                case .touch: touches += 1
                case .reject(let r): Issue.record("unexpected reject \(r)")
                default: break
                }
            }
            #expect(touches == 2)
        }
    }

    @Test func layoutAfterAByteOrderMark() throws {
        let text = #"{"controls":[{"id":"ok","frame":[0,0,10,10]}]}"#
        let layout = try LayoutJSON.parse(Data(Self.bom + Array(text.utf8)), file: "l.json")
        #expect(layout.controls.count == 1)
    }
}
