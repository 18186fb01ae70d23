import PressCore
@testable import PressFormats
import Testing

@Suite struct TouchLogOptionsTests {
    func records(_ text: String, csv: Bool, _ options: TouchLogOptions) throws -> [RecordItem] {
        var items: [RecordItem] = []
        if csv {
            var r = CSVReader(ByteInput(text: text, name: "x"), options: options)
            while let i = try r.next() { items.append(i) }
        } else {
            var r = NDJSONReader(ByteInput(text: text, name: "x"), options: options)
            while let i = try r.next() { items.append(i) }
        }
        return items
    }

    func chunkTimes(_ text: String, _ options: TouchLogOptions) throws -> [Double] {
        var r = CSVReader(ByteInput(text: text, name: "x"), options: options)
        var chunk = RecordChunk()
        _ = try r.read(into: &chunk, limit: 100, yieldingBeforeWait: false)
        return (0..<chunk.touchCount).map { chunk.touch($0).sample.t }
    }

    @Test func aHeaderlessCSVInMillisecondsWithItsOwnPhaseNames() throws {
        var o = TouchLogOptions()
        try o.setColumns("session,phase,x,y,t")
        o.timeUnit = .ms
        try o.setPhaseNames("began=touchdown,moved=touchmove,ended=touchend")
        let text = "7,touchdown,100,200,5003000\n7,touchmove,101,200,5003016\n7,touchend,101,201,5003081\n"
        let samples = try records(text, csv: true, o).compactMap { if case .touch(let r) = $0 { r.sample } else { nil } }
        // The times are the Doubles the decimal texts in seconds read as (5003081 / 1000 correctly rounded).
        #expect(samples.map(\.t) == [Double("5003.0")!, Double("5003.016")!, Double("5003.081")!])
        #expect(samples.map(\.phase) == [.began, .moved, .ended])
        // The chunk path divides the same way.
        #expect(try chunkTimes(text, o) == samples.map(\.t))
        // Own names still read; an unknown one names both sets.
        let other = try records("7,began,1,1,1\n7,lift,1,1,2\n", csv: true, o)
        guard case .reject(let r) = other[1] else { Issue.record("not rejected"); return }
        #expect(r.reason == #"phase "lift" is not one of began, moved, stationary, ended, cancelled, touchdown, touchend, touchmove"#)
    }

    @Test func aHeadersNamesMapToFields() throws {
        var o = TouchLogOptions()
        try o.setColumns("session=id,t=when")
        let items = try records("id,when,phase,x,y\na,1.5,began,1,2\n", csv: true, o)
        guard case .touch(let r) = items.first else { Issue.record("no record"); return }
        #expect(r.session == "a" && r.sample.t == 1.5)
    }

    @Test func nanosecondsInNDJSON() throws {
        var o = TouchLogOptions()
        o.timeUnit = .ns
        let items = try records(#"{"session":"a","t":1500000000,"phase":"began","x":1,"y":2}"#, csv: false, o)
        guard case .touch(let r) = items.first else { Issue.record("no record"); return }
        #expect(r.sample.t == 1.5)
    }

    @Test func badOptionTextsSayWhatIsWrong() {
        var o = TouchLogOptions()
        #expect(throws: FieldProblem("column \"t\" is named twice")) { try o.setColumns("t,x,t") }
        #expect(throws: FieldProblem("a column name is empty")) { try o.setColumns("t,,x") }
        #expect(throws: FieldProblem("give either every column's name (NAME,…, for a CSV without a header) or FIELD=HEADER pairs, not both")) {
            try o.setColumns("session=id,t")
        }
        #expect(throws: FieldProblem(#""lifted" is not one of began, moved, stationary, ended, cancelled"#)) {
            try o.setPhaseNames("lifted=up")
        }
        #expect(throws: FieldProblem(#"name "x" is given twice"#)) { try o.setPhaseNames("began=x,ended=x") }
    }

    @Test func fieldsOneEditFromAKnownOneAreWarnedOnce() throws {
        var r = NDJSONReader(ByteInput(text: """
            {"session":"a","t":1,"phase":"began","x":1,"y":1,"containr":"table","z":3,"colour":"red"}
            {"session":"b","t":1,"phase":"began","x":1,"y":1,"containr":"table"}
            """, name: "w"))
        while try r.next() != nil {}
        // `z` (one edit from `x`, `y`) and `colour` (no known field near) are extra fields, not warned.
        #expect(r.fieldWarnings.map(\.description) == [
            #"w:1: warning: field "containr" is not one pressdb knows and is kept as an extra attribute: did you mean "container"?"#])
        #expect(r.fieldWarningCount == 1)
    }
}

@Suite struct TimeUnitCheckTests {
    func session(_ times: [Double]) -> [TouchSample] { times.map { TouchSample(t: $0, x: 0, y: 0, phase: .moved) } }

    @Test func millisecondTimesAreCaughtAndSecondsAreNot() {
        var ms = TimeUnitCheck()
        ms.observe(session([5003000, 5003081]))                   // an 81 ms tap read as 81 s
        ms.observe(session([6003000, 6003016, 6003032, 6003100])) // gaps 16, 16, 68: mean 33.3 s
        ms.observe(session([1, 1.08]))                            // a real tap
        #expect(ms.sessions == 3 && ms.suspect == 2)
        #expect(ms.likelyUnit == "ms")
        // Median of 81 and 33.33…: (81 + 100/3) / 2 = 57.1666… s.
        #expect(abs(ms.medianSuspectGap! - (81 + 100.0 / 3) / 2) < 1e-9)
        #expect(ms.warning!.contains("milliseconds") && ms.warning!.contains("--time-unit ms"))
        // Read with --time-unit ns already, the same times suggest no unit: t's unit is checked.
        let given = ms.warning(timeUnitGiven: "ns")!
        #expect(given.contains("read with --time-unit ns") && given.contains("check the unit of t") && !given.contains("ingest again"))
        #expect(ms.warning(timeUnitGiven: "s") == ms.warning)
        var s = TimeUnitCheck()
        s.observe(session([1, 1.016, 1.1]))
        s.observe(session([10, 15]))   // a 5 s hold: not 10 s long
        #expect(s.warning == nil)
        var us = TimeUnitCheck()
        us.observe(session([0, 81_000]))   // 81 ms in microseconds
        #expect(us.likelyUnit == "us")
    }
}
