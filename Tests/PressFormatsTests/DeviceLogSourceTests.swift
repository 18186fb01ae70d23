// The device-recording adapter: format detection among all input formats, the content hash's
// first pass, records and rejects as a `RecordSource`, open contacts, and NDJSON control records.
import Foundation
import PressCore
@testable import PressFormats
import Testing

/// Every item of a record source.
private func drain<S: RecordSource>(_ source: inout S) throws -> [RecordItem] {
    var out: [RecordItem] = []
    while let item = try source.next() { out.append(item) }
    return out
}

private func touches(_ items: [RecordItem]) -> [TouchRecord] {
    items.compactMap { if case .touch(let r) = $0 { return r } else { return nil } }
}

private func temporaryFile(_ bytes: [UInt8]) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("pressdb-dls-\(UUID().uuidString).txt")
    try Data(bytes).write(to: url)
    return url
}

@Suite struct DeviceLogSourceTests {
    static let tablet = "getevent/tablet-openCalender-drag-tap-tap.getevent-lt.txt"
    /// FNV-1a 64 of the tablet file, computed with python3 (offset basis 0xcbf29ce484222325,
    /// prime 0x100000001b3, byte by byte).
    static let tabletHash = "5ec1cdff02308117"

    @Test func autoDetectionTellsDeviceRecordingsFromLogs() throws {
        for file in try SharedRecordings.files(in: "getevent") + SharedRecordings.files(in: "evemu") {
            let input = try ByteInput(path: SharedRecordings.root.appendingPathComponent(file).path)
            #expect(try InputFormat.detect(input) == (file.hasPrefix("evemu/") ? .evemu : .getevent), "\(file)")
            // Detection consumes nothing: the first line is still there.
            #expect(try input.nextLine().map { Array($0) } == Array(try SharedRecordings.bytes(file).prefix { $0 != 0x0A && $0 != 0x0D }))
        }
        // NDJSON and CSV are told as before, and a text that is none of them is an error.
        #expect(try InputFormat.detect(ByteInput(text: "{\"session\":\"a\"}\n", name: "x")) == .ndjson)
        #expect(try InputFormat.detect(ByteInput(text: "session,t,phase,x,y\n", name: "x")) == .csv)
        #expect(throws: InputError.self) { try InputFormat.detect(ByteInput(text: "hello\nworld\n", name: "x")) }
        #expect(InputFormat.getevent.deviceLogFormat == .getevent && InputFormat.csv.deviceLogFormat == nil)
    }

    @Test func peekPrefixKeepsWholeLinesOnly() throws {
        let input = ByteInput(text: "ab\ncd\nef", name: "x")
        #expect(try input.peekPrefix(limit: 5, wholeLines: true) == Array("ab\n".utf8))
        #expect(try input.peekPrefix(limit: 5) == Array("ab\ncd".utf8))
        // The whole input fits: its last line is complete even without a newline.
        #expect(try input.peekPrefix(limit: 100, wholeLines: true) == Array("ab\ncd\nef".utf8))
        #expect(try input.readRemaining() == Array("ab\ncd\nef".utf8))
        #expect(try input.nextLine() == nil)
    }

    @Test func firstPassHashesTheFile() throws {
        let path = SharedRecordings.root.appendingPathComponent(Self.tablet).path
        #expect(try DeviceLogSource.contentHash(ofRegularFile: path) == Self.tabletHash)
        // FNV-1a 64 of no bytes is the offset basis (FNV reference).
        let empty = try temporaryFile([])
        #expect(try DeviceLogSource.contentHash(ofRegularFile: empty.path) == "cbf29ce484222325")
        // A device cannot be read twice: no first pass.
        #expect(try DeviceLogSource.contentHash(ofRegularFile: "/dev/null") == nil)
        #expect(throws: InputError.self) { try DeviceLogSource.contentHash(ofRegularFile: "/nonexistent/x") }
    }

    /// The tablet's three contacts through the adapter, reading the file itself (first pass) and
    /// reading it from memory (buffered) alike. Values from the file: contact 1 goes down in the
    /// frame committed on line 7 at 176865.769027 s, at raw (0x472, 0x1ee) = (1138, 494); contact 2
    /// at (0x610, 0x1d) = (1552, 29); contact 3 at (0x362, 0x85) = (866, 133).
    @Test func readsTheTabletRecordingFromAFileOrFromMemory() throws {
        let path = SharedRecordings.root.appendingPathComponent(Self.tablet).path
        let fileInput = try ByteInput(path: path)
        var fromFile = try DeviceLogSource(fileInput, format: .getevent, file: path)
        let fileItems = try drain(&fromFile)
        #expect(fromFile.contentHash == Self.tabletHash)
        #expect(fileInput.contentHash == Self.tabletHash)

        let bytes = try SharedRecordings.bytes(Self.tablet)
        let memoryInput = ByteInput(bytes: bytes, name: path)
        var fromMemory = try DeviceLogSource(memoryInput, format: .getevent)
        let memoryItems = try drain(&fromMemory)
        #expect(fromMemory.contentHash == Self.tabletHash)
        #expect(fileItems == memoryItems)

        let records = touches(fileItems)
        #expect(records.count == fileItems.count)          // no rejects
        let began = records.filter { $0.sample.phase == .began }
        #expect(began.map(\.session) == (1...3).map { "\(Self.tabletHash)-c000\($0)" })
        #expect(began.map { [$0.sample.x, $0.sample.y] } == [[1138, 494], [1552, 29], [866, 133]])
        #expect(began[0].sample.t == 176865.769027)
        #expect(began[0].source == SourceLocation(file: path, line: 7))
        #expect(records.filter { $0.sample.phase == .ended }.count == 3)
        #expect(fromFile.openContacts.isEmpty)
    }

