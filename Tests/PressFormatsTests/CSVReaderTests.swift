import Testing
import PressCore
@testable import PressFormats

func readCSV(_ text: String) throws -> [RecordItem] {
    var r = CSVReader(ByteInput(text: text, name: "e.csv"))
    var out: [RecordItem] = []
    while let i = try r.next() { out.append(i) }
    return out
}

@Suite struct CSVReaderTests {
    @Test func readsRowsWithFrameQuotingAndExtras() throws {
        let items = try readCSV("""
            session,t,phase,x,y,config,frame_x,frame_y,frame_w,frame_h,note,container
            "s,1",0.5,began,10,20,spring-press,1,2,30,40,"say ""hi""
            there",scroll
            "s,1",0.6,ended,10,20,,,,,,,

            """)
        #expect(items.count == 2)
        guard case .touch(let a) = items[0], case .touch(let b) = items[1] else { Issue.record("\(items)"); return }
        #expect(a.session == "s,1" && b.session == "s,1")
        #expect(a.sample == TouchSample(t: 0.5, x: 10, y: 20, phase: .began))
        #expect(a.attributes.frame == Rect(x: 1, y: 2, width: 30, height: 40))
        #expect(a.attributes.container == .scroll)
        #expect(a.attributes.extra == #"{"note":"say \"hi\"\nthere"}"#)
        #expect(a.source.line == 2 && b.source.line == 4)
        #expect(b.attributes.isEmpty)
    }

    @Test func givesTheSameRecordsAsNDJSON() throws {
        let csv = try readCSV("session,t,phase,x,y,user\nk,1.25,began,3.5,4,u1\nk,1.5,moved,3.75,4.5,\nk,1.75,cancelled,3.75,4.5,\n")
        let ndjson = try readNDJSON("""
            {"session":"k","t":1.25,"phase":"began","x":3.5,"y":4,"user":"u1"}
            {"session":"k","t":1.5,"phase":"moved","x":3.75,"y":4.5}
            {"session":"k","t":1.75,"phase":"cancelled","x":3.75,"y":4.5}
            """)
        func strip(_ items: [RecordItem]) -> [TouchRecord] {
            items.compactMap { if case .touch(var r) = $0 { r.source = SourceLocation(file: "", line: 0); return r }; return nil }
        }
        #expect(strip(csv).count == 3)
        #expect(strip(csv) == strip(ndjson))
    }

    @Test func rowProblemsAreRejected() throws {
        let items = try readCSV("session,t,phase,x,y\ns,abc,began,1,2\ns,1,began,1\ns,nan,began,1,2\ns,1,tapped,1,2\n,1,began,1,2\ns,1\"x\",began,1,2\n")
        #expect(items.map(rejectReason) == [
            #"e.csv:2: "t" must be a number, not "abc""#,
            "e.csv:3: row has 4 fields, the header has 5",
            #"e.csv:4: "t" is NaN, not a finite number"#,
            #"e.csv:5: phase "tapped" is not one of began, moved, stationary, ended, cancelled"#,
            #"e.csv:6: missing field "session""#,
            #"e.csv:7: "t" must be a number, not "1\"x\"""#,
        ])
    }

    @Test func headerWithoutRequiredColumnsIsAnInputError() {
        #expect(throws: InputError.self) { try readCSV("session,t,x,y\ns,1,2,3\n") }
    }

    @Test func formatDetection() throws {
        #expect(try InputFormat.detect(ByteInput(text: "\n  {\"a\":1}", name: "x")) == .ndjson)
        #expect(try InputFormat.detect(ByteInput(text: "session,t,phase,x,y\n", name: "x")) == .csv)
        #expect(throws: InputError.self) { try InputFormat.detect(ByteInput(text: "hello world\n", name: "x")) }
    }
}
