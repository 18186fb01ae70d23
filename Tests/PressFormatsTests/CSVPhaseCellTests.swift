// A CSV row's phase cell, read a chunk at a time (the plain row's word compare, and the comma
// scan when the row is too short for it) and by `next()`: the five names, and near misses that
// must be rejects.
import Testing
import PressCore
@testable import PressFormats

@Suite struct CSVPhaseCellTests {
    /// Cells and the phase each names (nil: not a phase).
    static let cells: [(String, TouchPhase?)] = [
        ("began", .began), ("moved", .moved), ("stationary", .stationary), ("ended", .ended),
        ("cancelled", .cancelled), ("begun", nil), ("Began", nil), ("stationar", nil), ("stationaryx", nil),
        ("stationarx", nil), ("cancelledd", nil), ("cancelle", nil), ("ended ", nil), ("move", nil), ("", nil),
    ]

    /// Reads `header` and one row per cell (`row(cell)`), by chunks of 3 and by `next()`, and
    /// checks each row's item.
    static func check(header: String, row: (String) -> String) throws {
        let text = header + "\n" + cells.map { row($0.0) }.joined(separator: "\n") + "\n"
        var byItem = CSVReader(ByteInput(text: text, name: "p.csv"))
        var items: [RecordItem] = []
        while let i = try byItem.next() { items.append(i) }
        var chunked = CSVReader(ByteInput(text: text, name: "p.csv"))
        let chunks = try readChunks(&chunked, limit: 3)
        #expect(chunks.items == items)
        #expect(items.count == cells.count)
        for (item, (cell, phase)) in zip(chunks.items, cells) {
            switch item {
            case .touch(let r): #expect(r.sample.phase == phase, "\(cell)")
            case .reject: #expect(phase == nil, "\(cell)")
            default: Issue.record("\(cell): \(item)")
            }
        }
    }

    @Test func readsTheFiveNamesAndRejectsTheRestInLongAndShortRows() throws {
        // Long rows: eleven bytes or more from the phase on.
        try Self.check(header: "session,t,phase,x,y,config,user") { "s1,0.25,\($0),10.5,20.75,," }
        // Short rows: fewer than eleven bytes from the phase on for most.
        try Self.check(header: "session,t,phase,x,y") { "s1,0.25,\($0),1,2" }
    }
}