    @Test func optionsReachTheReader() throws {
        // A layout control over contact 2 and units halving everything: (1552, 29) → (776, 14.5).
        let layout = Layout(controls: [LayoutControl(id: "date", frame: Rect(x: 700, y: 0, width: 100, height: 30),
                                                     container: .table, config: "expand-delayed-click")])
        let options = DeviceLogOptions(pixelsPerPoint: 2, layout: layout,
                                       attributes: SessionAttributes(config: "spring-press", container: .scroll))
        var source = try DeviceLogSource(ByteInput(bytes: try SharedRecordings.bytes(Self.tablet), name: "t"),
                                         format: .getevent, options: options)
        let began = touches(try drain(&source)).filter { $0.sample.phase == .began }
        #expect(began[1].sample.x == 776 && began[1].sample.y == 14.5)
        #expect(began[1].attributes.control == "date")
        #expect(began[1].attributes.config == "expand-delayed-click")
        #expect(began[1].attributes.container == .table)
        #expect(began[0].attributes == SessionAttributes(config: "spring-press", container: .scroll))
    }

    /// evemu through the adapter: the fast-taps recording's nine contacts (tracking ids 0…8 in its
    /// `E: … 0003 0039` lines), each begun and ended.
    @Test func readsAnEvemuRecording() throws {
        let file = "evemu/Atmel-maXTouch-Touchscreen.1-finger-fast-taps.events"
        var source = try DeviceLogSource(ByteInput(bytes: try SharedRecordings.bytes(file), name: file), format: .evemu)
        let records = touches(try drain(&source))
        #expect(Set(records.map(\.session)).count == 9)
        #expect(records.filter { $0.sample.phase == .began }.count == 9)
        #expect(records.filter { $0.sample.phase == .ended }.count == 9)
    }

    /// A contact that never lifts: its records come out, none of them `ended`, and it is listed
    /// as open. Nothing else is emitted, so the ingest keeps it pending.
    @Test func anOpenContactYieldsNoEndedRecord() throws {
        let text = """
            [ 1.000000] EV_ABS ABS_MT_TRACKING_ID 00000000
            [ 1.000000] EV_ABS ABS_MT_POSITION_X 00000064
            [ 1.000000] EV_ABS ABS_MT_POSITION_Y 000000c8
            [ 1.000000] EV_SYN SYN_MT_REPORT 00000000
            [ 1.000000] EV_SYN SYN_REPORT 00000000
            [ 1.016000] EV_ABS ABS_MT_TRACKING_ID 00000000
            [ 1.016000] EV_ABS ABS_MT_POSITION_X 00000066
            [ 1.016000] EV_ABS ABS_MT_POSITION_Y 000000c8
            [ 1.016000] EV_SYN SYN_MT_REPORT 00000000
            [ 1.016000] EV_SYN SYN_REPORT 00000000

            """
        var source = try DeviceLogSource(ByteInput(text: text, name: "open.txt"), format: .getevent)
        let items = try drain(&source)
        // 0x64 = 100, 0xc8 = 200, 0x66 = 102.
        #expect(touches(items).map(\.sample) == [TouchSample(t: 1.0, x: 100, y: 200, phase: .began),
                                                 TouchSample(t: 1.016, x: 102, y: 200, phase: .moved)])
        #expect(source.openContacts.count == 1)
        #expect(source.openContacts.first?.last.sample.x == 102)
    }

    @Test func rejectsKeepTheirLineAndRawText() throws {
        let text = "[ 1.000000] EV_ABS ABS_X 00000001\nnot an event\r\n[ 1.000000] EV_SYN SYN_REPORT 00000000\n"
        var source = try DeviceLogSource(ByteInput(text: text, name: "r.txt"), format: .getevent)
        var rejects: [(Reject, String)] = []
        while let item = try source.next() {
            if case .reject(let r) = item { rejects.append((r, source.lastRaw)) }
        }
        #expect(rejects.count == 1)
        #expect(rejects.first?.0.source == SourceLocation(file: "r.txt", line: 2))
        #expect(rejects.first?.0.raw == "not an event")
        #expect(rejects.first?.1 == "not an event")
    }

    @Test func aFileChangedBetweenThePassesIsAnError() throws {
        let original = try SharedRecordings.bytes("getevent/tablet-single-touch.getevent-lt.txt")
        let url = try temporaryFile(original)
        let input = try ByteInput(path: url.path)
        var source = try DeviceLogSource(input, format: .getevent, file: url.path)   // first pass done
        // Rewrite the same file in place (same inode, so `input` reads the new bytes).
        let handle = try FileHandle(forWritingTo: url)
        try handle.write(contentsOf: Data(original.map { $0 == UInt8(ascii: "1") ? UInt8(ascii: "2") : $0 }))
        try handle.close()
        #expect(throws: InputError.self) { _ = try drain(&source) }
    }

    @Test func controlRecordsPassThroughAndAreCollected() throws {
        let text = """
            {"type":"control","id":"ok","frame":[10,20,30,40],"container":"table","config":"spring-press"}
            {"session":"s","t":1,"phase":"began","x":1,"y":2}

            """
        var source = ControlRecordCollector(NDJSONReader(ByteInput(text: text, name: "l.ndjson")))
        let items = try drain(&source)
        #expect(items.count == 2)
        let expected = LayoutControl(id: "ok", frame: Rect(x: 10, y: 20, width: 30, height: 40), container: .table,
                                     config: "spring-press")
        #expect(items.first == .control(expected))
        #expect(source.controls == [expected])
    }
}
